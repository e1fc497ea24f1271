/**
 * The RDF/JS packages the specs and benchmarks use as a real consumer of quadlog's RDF/JS
 * interfaces, loaded by name at run time with just the types used here: Comunica's SPARQL
 * engine over RDF/JS sources (`@comunica/query-sparql-rdfjs`), `shacl-engine`, and
 * `@rdfjs/data-model`. Their own declaration files are not read: the first's need the DOM's
 * types and its dependencies fail the strict checks of this repository, and the others have none.
 * @module
 */
import type * as RDF from '@rdfjs/types';

/** The part of Comunica's `QueryEngine` the specs use. */
export interface SparqlEngine {
  /** The solutions of a SELECT query over the given sources, as an async iterable of bindings. */
  queryBindings(query: string, context: { readonly sources: readonly RDF.Source[] }): Promise<AsyncIterable<RDF.Bindings>>;
}

/** The part of a shacl-engine validation report the specs read. */
export interface ShaclReport {
  /** Whether the data conforms to the shapes. */
  readonly conforms: boolean;
  /** The results: the focus node and the path of each violation. */
  readonly results: ReadonlyArray<{ readonly focusNode?: { readonly term: RDF.Term }; readonly path?: ReadonlyArray<{ readonly predicates: readonly RDF.Term[] }> }>;
}

/** The part of shacl-engine's `Validator` the specs use. */
export interface ShaclValidator {
  /** Validates the data of a DatasetCore against the shapes the validator was made with. */
  validate(data: { readonly dataset: RDF.DatasetCore }): Promise<ShaclReport>;
}

/** A package name not known at compile time, so that its declarations are not read. */
function load(name: string): Promise<Record<string, unknown>> {
  return import(name) as Promise<Record<string, unknown>>;
}

/** A new Comunica SPARQL engine over RDF/JS sources. */
export async function comunicaEngine(): Promise<SparqlEngine> {
  const { QueryEngine } = (await load('@comunica/query-sparql-rdfjs')) as { QueryEngine: new () => SparqlEngine };
  return new QueryEngine();
}

/** A shacl-engine validator of the shapes in `shapes`, reporting with `factory`'s terms. */
export async function shaclValidator(shapes: RDF.DatasetCore, factory: RDF.DataFactory): Promise<ShaclValidator> {
  const { Validator } = (await load('shacl-engine')) as { Validator: new (shapes: RDF.DatasetCore, options: { factory: RDF.DataFactory }) => ShaclValidator };
  return new Validator(shapes, { factory });
}

/** The DataFactory of `@rdfjs/data-model`. */
export async function rdfjsDataModel(): Promise<RDF.DataFactory> {
  return (await load('@rdfjs/data-model')).default as RDF.DataFactory;
}
