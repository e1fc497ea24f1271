/**
 * The part of `shacl-engine`'s API that bench/shacl.ts uses (the package ships no types).
 * @module
 */
declare module 'shacl-engine' {
  import type * as RDF from '@rdfjs/types';

  /** A SHACL validator over RDF/JS datasets. */
  export class Validator {
    /** A validator of the shapes in `shapes`; `factory` makes the report's terms and dataset. */
    constructor(shapes: RDF.DatasetCore, options: { readonly factory: unknown });
    /** Validates the data in `data.dataset`. */
    validate(data: { readonly dataset: RDF.DatasetCore }): Promise<{ readonly conforms: boolean; readonly results: ReadonlyArray<{ readonly constraintComponent?: RDF.Term }> }>;
  }
}
