/**
 * ORDER BY and GROUP BY as operators over the solutions of one input: both hold their input's
 * solutions (or groups) against the query's memory budget and emit once the input is
 * exhausted. `COUNT(*)` of a single pattern of distinct variables is answered from the
 * store's running counts without a scan.
 * @module
 */
import { DataFactory } from 'n3';
import { compareForOrder, type Value } from '../expressions/index.js';
import { Algebra } from '../expressions/sparql-libraries.js';
import type { Engine } from './engine.js';
import { type AggregateSpec, Grouping } from './grouping.js';
import { memoized } from './memo.js';
import { aggregateValueBytes, groupBytes, HOLDERS, sortRowBytes } from './query-budget.js';
import { DEFAULT_GRAPH, UNBOUND } from './quad-source.js';
import type { QueryTerm } from './query-terms.js';
import type { Emit, SingleInputOperator } from './solutions.js';
import { hasVariable } from './triple-term-patterns.js';

const XSD_INTEGER = DataFactory.namedNode('http://www.w3.org/2001/XMLSchema#integer');

/**
 * ORDER BY: the input's solutions with their sort keys, sorted and emitted once the input is
 * exhausted. Under a LIMIT (`engine.orderLimits`), only the first `offset + limit` (k)
 * solutions can be emitted: the rows are sorted and cut back to k whenever twice as many are
 * held, and a row that does not sort before the last one kept is dropped at once (equal keys
 * keep their arrival order, so it would come after it). The answer is that of the full sort.
 */
export function orderBy(engine: Engine, op: Algebra.OrderBy, seed: Int32Array, active: number, emit: Emit): SingleInputOperator {
  const keys = op.expressions.map((e) => {
    const desc = e.expressionType === Algebra.expressionTypes.OPERATOR && e.operator === 'desc';
    const inner = desc || (e.expressionType === Algebra.expressionTypes.OPERATOR && e.operator === 'asc') ? e.args[0]! : e;
    return { f: engine.expression(inner, active), desc };
  });
  const rows: Array<{ s: Int32Array; k: Array<Value | undefined> }> = [];
  const held = engine.budget?.account(HOLDERS.orderBy);
  const compare = (a: { k: Array<Value | undefined> }, b: { k: Array<Value | undefined> }): number => {
    for (let i = 0; i < keys.length; i++) {
      const c = compareForOrder(a.k[i], b.k[i]);
      if (c !== 0) return keys[i]!.desc ? -c : c;
    }
    return 0;
  };
  const sort = (): void => {
    rows.sort(compare);
  };
  const kept = engine.orderLimits.get(op);
  const cutAt = kept === undefined ? Infinity : Math.max(2 * kept, TOP_K_MIN_ROWS);
  // after a cut: the last row kept; a later row that does not sort before it can never be emitted
  let last: { k: Array<Value | undefined> } | undefined;
  return {
    input: op.input,
    seed,
    emit: (s) => {
      const row = { s, k: keys.map((k) => k.f(s)) };
      if (last !== undefined && compare(row, last) >= 0) return;
      const bytes = sortRowBytes(s.length, keys.length);
      held?.add(bytes);
      rows.push(row);
      if (rows.length >= cutAt) {
        sort();
        rows.length = kept!;
        last = rows[kept! - 1];
        held?.release();
        held?.add(bytes * kept!);
      }
    },
    finish: () => {
      held?.release();
      sort();
      for (const r of rows) if (emit(r.s)) return true;
      return false;
    },
    finishAsync: async (_stopped, pause, due) => {
      held?.release();
      const sorted = await sortInSlices(rows, compare, pause, due);
      for (let i = 0; i < sorted.length; i++) {
        if (emit(sorted[i]!.s)) return true;
        if ((i & 255) === 0 && due()) await pause();
      }
      return false;
    },
  };
}

/** Rows sorted at once in a run of {@link sortInSlices}. */
const SORT_RUN = 2048;

/**
 * A stable sort that lets the event loop in: runs of {@link SORT_RUN} rows sorted one at a
 * time, then merged pairwise, with a pause whenever the time slice is used up. The order is that
 * of `rows.sort(compare)`.
 */
export async function sortInSlices<T>(rows: T[], compare: (a: T, b: T) => number, pause: () => Promise<void>, due: () => boolean): Promise<T[]> {
  if (rows.length <= SORT_RUN) return rows.sort(compare);
  for (let start = 0; start < rows.length; start += SORT_RUN) {
    const run = rows.slice(start, start + SORT_RUN).sort(compare);
    for (let i = 0; i < run.length; i++) rows[start + i] = run[i]!;
    if (due()) await pause();
  }
  let from = rows;
  let to: T[] = new Array<T>(rows.length);
  for (let width = SORT_RUN; width < rows.length; width *= 2) {
    for (let left = 0; left < rows.length; left += 2 * width) {
      const mid = Math.min(left + width, rows.length);
      const end = Math.min(left + 2 * width, rows.length);
      let i = left;
      let j = mid;
      let k = left;
      // on equal keys the left run first: the merge is stable
      while (i < mid && j < end) {
        to[k++] = compare(from[j]!, from[i]!) < 0 ? from[j++]! : from[i++]!;
        if ((k & 4095) === 0 && due()) await pause();
      }
      while (i < mid) to[k++] = from[i++]!;
      while (j < end) to[k++] = from[j++]!;
    }
    [from, to] = [to, from];
  }
  return from;
}

