/**
 * Evaluating SPARQL algebra (sparqlalgebrajs, with quads) over a {@link QuadSource}.
 *
 * Solutions are Int32Arrays of term ids, one slot per variable of the query (-1 unbound).
 * Operators push solutions to a callback (returning true stops the evaluation), so answers
 * stream; ORDER BY, GROUP BY, MINUS and joins whose right side cannot take bindings hold
 * what they need. A join feeds the left solution into the right side as bindings when the
 * right side is made only of patterns, paths, unions and joins of those (where substituting
 * bindings is the same as joining); everything else is evaluated on its own and joined.
 * @module
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { Algebra } from 'sparqlalgebrajs';
import { QueryCompilationError } from '../model/errors.js';
import { compareForOrder, compileExpression, createAggregator, effectiveBooleanValue, type Value } from '../datalog/expressions/index.js';
import type { Interrupter } from '../model/control.js';
import { evaluatePath } from './paths.js';
import { ANY_NAMED_GRAPH, DEFAULT_GRAPH, type QuadSource, UNBOUND } from './quad-source.js';
import type { QueryTerm, QueryTerms } from './query-terms.js';

/** Receives solutions; returning true stops the evaluation. */
export type Emit = (solution: Int32Array) => boolean | void;

/** Raised when a query uses something the engine does not evaluate (SERVICE). */
export class UnsupportedQueryError extends QueryCompilationError {}

type Op = Algebra.Operation;

/** Evaluates the algebra of one query. */
export class Engine {
  /** Slot of each variable name. */
  readonly slots = new Map<string, number>();
  private readonly now = new Date();
  private ticks = 0;

  /** Prepares an evaluation. */
  constructor(
    private readonly source: QuadSource,
    /** The query's term ids. */
    readonly terms: QueryTerms,
    private readonly interrupter: Interrupter,
    private readonly baseIRI: string | undefined,
    private readonly namedGraphs: () => number[],
  ) {}

  /** The slot of a variable (allocated on first use). */
  slot(name: string): number {
    let s = this.slots.get(name);
    if (s === undefined) {
      s = this.slots.size;
      this.slots.set(name, s);
    }
    return s;
  }

  /** Allocates slots for every variable of an operation (call before evaluating). */
  collectVariables(op: unknown): void {
    const visit = (x: unknown): void => {
      if (x === null || typeof x !== 'object') return;
      if (Array.isArray(x)) {
        x.forEach(visit);
        return;
      }
      const o = x as { termType?: string; value?: string };
      if (o.termType === 'Variable' && typeof o.value === 'string') this.slot(o.value);
      for (const v of Object.values(o)) visit(v);
    };
    visit(op);
  }

  /** A fresh solution with every slot unbound. */
  empty(): Int32Array {
    return new Int32Array(this.slots.size).fill(-1);
  }

