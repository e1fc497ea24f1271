/**
 * SPARQL 1.2 texts: those sparqljs cannot parse (triple terms `<<( s p o )>>`, reifiers
 * `<< s p o ~ r >>`, annotations `{| … |}`, `VERSION`, literals with a base direction, the new
 * functions) are parsed by traqula (`@traqula/parser-sparql-1-2`) and translated by its algebra
 * translator, and that algebra is rewritten into the one sparqlalgebrajs makes, which the engine
 * evaluates: one evaluation path for both parsers.
 *
 * traqula is heavy to load and to construct (its grammar analyses itself: about half a second
 * in a fresh process), so it is loaded only when sparqljs has refused a text that
 * {@link mayBeSparql12} says could be SPARQL 1.2; a text neither parser accepts fails with
 * sparqljs's error.
 * @module
 */
import { createRequire } from 'node:module';
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import type { SparqlQuery } from 'sparqljs';
import type { Algebra } from '../expressions/sparql-libraries.js';
import { checkSelectScopes } from './select-scope.js';
import { directionOf, languageLiteral } from '../model/terms.js';

/** What of traqula's parser this module uses. */
interface Sparql12Parser {
  parse(text: string, context?: { readonly prefixes?: Record<string, string>; readonly baseIRI?: string }): Sparql12Ast;
}

/** What of traqula's syntax tree this module reads. */
interface Sparql12Ast {
  readonly type: 'query' | 'update';
  readonly subType?: string;
  readonly variables?: ReadonlyArray<{ readonly type?: string }>;
  readonly context?: ReadonlyArray<{ readonly subType?: string; readonly value?: { readonly value?: string } }>;
  readonly solutionModifiers?: { readonly limitOffset?: { readonly limit?: number } };
}

/** The two traqula modules, loaded on first use. */
interface Traqula {
  readonly parser: Sparql12Parser;
  readonly toAlgebra: (ast: Sparql12Ast, options: Record<string, unknown>) => unknown;
}

let traqula: Traqula | undefined;
const requireLibrary = createRequire(import.meta.url);

/** traqula's parser and translator (loaded and constructed once). */
function loadTraqula(): Traqula {
  if (!traqula) {
    const { Parser } = requireLibrary('@traqula/parser-sparql-1-2') as { Parser: new () => Sparql12Parser };
    const { toAlgebra } = requireLibrary('@traqula/algebra-sparql-1-2') as { toAlgebra: Traqula['toAlgebra'] };
    traqula = { parser: new Parser(), toAlgebra };
  }
  return traqula;
}

/**
 * Whether a text may hold SPARQL 1.2 syntax that sparqljs refuses: `<<`, `{|`, `~`, `VERSION`,
 * a negation of a negation (`!!?x`: SPARQL 1.2's `!` takes a unary expression),
 * a base direction (`--ltr`, `--rtl`) or a call of one of SPARQL 1.2's new functions. A cheap
 * lexical look (strings and comments included): a text it accepts wrongly is only parsed a
 * second time, by traqula, before sparqljs's error is reported.
 */
export function mayBeSparql12(text: string): boolean {
  return /<<|\{\||~|!\s*!|\bVERSION\b|--(?:ltr|rtl)\b|\b(?:TRIPLE|SUBJECT|PREDICATE|OBJECT|isTRIPLE|LANGDIR|hasLANG|hasLANGDIR|STRLANGDIR)\s*\(/i.test(text);
}

/** A SPARQL 1.2 text parsed: what evaluation reads of the syntax tree, and the algebra. */
export interface Sparql12Parse {
  /** The fields of a sparqljs tree that evaluation reads (`type`, `queryType`, `base`, `limit`, and a wildcard among `variables` for `SELECT *`). */
  readonly parsed: SparqlQuery;
  /** The algebra, as sparqlalgebrajs shapes it. */
  readonly algebra: Algebra.Operation;
}

/**
 * Parses a SPARQL 1.2 query or update and translates it to algebra (blank nodes as variables;
 * `quads` as {@link toAlgebra} in parse.ts says). Throws traqula's error for a text it refuses.
 */
export function parseSparql12(text: string, prefixes: Record<string, string>, baseIRI: string, quads: boolean): Sparql12Parse {
  const { parser, toAlgebra } = loadTraqula();
  const ast = parser.parse(text, { prefixes: { ...prefixes }, baseIRI });
  checkSelectScopes(selectScopeTree(ast));
  const algebra = adaptAlgebra(toAlgebra(ast, { quads, blankToVariable: true, baseIRI, prefixes: { ...prefixes } })) as Algebra.Operation;
  return { parsed: syntaxSummary(ast), algebra };
}

/**
 * What {@link checkSelectScopes} reads of a sparqljs tree, from traqula's: variables as
 * `{ termType: 'Variable' }`, SELECT items `{ expression, variable }`, aggregates,
 * operations and function calls as sparqljs shapes them, and each SELECT (sub)query with its
 * `variables`, `group`, `having` and `order`.
 */
function selectScopeTree(tree: unknown): unknown {
  const adapt = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(adapt);
    if (x === null || typeof x !== 'object') return x;
    const o = x as Record<string, unknown>;
    if (o.type === 'term') return o.subType === 'variable' ? { termType: 'Variable', value: o.value } : { termType: 'Term' };
    if (o.type === 'wildcard') return { termType: 'Wildcard' };
    if (o.type === 'expression' && o.subType === 'aggregate') {
      const e = Array.isArray(o.expression) ? (o.expression as unknown[])[0] : o.expression;
      return { type: 'aggregate', aggregation: o.aggregation, expression: adapt(e) };
    }
    if (o.type === 'expression' && (o.subType === 'operation' || o.subType === 'functionCall')) return { type: o.subType, operator: o.operator, args: adapt(o.args) };
    if (o.type === 'pattern' && o.subType === 'bind') return { expression: adapt(o.expression), variable: adapt(o.variable) };
    if (o.type === 'query' && o.subType === 'select') {
      const modifiers = (o.solutionModifiers ?? {}) as { group?: { groupings?: unknown[] }; having?: { having?: unknown[] }; order?: { orderDefs?: unknown[] } };
      const group = (modifiers.group?.groupings ?? []).map((g) => {
        const grouping = g as Record<string, unknown>;
        return grouping.type === undefined && 'value' in grouping ? { expression: adapt(grouping.value), variable: adapt(grouping.variable) } : { expression: adapt(g) };
      });
      return {
        type: 'query',
        queryType: 'SELECT',
        variables: adapt(o.variables),
        where: adapt(o.where),
        ...(group.length > 0 ? { group } : {}),
        ...(modifiers.having?.having ? { having: adapt(modifiers.having.having) } : {}),
        ...(modifiers.order?.orderDefs ? { order: adapt(modifiers.order.orderDefs) } : {}),
      };
    }
    return Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'loc').map(([k, v]) => [k, adapt(v)]));
  };
  return adapt(tree);
}

