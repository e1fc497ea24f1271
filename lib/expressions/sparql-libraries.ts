/**
 * The SPARQL parser (sparqljs) and algebra translator (sparqlalgebrajs), loaded the first time
 * a text is parsed rather than when quadlog is imported, and the algebra's namespace
 * ({@link Algebra}: its types and node-type constants) that costs nothing to load.
 *
 * Both libraries are CommonJS packages and are loaded with `require`, synchronously: a caller
 * that parses synchronously (a rule's FILTER, a row filter, a commit procedure) stays
 * synchronous.
 * @module
 */
import { createRequire } from 'node:module';
import type * as SparqlJs from 'sparqljs';
import type * as SparqlAlgebra from 'sparqlalgebrajs';

export * as Algebra from './algebra.js';

const requireLibrary = createRequire(import.meta.url);

let sparqljs: typeof SparqlJs | undefined;
/** The module `sparqlalgebrajs/lib/sparqlAlgebra.js` (CommonJS, its `translate` as `default`). */
let translation: { readonly default: typeof SparqlAlgebra.translate } | undefined;

/** A sparqljs parser (`new Parser(options)`), loading sparqljs on first use. */
export function sparqlParser(options?: SparqlJs.ParserOptions): SparqlJs.SparqlParser {
  sparqljs ??= requireLibrary('sparqljs') as typeof SparqlJs;
  return new sparqljs.Parser(options);
}

/**
 * sparqlalgebrajs's `translate` (a sparqljs syntax tree to algebra), loading it on first use:
 * its own module, not the package's index, which also loads the algebra-to-SPARQL writer and
 * its dependencies.
 */
export function translate(...args: Parameters<typeof SparqlAlgebra.translate>): SparqlAlgebra.Algebra.Operation {
  translation ??= requireLibrary('sparqlalgebrajs/lib/sparqlAlgebra.js') as { readonly default: typeof SparqlAlgebra.translate };
  return translation.default(...args);
}
