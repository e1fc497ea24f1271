/**
 * The shape of a registered delta query, decided once at registration: whether its answer
 * changes can be computed from a commit's change log (`incremental`), or only by evaluating it
 * again and comparing with the answer kept from the previous version (`rerun`).
 *
 * Incremental: a SELECT whose WHERE clause is basic graph patterns joined, with FILTERs (no
 * EXISTS / NOT EXISTS) and GRAPH (a named graph or a variable), no FROM / FROM NAMED, no blank
 * node in a pattern, and every variable of a pattern (and of a GRAPH) projected (`SELECT *`
 * or all of them). Its solutions are then distinct mappings of the pattern variables, so the
 * answer is a set, and a solution is new (gone) exactly when it uses at least one fact that the
 * commit added (removed). This holds with OWL axioms and with equality too: quadlog
 * axiomatises `owl:sameAs` (the copies of a triple for the terms equal to its terms are derived
 * facts), so a merge or a split of terms changes answers only through facts in the commit's
 * change log; the property spec checks it under FBF and DRed.
 *
 * Everything else re-runs: projection of fewer variables, DISTINCT / REDUCED, aggregates,
 * OPTIONAL, MINUS, UNION, BIND, VALUES, subqueries, property paths, ORDER BY, LIMIT / OFFSET,
 * EXISTS, a FILTER calling NOW, RAND, UUID, STRUUID or BNODE (a solution kept from an earlier
 * version was filtered with another value: deletions evaluated again could remove rows never
 * added), tuple table atoms, FROM; and the `derived` fact domain (the change log has no delta of it).
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { Algebra } from '../expressions/sparql-libraries.js';
import { DEFAULT_TRIPLES_ID, QUADS_ID } from '../storage/fact-store.js';

/** A triple pattern of an incremental query, with the table its facts are in. */
export interface DeltaPattern {
  /** DefaultTriples (a pattern of the default graph) or Quads (inside GRAPH). */
  readonly tableId: number;
  /** Subject, predicate, object and, in Quads, the graph: variables or constants. */
  readonly terms: readonly RDF.Term[];
}

/** How a delta query's changes are computed. */
export type DeltaQueryShape =
  | {
      /** Computed from the change log. */
      readonly kind: 'incremental';
      /** The WHERE clause without its projection (it is evaluated with seeds). */
      readonly where: Algebra.Operation;
      /** The projected variables, in the answer's order. */
      readonly variables: readonly string[];
      /** Its triple patterns. */
      readonly patterns: readonly DeltaPattern[];
      /** The tables its patterns read. */
      readonly tables: ReadonlySet<number>;
    }
  | {
      /** Evaluated again at each commit that changed anything, and compared. */
      readonly kind: 'rerun';
      /** Why (for describe). */
      readonly reason: string;
    };

/** Collects the patterns of an incremental WHERE clause; returns why not when it is not one. */
function collect(op: Algebra.Operation, graph: RDF.Term | undefined, out: DeltaPattern[], vars: Set<string>): string | undefined {
  switch (op.type) {
    case Algebra.types.BGP:
      for (const p of op.patterns) {
        const terms = graph === undefined ? [p.subject, p.predicate, p.object] : [p.subject, p.predicate, p.object, graph];
        for (const t of terms) {
          if (t.termType === 'BlankNode') return 'a blank node in a pattern';
          if (t.termType === 'Variable') vars.add(t.value);
        }
        if (graph === undefined && p.graph.termType !== 'DefaultGraph') return 'a pattern with its own graph';
        out.push({ tableId: graph === undefined ? DEFAULT_TRIPLES_ID : QUADS_ID, terms });
      }
      return undefined;
    case Algebra.types.JOIN:
      for (const input of op.input) {
        const why = collect(input, graph, out, vars);
        if (why) return why;
      }
      return undefined;
    case Algebra.types.FILTER:
      if (hasExists(op.expression)) return 'FILTER EXISTS / NOT EXISTS';
      if (hasVolatile(op.expression)) return 'a FILTER with a function whose value changes from one evaluation to the next (NOW, RAND, UUID, STRUUID, BNODE)';
      return collect(op.input, graph, out, vars);
    case Algebra.types.GRAPH:
      if (graph !== undefined) return 'nested GRAPH';
      if (op.name.termType === 'Variable') vars.add(op.name.value);
      return collect(op.input, op.name, out, vars);
    default:
      return `the operator ${op.type}`;
  }
}

/** The SPARQL functions whose value is not fixed by their arguments (algebra operator names). */
const VOLATILE = new Set(['now', 'rand', 'uuid', 'struuid', 'bnode']);

/**
 * Whether an expression calls a function whose value changes from one evaluation to the next:
 * solutions kept from earlier versions were filtered with other values, so only a new
 * evaluation of the whole query at each commit gives an answer of that version.
 */
function hasVolatile(e: Algebra.Expression): boolean {
  if (e.expressionType === Algebra.expressionTypes.OPERATOR) return VOLATILE.has(e.operator.toLowerCase()) || e.args.some(hasVolatile);
  if (e.expressionType === Algebra.expressionTypes.NAMED) return e.args.some(hasVolatile);
  return false;
}

/** Whether an expression contains EXISTS or NOT EXISTS. */
function hasExists(e: Algebra.Expression): boolean {
  if (e.expressionType === Algebra.expressionTypes.EXISTENCE) return true;
  if (e.expressionType === Algebra.expressionTypes.OPERATOR || e.expressionType === Algebra.expressionTypes.NAMED) return e.args.some(hasExists);
  return false;
}

/**
 * The shape of a compiled query (its algebra) over a fact domain (`all`, `explicit` or
 * `derived`); throws nothing: a query that is not incremental re-runs.
 */
export function deltaQueryShape(algebra: Algebra.Operation, factDomain: string): DeltaQueryShape {
  if (factDomain === 'derived') return { kind: 'rerun', reason: 'the derived fact domain' };
  if (algebra.type !== Algebra.types.PROJECT) return { kind: 'rerun', reason: algebra.type === Algebra.types.FROM ? 'FROM / FROM NAMED' : `the operator ${algebra.type} around the projection` };
  const patterns: DeltaPattern[] = [];
  const vars = new Set<string>();
  const why = collect(algebra.input, undefined, patterns, vars);
  if (why) return { kind: 'rerun', reason: why };
  if (patterns.length === 0) return { kind: 'rerun', reason: 'no triple pattern' };
  const variables = algebra.variables.map((v) => v.value);
  const projected = new Set(variables);
  for (const v of vars) if (!projected.has(v)) return { kind: 'rerun', reason: `the pattern variable ?${v} is not projected` };
  return { kind: 'incremental', where: algebra.input, variables, patterns, tables: new Set(patterns.map((p) => p.tableId)) };
}
