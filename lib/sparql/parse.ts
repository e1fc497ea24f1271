/**
 * Parsing SPARQL queries and updates (sparqljs, with the store's prefixes and base IRI) and
 * their translation to algebra (sparqlalgebrajs). Synchronous, and light to import: the two
 * libraries are loaded by the first parse, and the evaluator is not needed here at all.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import type { SparqlQuery } from 'sparqljs';
import { Algebra, sparqlParser, translate } from '../expressions/sparql-libraries.js';
import { checkBracketNesting, checkTreeNesting } from './nesting.js';
import { functionNameEdits } from '../expressions/function-names.js';
import { BadRequestError, QueryCompilationError } from '../model/errors.js';
import { checkFunctionArity } from './errors.js';
import { orderSelectStarColumns } from './select-star.js';
import { checkSelectScopes, checkValuesVariables, SelectScopeError } from './select-scope.js';
import { checkBlankNodeScopes, keepOptionalFilterScope, parseSparqlText, type TextRewrite } from './syntax.js';
import { tupleTableEdits } from './tuple-table-syntax.js';
import { mayBeSparql12, parseSparql12, type Sparql12Parse } from './sparql12.js';
import type { UpdateDataset } from './types.js';

/** The extensions of SPARQL's syntax, written as standard SPARQL before sparqljs parses a text (queries and updates alike). */
const SYNTAX_EXTENSIONS: readonly TextRewrite[] = [
  // RDFox's `TT name { t1 … tn }` tuple table atoms
  tupleTableEdits,
  // RDFox's unprefixed function names (`LOG(?x)`), as calls of the functions' IRIs
  functionNameEdits,
];

/** The store's prefixes as sparqljs takes them (names without the colon). */
function prefixObject(prefixes: ReadonlyMap<string, string>): Record<string, string> {
  return Object.fromEntries([...prefixes].map(([k, v]) => [k.slice(0, -1), v]));
}

/**
 * sparqljs's options: the store's prefixes, the base IRI, and `skipValidation` (sparqljs's
 * check of the SELECT clause of aggregating queries is replaced by select-scope.ts's).
 */
function parserOptions(prefixes: ReadonlyMap<string, string>, baseIRI: string): { prefixes: Record<string, string>; baseIRI: string } {
  // a variable, not a literal: the declared ParserOptions lack skipValidation
  const options = { prefixes: prefixObject(prefixes), baseIRI, skipValidation: true };
  return options;
}

/** Parses a query with the store's prefixes; syntax errors are QueryCompilationError. */
export function parseQuery(text: string, prefixes: ReadonlyMap<string, string>, baseIRI: string): SparqlQuery {
  const parser = sparqlParser(parserOptions(prefixes, baseIRI));
  checkBracketNesting(text, 'query');
  const parsed = parseSparqlText((t) => parser.parse(t), text, 'query', SYNTAX_EXTENSIONS);
  checkTreeNesting(parsed, 'query');
  checkFunctionArity(text, 'query');
  if (parsed.type !== 'query') throw new QueryCompilationError('expected a query, found an update (use evaluateUpdate)');
  checkBlankNodeScopes(parsed);
  checkSelectScopes(parsed);
  checkValuesVariables(text);
  return parsed;
}

/** A parsed query and its algebra. */
export interface CompiledQuery {
  /**
   * The sparqljs syntax tree; of a text parsed on the parsing thread (parse-off-thread.ts),
   * only its `type`, `queryType`, `base` and `limit`.
   */
  readonly parsed: SparqlQuery;
  /** Its algebra. */
  readonly algebra: Algebra.Operation;
}

/** Parsed queries and their algebra, per prefix set, by base IRI and text (a small cache). */
const compiledQueries = new WeakMap<object, Map<string, CompiledQuery>>();
const COMPILED_QUERIES_KEPT = 256;

/** The cache of one prefix set, by base IRI and text. */
function compiledOf(prefixes: ReadonlyMap<string, string>): Map<string, CompiledQuery> {
  let byText = compiledQueries.get(prefixes);
  if (!byText) compiledQueries.set(prefixes, (byText = new Map<string, CompiledQuery>()));
  return byText;
}

/** Keeps a compiled query for later calls with the same text, prefixes and base (also one compiled elsewhere, on the parsing thread). */
export function rememberCompiledQuery(text: string, prefixes: ReadonlyMap<string, string>, baseIRI: string, entry: CompiledQuery): void {
  const byText = compiledOf(prefixes);
  if (byText.size >= COMPILED_QUERIES_KEPT) byText.delete(byText.keys().next().value!);
  byText.set(`${baseIRI}\u0000${text}`, entry);
}

/** The compiled query kept for this text, prefixes and base, if any. */
export function cachedCompiledQuery(text: string, prefixes: ReadonlyMap<string, string>, baseIRI: string): CompiledQuery | undefined {
  return compiledOf(prefixes).get(`${baseIRI}\u0000${text}`);
}

/**
 * Parses and translates a query, reusing the result for the same text, prefixes and base. The
 * columns of `SELECT *` are its variables in the order they first appear in the text.
 */