  /** Evaluates `op` under `seed` bindings; pushes solutions (which include the seed). */
  run(op: Op, seed: Int32Array, emit: Emit): boolean {
    if ((++this.ticks & 1023) === 0) this.interrupter.check();
    switch (op.type) {
      case Algebra.types.BGP:
        return this.bgp(op.patterns, seed, emit);
      case Algebra.types.PATTERN:
        return this.bgp([op], seed, emit);
      case Algebra.types.PATH:
        return this.path(op, seed, emit);
      case Algebra.types.JOIN:
        return this.join(op.input, 0, seed, emit);
      case Algebra.types.UNION:
        for (const child of op.input) if (this.run(child, seed, emit)) return true;
        return false;
      case Algebra.types.LEFT_JOIN:
        return this.leftJoin(op, seed, emit);
      case Algebra.types.MINUS:
        return this.minus(op, seed, emit);
      case Algebra.types.FILTER: {
        const test = this.condition(op.expression);
        return this.run(op.input, seed, (s) => (test(s) ? emit(s) : false));
      }
      case Algebra.types.EXTEND: {
        const f = this.expression(op.expression);
        const slot = this.slot(op.variable.value);
        return this.run(op.input, seed, (s) => {
          if (s[slot]! !== -1) return emit(s) === true;
          const v = f(s);
          if (v === undefined) return emit(s) === true;
          const out = s.slice();
          out[slot] = this.terms.idOf(v);
          return emit(out) === true;
        });
      }
      case Algebra.types.VALUES:
        return this.values(op, seed, emit);
      case Algebra.types.GRAPH:
        return this.graph(op, seed, emit);
      case Algebra.types.PROJECT:
        return this.project(op, seed, emit);
      case Algebra.types.DISTINCT:
      case Algebra.types.REDUCED: {
        const seen = new Set<string>();
        return this.run(op.input, seed, (s) => {
          const k = s.join(',');
          if (seen.has(k)) return false;
          seen.add(k);
          return emit(s) === true;
        });
      }
      case Algebra.types.SLICE: {
        let skip = op.start;
        let left = op.length ?? Infinity;
        if (left <= 0) return false;
        let stopped = false;
        this.run(op.input, seed, (s) => {
          if (skip > 0) {
            skip--;
            return false;
          }
          if (emit(s)) {
            stopped = true;
            return true;
          }
          return --left <= 0;
        });
        return stopped;
      }
      case Algebra.types.ORDER_BY:
        return this.orderBy(op, seed, emit);
      case Algebra.types.GROUP:
        return this.group(op, seed, emit);
      case Algebra.types.FROM:
        return this.run(op.input, seed, emit);
      case Algebra.types.NOP:
        return emit(seed.slice()) === true;
      case Algebra.types.SERVICE:
        throw new UnsupportedQueryError('SERVICE (federated query) is not supported');
      default:
        throw new UnsupportedQueryError(`unsupported query operation '${op.type}'`);
    }
  }

  // ---- patterns ----

  /** A term of a pattern: its id, -(slot + 1) … encoded as {id} or {slot}. */
  private termRef(t: RDF.Term): { slot: number } | { id: number } {
    if (t.termType === 'Variable') return { slot: this.slot(t.value) };
    if (t.termType === 'DefaultGraph') return { id: DEFAULT_GRAPH };
    return { id: this.terms.idOf(t as QueryTerm) };
  }

  private bgp(patterns: readonly Algebra.Pattern[], seed: Int32Array, emit: Emit): boolean {
    if (patterns.length === 0) return emit(seed.slice()) === true;
    const compiled = patterns.map((p) => [this.termRef(p.subject), this.termRef(p.predicate), this.termRef(p.object), this.termRef(p.graph)] as const);
    const order: number[] = [];
    const bound = new Set<number>();
    for (let i = 0; i < seed.length; i++) if (seed[i]! !== -1) bound.add(i);
    const remaining = compiled.map((_, i) => i);
    // greedy order: the connected pattern with the smallest estimated result first
    while (remaining.length > 0) {
      let best = 0;
      let bestCost = Infinity;
      remaining.forEach((idx, k) => {
        const refs = compiled[idx]!;
        const constant = (c: number): number => {
          const r = refs[c]!;
          return 'id' in r ? r.id : UNBOUND;
        };
        const graph = constant(3);
        let cost = this.source.estimate ? this.source.estimate(constant(0), constant(1), constant(2), graph === UNBOUND ? ANY_NAMED_GRAPH : graph) : 1000;
        let connected = order.length === 0;
        for (let c = 0; c < 4; c++) {
          const r = refs[c]!;
          if ('slot' in r && bound.has(r.slot)) {
            connected = true;
            cost /= c === 1 ? 2 : 100;
          }
        }
        if (!connected) cost = cost * 1e6 + 1e9;
        if (cost < bestCost) {
          bestCost = cost;
          best = k;
        }
      });
      const idx = remaining.splice(best, 1)[0]!;
      order.push(idx);
      for (const r of compiled[idx]!) if ('slot' in r) bound.add(r.slot);
    }
    const solution = seed.slice();
    const step = (k: number): boolean => {
      if (k === order.length) return emit(solution.slice()) === true;
      const refs = compiled[order[k]!]!;
      const v = refs.map((r) => ('id' in r ? r.id : solution[r.slot]!));
      // a constant (or binding) the store does not hold matches nothing
      for (let c = 0; c < 3; c++) if (v[c]! <= -2) return false;
      const g = v[3]!;
      if (g <= -3) return false;
      let graph: number;
      if ('id' in refs[3]) graph = refs[3].id;
      else graph = g >= 0 ? g : ANY_NAMED_GRAPH;
      const assigned: number[] = [];
      return this.source.match(v[0]!, v[1]!, v[2]!, graph, (s, p, o, gg) => {
        const vals = [s, p, o, gg];
        assigned.length = 0;
        let ok = true;
        for (let c = 0; c < 4 && ok; c++) {
          const r = refs[c]!;
          if ('slot' in r) {
            const cur = solution[r.slot]!;
            if (cur === -1) {
              solution[r.slot] = vals[c]!;
              assigned.push(r.slot);
            } else if (cur !== vals[c]) ok = false;
          }
        }
        const stop = ok ? step(k + 1) : false;
        for (const a of assigned) solution[a] = -1;
        return stop;
      });
    };
    return step(0);
  }