/** The fields of a sparqljs syntax tree that evaluation reads, from traqula's tree. */
function syntaxSummary(ast: Sparql12Ast): SparqlQuery {
  const base = ast.context?.find((c) => c.subType === 'base')?.value?.value;
  const limit = ast.solutionModifiers?.limitOffset?.limit;
  const summary: Record<string, unknown> = { type: ast.type, prefixes: {} };
  if (ast.type === 'query') {
    summary.queryType = (ast.subType ?? 'select').toUpperCase();
    summary.variables = (ast.variables ?? []).some((v) => v.type === 'wildcard') ? [{ termType: 'Wildcard', value: '*' }] : [];
  } else summary.updates = [];
  if (base !== undefined) summary.base = base;
  if (limit !== undefined) summary.limit = limit;
  return summary as unknown as SparqlQuery;
}

/** A traqula RDF term as an n3 term (a triple term as an n3 quad in the default graph, its parts rebuilt too). */
function adaptTerm(t: RDF.Term): RDF.Term {
  switch (t.termType) {
    case 'NamedNode':
      return DataFactory.namedNode(t.value);
    case 'BlankNode':
      return DataFactory.blankNode(t.value);
    case 'Variable':
      return DataFactory.variable(t.value);
    case 'DefaultGraph':
      return DataFactory.defaultGraph();
    case 'Literal': {
      const direction = directionOf(t);
      if (t.language) return languageLiteral(t.value, t.language, direction);
      return DataFactory.literal(t.value, DataFactory.namedNode(t.datatype.value));
    }
    case 'Quad':
      return DataFactory.quad(adaptTerm(t.subject) as RDF.Quad_Subject, adaptTerm(t.predicate) as RDF.Quad_Predicate, adaptTerm(t.object) as RDF.Quad_Object);
    default:
      return t;
  }
}

/**
 * traqula's algebra in sparqlalgebrajs's shapes: expressions name their kind `expressionType`
 * (traqula: `subType`), the rows of VALUES name their variables with `?`, and RDF terms are n3 terms (a pattern, a quad with fields of its own,
 * stays a plain object with its terms rebuilt).
 */
function adaptAlgebra(tree: unknown): unknown {
  const done = new Map<object, unknown>();
  const adapt = (x: unknown): unknown => {
    if (x === null || typeof x !== 'object') return x;
    const seen = done.get(x);
    if (seen !== undefined) return seen;
    if (Array.isArray(x)) {
      const out: unknown[] = [];
      done.set(x, out);
      for (const item of x) out.push(adapt(item));
      return out;
    }
    const o = x as Record<string, unknown>;
    if (typeof o.termType === 'string' && o.type === undefined) {
      const term = adaptTerm(o as unknown as RDF.Term);
      done.set(x, term);
      return term;
    }
    const out: Record<string, unknown> = {};
    done.set(x, out);
    for (const [k, v] of Object.entries(o)) {
      if (o.type === 'expression' && k === 'subType') out.expressionType = v;
      else if (o.type === 'values' && k === 'bindings') out[k] = (v as Array<Record<string, unknown>>).map((row) => Object.fromEntries(Object.entries(row).map(([name, term]) => [`?${name}`, adapt(term)])));
      else out[k] = adapt(v);
    }
    // OPTIONAL { { P FILTER(F) } }: the filter is the left join's condition, as sparqlalgebrajs makes it (it may read the left side's variables)
    const right = Array.isArray(out.input) ? (out.input as Array<Record<string, unknown>>)[1] : undefined;
    if (o.type === 'leftjoin' && out.expression === undefined && right?.type === 'filter') {
      out.input = [(out.input as unknown[])[0], right.input];
      out.expression = right.expression;
    }
    return out;
  };
  return adapt(tree);
}
