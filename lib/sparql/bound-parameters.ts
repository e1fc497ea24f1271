/**
 * Bound parameters of a query or update: values given for some of its variables, put into the
 * algebra as terms (never as text), as if each term had been written where its variable is.
 *
 * - Every occurrence of a bound variable in the WHERE clause, in expressions, property paths,
 *   GRAPH names, templates and DESCRIBE lists becomes its term.
 * - A bound variable that a SELECT (or a subquery) projects stays a column of the answer, with
 *   its value in every row.
 * - The query may not give a bound variable a value itself (`BIND … AS ?x`, `VALUES ?x`,
 *   `(expression AS ?x)`, `(COUNT(*) AS ?x)`): that is an error naming the variable, as is
 *   a name the query does not use (a misspelt parameter must not go unnoticed) and a value that
 *   is not an IRI, blank node or literal.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { Algebra } from '../expressions/sparql-libraries.js';
import { BadRequestError } from '../model/errors.js';
import type { BoundParameters } from './types.js';

export type { BoundParameters } from './types.js';

/** The names a variable may have (SPARQL's VARNAME, simplified to what names in practice use). */
const VARIABLE_NAME = /^[A-Za-z0-9_\u00B7\u00C0-\uFFFF]+$/u;

/** Checks the parameters: valid names, and terms a query can hold. */
function checkParameters(bindings: BoundParameters): Map<string, RDF.Term> {
  const out = new Map<string, RDF.Term>();
  for (const [name, term] of Object.entries(bindings)) {
    const bare = name.startsWith('?') || name.startsWith('$') ? name.slice(1) : name;
    if (!VARIABLE_NAME.test(bare)) throw new BadRequestError(`invalid bound parameter name '${name}': a SPARQL variable name is required`);
    const kind = (term as Partial<RDF.Term> | null | undefined)?.termType;
    if (kind !== 'NamedNode' && kind !== 'BlankNode' && kind !== 'Literal') {
      throw new BadRequestError(`the value of bound parameter ?${bare} must be an RDF/JS named node, blank node or literal${typeof kind === 'string' ? ` (found a ${kind})` : ''}`);
    }
    out.set(bare, term);
  }
  return out;
}

/** A copy of an algebra tree with the bound variables replaced; records which names it met. */
class Substitution {
  readonly seen = new Set<string>();

  constructor(private readonly values: ReadonlyMap<string, RDF.Term>) {}

  /** The value of a variable term, or undefined when it is not bound. */
  private valueOf(term: RDF.Term): RDF.Term | undefined {
    if (term.termType !== 'Variable') return undefined;
    this.seen.add(term.value);
    return this.values.get(term.value);
  }

  private refuse(variable: RDF.Variable, how: string): never {
    throw new BadRequestError(`bound parameter ?${variable.value} is given a value by the query itself (${how}); a bound parameter may only stand for a term`);
  }

  /** Any node of the tree: operations, expressions, terms, arrays. */
  map(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((n) => this.map(n));
    if (node === null || typeof node !== 'object') return node;
    const record = node as Record<string, unknown>;
    const termType = record['termType'];
    if (typeof termType === 'string' && termType !== 'Quad') return this.valueOf(node as RDF.Term) ?? node;
    switch (record['type']) {
      case Algebra.types.PROJECT:
        return this.project(node as Algebra.Project);
      case Algebra.types.EXTEND: {
        const op = node as Algebra.Extend;
        if (this.valueOf(op.variable)) this.refuse(op.variable, 'BIND, or an expression or aggregate of a SELECT');
        break;
      }
      case Algebra.types.VALUES: {
        const op = node as Algebra.Values;
        for (const v of op.variables) if (this.valueOf(v)) this.refuse(v, 'VALUES');
        break;
      }
      case Algebra.types.GROUP: {
        const op = node as Algebra.Group;
        // grouping by a constant groups nothing apart: the variable leaves the group key
        const kept = op.variables.filter((v) => !this.valueOf(v));
        return { ...op, variables: kept, input: this.map(op.input), aggregates: this.map(op.aggregates) };
      }
    }
    const copy: Record<string, unknown> = Object.create(Object.getPrototypeOf(node) as object | null) as Record<string, unknown>;
    for (const key of Object.keys(record)) copy[key] = this.map(record[key]);
    return copy;
  }

  /** A projection keeps its bound variables as columns: their values are bound below it. */
  private project(op: Algebra.Project): Algebra.Operation {
    let input = this.map(op.input) as Algebra.Operation;
    for (const v of op.variables) {
      const value = this.valueOf(v);
      if (value) input = { type: Algebra.types.EXTEND, input, variable: v, expression: { type: Algebra.types.EXPRESSION, expressionType: Algebra.expressionTypes.TERM, term: value } };
    }
    return { ...op, input };
  }
}

/**
 * The algebra of a query or update with its bound parameters put in as terms (see the module
 * documentation). The given tree is not changed (it may be a cached compilation).
 * @throws BadRequestError for an invalid name or value, a name the text does not use, or a
 *   variable the query binds itself.
 */
export function bindParameters<T extends Algebra.Operation>(algebra: T, bindings: BoundParameters | undefined): T {
  if (bindings === undefined) return algebra;
  const values = checkParameters(bindings);
  if (values.size === 0) return algebra;
  const substitution = new Substitution(values);
  const bound = substitution.map(algebra) as T;
  for (const name of values.keys()) {
    if (!substitution.seen.has(name)) throw new BadRequestError(`bound parameter ?${name} does not occur in the query`);
  }
  return bound;
}