  private path(op: Algebra.Path, seed: Int32Array, emit: Emit): boolean {
    const sRef = this.termRef(op.subject);
    const oRef = this.termRef(op.object);
    const gRef = this.termRef(op.graph);
    const sv = 'id' in sRef ? sRef.id : seed[sRef.slot]!;
    const ov = 'id' in oRef ? oRef.id : seed[oRef.slot]!;
    const graphs: number[] = [];
    if ('id' in gRef) graphs.push(gRef.id);
    else if (seed[gRef.slot]! >= 0) graphs.push(seed[gRef.slot]!);
    else if (seed[gRef.slot]! === -1) graphs.push(...this.namedGraphs());
    for (const g of graphs) {
      const stop = evaluatePath(op.predicate, sv, ov, g, this.source, (s, o) => {
        const out = seed.slice();
        if ('slot' in sRef) {
          if (out[sRef.slot]! === -1) out[sRef.slot] = s;
          else if (out[sRef.slot] !== s) return false;
        }
        if ('slot' in oRef) {
          if (out[oRef.slot]! === -1) out[oRef.slot] = o;
          else if (out[oRef.slot] !== o) return false;
        }
        if ('slot' in gRef && out[gRef.slot]! === -1) out[gRef.slot] = g;
        return emit(out) === true;
      });
      if (stop) return true;
    }
    return false;
  }

  private graph(op: Algebra.Graph, seed: Int32Array, emit: Emit): boolean {
    // with quads, patterns already carry their graph; a Graph node can still wrap other operators
    const name = op.name;
    if (name.termType !== 'Variable') return this.run(op.input, seed, emit);
    const slot = this.slot(name.value);
    const graphs = seed[slot]! !== -1 ? [seed[slot]!] : this.namedGraphs();
    for (const g of graphs) {
      const s = seed.slice();
      s[slot] = g;
      if (this.run(op.input, s, emit)) return true;
    }
    return false;
  }

  // ---- joins ----

  /** Whether substituting bindings into `op` equals joining with it. */
  private seedable(op: Op): boolean {
    switch (op.type) {
      case Algebra.types.BGP:
      case Algebra.types.PATTERN:
      case Algebra.types.PATH:
        return true;
      case Algebra.types.JOIN:
      case Algebra.types.UNION:
        return op.input.every((c) => this.seedable(c));
      default:
        return false;
    }
  }