export function compileQuery(text: string, prefixes: ReadonlyMap<string, string>, baseIRI: string): CompiledQuery {
  const cached = cachedCompiledQuery(text, prefixes, baseIRI);
  if (cached) return cached;
  let parsed: SparqlQuery;
  let algebra: Algebra.Operation;
  try {
    parsed = parseQuery(text, prefixes, baseIRI);
    algebra = toAlgebra(parsed, baseIRI, prefixes, false);
  } catch (e) {
    const sparql12 = sparql12Parse(e, text, prefixes, baseIRI, 'query');
    if (sparql12.parsed.type !== 'query') throw new QueryCompilationError('expected a query, found an update (use evaluateUpdate)');
    ({ parsed, algebra } = sparql12);
  }
  // the columns of SELECT * in the order of the query text, not sorted by name
  orderSelectStarColumns(text, parsed, algebra);
  const entry = { parsed, algebra };
  rememberCompiledQuery(text, prefixes, baseIRI, entry);
  return entry;
}

/**
 * A text sparqljs refused (with `refusal`) parsed as SPARQL 1.2 (`sparql12.ts`), when it may be
 * SPARQL 1.2 and traqula accepts it; otherwise `refusal` is thrown, so that a text neither
 * parser accepts fails with sparqljs's error (its line and column).
 */
function sparql12Parse(refusal: unknown, text: string, prefixes: ReadonlyMap<string, string>, baseIRI: string, kind: 'query' | 'update'): Sparql12Parse {
  if (!(refusal instanceof QueryCompilationError) || !mayBeSparql12(text)) throw refusal;
  let result: Sparql12Parse;
  try {
    result = parseSparqlText((t) => parseSparql12(t, prefixObject(prefixes), baseIRI, kind === 'update'), text, kind, SYNTAX_EXTENSIONS);
  } catch (e) {
    // traqula accepts the text but it breaks a rule of the SELECT clause: that is the error
    throw e instanceof SelectScopeError ? e : refusal;
  }
  checkFunctionArity(text, kind);
  checkValuesVariables(text);
  return result;
}

/**
 * Translates a parsed query or update to algebra (blank nodes as variables). Updates need
 * `quads` (sparqlalgebrajs then pushes GRAPH names into the patterns); queries are translated
 * without, so that GRAPH operators stay in the algebra and the engine evaluates their content
 * with the named graph as the active graph.
 */
export function toAlgebra(parsed: Parameters<typeof translate>[0], baseIRI: string, prefixes: ReadonlyMap<string, string>, quads = true): Algebra.Operation {
  keepOptionalFilterScope(parsed);
  try {
    return translate(parsed, { quads, blankToVariable: true, baseIRI, prefixes: prefixObject(prefixes) });
  } catch (e) {
    const kind = typeof parsed === 'object' && parsed.type === 'update' ? 'update' : 'query';
    throw new QueryCompilationError(`invalid ${kind}: ${(e as Error).message}`, { cause: e });
  }
}

/**
 * Parses an update; syntax errors are QueryCompilationError. With `dataset`, every
 * DELETE/INSERT takes it as its USING and USING NAMED graphs; an update that names its own
 * (USING, USING NAMED or WITH) is then refused, as the SPARQL protocol requires.
 */
export function parseUpdate(text: string, prefixes: ReadonlyMap<string, string>, baseIRI: string, dataset?: UpdateDataset): Algebra.Operation {
  const parser = sparqlParser(parserOptions(prefixes, baseIRI));
  checkBracketNesting(text, 'update');
  let parsed: SparqlQuery;
  try {
    parsed = parseSparqlText((t) => parser.parse(t), text, 'update', SYNTAX_EXTENSIONS);
  } catch (e) {
    const sparql12 = sparql12Parse(e, text, prefixes, baseIRI, 'update');
    if (sparql12.parsed.type !== 'update') throw new QueryCompilationError('expected an update, found a query (use evaluateQuery)');
    if (dataset && ((dataset.usingGraphs?.length ?? 0) > 0 || (dataset.usingNamedGraphs?.length ?? 0) > 0)) {
      throw new BadRequestError('using-graph-uri and using-named-graph-uri cannot be combined with an update in SPARQL 1.2 syntax');
    }
    return sparql12.algebra;
  }
  checkTreeNesting(parsed, 'update');
  checkFunctionArity(text, 'update');
  checkSelectScopes(parsed);
  checkValuesVariables(text);
  // an empty request (only prologue, or nothing) is a valid update that does nothing
  if (!('type' in parsed)) return { type: Algebra.types.COMPOSITE_UPDATE, updates: [] } as unknown as Algebra.Operation;
  if (parsed.type !== 'update') throw new QueryCompilationError('expected an update, found a query (use evaluateQuery)');
  if (dataset && ((dataset.usingGraphs?.length ?? 0) > 0 || (dataset.usingNamedGraphs?.length ?? 0) > 0)) {
    const iris = (list: readonly string[] | undefined): RDF.NamedNode[] => (list ?? []).map((iri) => DataFactory.namedNode(iri));
    for (const u of parsed.updates) {
      if (!('updateType' in u) || u.updateType !== 'insertdelete') continue;
      if (u.using || u.graph) throw new BadRequestError('using-graph-uri and using-named-graph-uri cannot be combined with an update that has USING, USING NAMED or WITH');
      u.using = { default: iris(dataset.usingGraphs), named: iris(dataset.usingNamedGraphs) };
    }
  }
  return toAlgebra(parsed, baseIRI, prefixes);
}