/** ORDER BY under a LIMIT holds at least this many rows before it cuts them back. */
const TOP_K_MIN_ROWS = 1024;

/** The number of solutions of a single-pattern BGP, when the statistics give it exactly. */
function countFromStatistics(engine: Engine, op: Algebra.Operation, seed: Int32Array, active: number): number | undefined {
  if (op.type !== Algebra.types.BGP || op.patterns.length !== 1 || active !== DEFAULT_GRAPH) return undefined;
  const p = op.patterns[0]!;
  if (p.graph.termType !== 'DefaultGraph') return undefined;
  const seen = new Set<string>();
  const ids: number[] = [];
  for (const t of [p.subject, p.predicate, p.object]) {
    if (t.termType === 'Variable') {
      if (seen.has(t.value) || seed[engine.slot(t.value)]! !== -1) return undefined;
      seen.add(t.value);
      ids.push(UNBOUND);
    } else {
      // a triple term written with variables is matched on the triple-term index, not counted here
      if (t.termType === 'Quad' && hasVariable(t)) return undefined;
      const id = engine.terms.idOf(t as QueryTerm);
      if (id < 0) return 0;
      ids.push(id);
    }
  }
  return engine.source.exactCount!(ids[0]!, ids[1]!, ids[2]!, DEFAULT_GRAPH);
}

/**
 * COUNT(*) of one pattern of distinct variables, from the running counts: the aggregate's
 * slot and the count; undefined when the group is anything else or the counts do not tell.
 */
export function countStar(engine: Engine, op: Algebra.Group, seed: Int32Array, active: number): { slot: number; n: number } | undefined {
  if (op.variables.length !== 0 || op.aggregates.length !== 1 || !engine.source.exactCount) return undefined;
  const a = op.aggregates[0]!;
  if (a.expression.expressionType !== Algebra.expressionTypes.WILDCARD || a.distinct || a.aggregator !== 'count') return undefined;
  const n = countFromStatistics(engine, op.input, seed, active);
  return n === undefined ? undefined : { slot: engine.slot(a.variable.value), n };
}

/** Emits the COUNT(*) that {@link countStar} found. */
export function emitCountStar(engine: Engine, op: Algebra.Group, seed: Int32Array, active: number, emit: Emit): boolean {
  const { slot, n } = countStar(engine, op, seed, active)!;
  const out = seed.slice();
  out[slot] = engine.terms.idOf(DataFactory.literal(String(n), XSD_INTEGER));
  return emit(out) === true;
}

/** GROUP BY with its aggregates ({@link Grouping}); undefined when {@link countStar} answers it. */
export function group(engine: Engine, op: Algebra.Group, seed: Int32Array, active: number, emit: Emit): SingleInputOperator | undefined {
  if (countStar(engine, op, seed, active)) return undefined;
  const keySlots = op.variables.map((v) => engine.slot(v.value));
  const held = engine.budget?.account(HOLDERS.group);
  const aggs = op.aggregates.map((a): AggregateSpec => {
    const e = a.expression;
    const star = e.expressionType === Algebra.expressionTypes.WILDCARD;
    let value = star ? undefined : memoized(e, (name) => engine.slot(name), engine.expression(e, active));
    if (held && value && a.aggregator === 'group_concat') {
      const f = value;
      value = (s) => {
        const v = f(s);
        held.add(aggregateValueBytes(v));
        return v;
      };
    }
    const variableSlot = e.expressionType === Algebra.expressionTypes.TERM && e.term.termType === 'Variable' ? engine.slot(e.term.value) : undefined;
    return { slot: engine.slot(a.variable.value), fn: a.aggregator, distinct: a.distinct, separator: (a as Algebra.GroupConcatExpression).separator, star, variableSlot, value };
  });
  const counts = new Map<number, number>();
  const terms = engine.terms;
  const ids = {
    idOf: (v: Value): number => terms.idOf(v),
    termOf: (id: number): Value => terms.termOf(id),
    countId: (n: number): number => {
      let id = counts.get(n);
      if (id === undefined) counts.set(n, (id = terms.idOf(DataFactory.literal(String(n), XSD_INTEGER))));
      return id;
    },
  };
  const onNewGroup = held ? (s: Int32Array): void => held.add(groupBytes(keySlots.map((x) => s[x]).join(','), s.length, aggs.length)) : undefined;
  const grouping = new Grouping(keySlots, aggs, seed, ids, onNewGroup);
  return {
    input: op.input,
    seed,
    emit: (s) => grouping.add(s),
    finish: () => {
      held?.release();
      return grouping.emitAll(emit);
    },
    finishAsync: (_stopped, pause, due) => {
      held?.release();
      return grouping.emitAllAsync(emit, pause, due);
    },
  };
}