  private join(inputs: readonly Op[], i: number, seed: Int32Array, emit: Emit, held = new Map<number, Int32Array[]>()): boolean {
    if (i === inputs.length) return emit(seed) === true;
    const op = inputs[i]!;
    if (i === 0 || this.seedable(op)) return this.run(op, seed, (s) => this.join(inputs, i + 1, s, emit, held));
    // evaluated once on its own, then joined with each solution so far
    let right = held.get(i);
    if (!right) held.set(i, (right = this.collect(op, this.empty())));
    for (const r of right) {
      const merged = merge(seed, r);
      if (merged && this.join(inputs, i + 1, merged, emit, held)) return true;
    }
    return false;
  }

  private leftJoin(op: Algebra.LeftJoin, seed: Int32Array, emit: Emit): boolean {
    const [left, right] = op.input;
    const test = op.expression ? this.condition(op.expression) : undefined;
    const seeded = this.seedable(right);
    const rightAll = seeded ? undefined : this.collect(right, this.empty());
    return this.run(left, seed, (l) => {
      let matched = false;
      const each = (r: Int32Array): boolean => {
        const merged = seeded ? r : merge(l, r);
        if (!merged || (test && !test(merged))) return false;
        matched = true;
        return emit(merged) === true;
      };
      if (seeded) {
        if (this.run(right, l, each)) return true;
      } else {
        for (const r of rightAll!) if (each(r)) return true;
      }
      return matched ? false : emit(l);
    });
  }

  private minus(op: Algebra.Minus, seed: Int32Array, emit: Emit): boolean {
    const [left, right] = op.input;
    const rightAll = this.collect(right, this.empty());
    return this.run(left, seed, (l) => {
      for (const r of rightAll) {
        let shared = false;
        let compatible = true;
        for (let i = 0; i < l.length; i++) {
          if (l[i]! !== -1 && r[i]! !== -1) {
            shared = true;
            if (l[i] !== r[i]) {
              compatible = false;
              break;
            }
          }
        }
        if (shared && compatible) return false;
      }
      return emit(l) === true;
    });
  }

  private values(op: Algebra.Values, seed: Int32Array, emit: Emit): boolean {
    for (const binding of op.bindings) {
      const out = seed.slice();
      let ok = true;
      for (const v of op.variables) {
        const t = binding[`?${v.value}`] ?? (binding as Record<string, RDF.Term | undefined>)[v.value];
        if (!t) continue;
        const id = this.terms.idOf(t as QueryTerm);
        const s = this.slot(v.value);
        if (out[s]! === -1) out[s] = id;
        else if (out[s] !== id) ok = false;
      }
      if (ok && emit(out)) return true;
    }
    return false;
  }

  private project(op: Algebra.Project, seed: Int32Array, emit: Emit): boolean {
    const keep = op.variables.map((v) => this.slot(v.value));
    const inner = this.empty();
    // a subquery sees only the projected variables of the outer bindings
    for (const s of keep) inner[s] = seed[s]!;
    return this.run(op.input, inner, (s) => {
      const out = seed.slice();
      for (const k of keep) {
        if (s[k]! === -1) continue;
        if (out[k]! === -1) out[k] = s[k]!;
        else if (out[k] !== s[k]) return false;
      }
      return emit(out) === true;
    });
  }

  /** All solutions of `op` (for operators that need them at once). */
  collect(op: Op, seed: Int32Array): Int32Array[] {
    const out: Int32Array[] = [];
    this.run(op, seed, (s) => void out.push(s));
    return out;
  }

  // ---- ordering and grouping ----

  private orderBy(op: Algebra.OrderBy, seed: Int32Array, emit: Emit): boolean {
    const keys = op.expressions.map((e) => {
      const desc = e.expressionType === Algebra.expressionTypes.OPERATOR && (e).operator === 'desc';
      const inner = desc || (e.expressionType === Algebra.expressionTypes.OPERATOR && (e).operator === 'asc') ? (e).args[0]! : e;
      return { f: this.expression(inner), desc };
    });
    const rows = this.collect(op.input, seed).map((s) => ({ s, k: keys.map((k) => k.f(s)) }));
    rows.sort((a, b) => {
      for (let i = 0; i < keys.length; i++) {
        const c = compareForOrder(a.k[i], b.k[i]);
        if (c !== 0) return keys[i]!.desc ? -c : c;
      }
      return 0;
    });
    for (const r of rows) if (emit(r.s)) return true;
    return false;
  }

  private group(op: Algebra.Group, seed: Int32Array, emit: Emit): boolean {
    const keySlots = op.variables.map((v) => this.slot(v.value));
    const aggs = op.aggregates.map((a) => ({
      slot: this.slot(a.variable.value),
      fn: a.aggregator,
      distinct: a.distinct,
      separator: (a as Algebra.GroupConcatExpression).separator,
      star: a.expression.expressionType === Algebra.expressionTypes.WILDCARD,
      f: a.expression.expressionType === Algebra.expressionTypes.WILDCARD ? undefined : this.expression(a.expression),
    }));
    const groups = new Map<string, { key: Int32Array; aggregators: ReturnType<typeof createAggregator>[] }>();
    const make = (): ReturnType<typeof createAggregator>[] =>
      aggs.map((a) => createAggregator(a.fn, a.distinct, { ...(a.separator !== undefined ? { separator: a.separator } : {}), countStar: a.star }));
    this.run(op.input, seed, (s) => {
      const k = keySlots.map((x) => s[x]).join(',');
      let g = groups.get(k);
      if (!g) {
        const key = seed.slice();
        for (const x of keySlots) key[x] = s[x]!;
        g = { key, aggregators: make() };
        groups.set(k, g);
      }
      aggs.forEach((a, i) => {
        // COUNT(DISTINCT *) needs a term that identifies the solution
        const v = a.star ? (a.distinct ? DataFactory.literal(s.join(',')) : DataFactory.literal('')) : a.f!(s);
        g.aggregators[i]!.add(v);
      });
    });
    if (groups.size === 0 && keySlots.length === 0) groups.set('', { key: seed.slice(), aggregators: make() });
    for (const g of groups.values()) {
      const out = g.key.slice();
      aggs.forEach((a, i) => {
        const r = g.aggregators[i]!.result();
        if (r !== undefined) out[a.slot] = this.terms.idOf(r);
      });
      if (emit(out)) return true;
    }
    return false;
  }

  // ---- expressions ----

  /** Compiles an expression over solutions; undefined on error. */
  expression(e: Algebra.Expression): (s: Int32Array) => Value | undefined {
    const context = {
      now: this.now,
      ...(this.baseIRI !== undefined ? { baseIRI: this.baseIRI } : {}),
      exists: (pattern: Op, get: (v: string) => Value | undefined): boolean => {
        const seed = this.empty();
        for (const [name, slot] of this.slots) {
          const v = get(name);
          if (v !== undefined) seed[slot] = this.terms.idOf(v);
        }
        return this.run(pattern, seed, () => true);
      },
    };
    const f = compileExpression(e, context);
    return (s) => {
      try {
        return f((name) => {
          const slot = this.slots.get(name);
          if (slot === undefined) return undefined;
          const id = s[slot]!;
          return id === -1 ? undefined : this.terms.termOf(id);
        });
      } catch {
        return undefined;
      }
    };
  }

  /** Compiles a condition (effective boolean value; errors are false). */
  condition(e: Algebra.Expression): (s: Int32Array) => boolean {
    const f = this.expression(e);
    return (s) => {
      const v = f(s);
      if (v === undefined) return false;
      try {
        return effectiveBooleanValue(v);
      } catch {
        return false;
      }
    };
  }
}

/** The merge of two compatible solutions, or undefined. */
export function merge(a: Int32Array, b: Int32Array): Int32Array | undefined {
  const out = a.slice();
  for (let i = 0; i < b.length; i++) {
    const v = b[i]!;
    if (v === -1) continue;
    if (out[i]! === -1) out[i] = v;
    else if (out[i] !== v) return undefined;
  }
  return out;
}

export { UNBOUND };
