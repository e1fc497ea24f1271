/**
 * `GRAPH` blocks: the pattern inside evaluated with a named graph as the active graph, once
 * per named graph of the dataset when the name is a variable, joined with the variable bound
 * to the graph (§18.6, eval(D(G), Graph(var, P))). A basic graph pattern inside
 * `GRAPH ?g` is matched in every named graph in one pass, with ?g bound by the quads.
 * @module
 */
import { Algebra } from '../expressions/sparql-libraries.js';
import type { Engine } from './engine.js';
import { seedable } from './joins.js';
import { DEFAULT_GRAPH } from './quad-source.js';
import type { Emit } from './solutions.js';

/** The named graphs of a query's dataset, asked of the dataset on first use. */
export class NamedGraphs {
  private list: number[] | undefined;
  private set: Set<number> | undefined;

  /** @param names - the dataset's named graphs */
  constructor(private readonly names: () => number[]) {}

  /** The named graphs of the dataset. */
  all(): number[] {
    return (this.list ??= this.names());
  }

  /** Whether `id` is a named graph of the dataset. */
  has(id: number): boolean {
    return (this.set ??= new Set(this.all())).has(id);
  }
}

/**
 * `GRAPH name { P }`: P with the named graph as the active graph, once per named graph of
 * the dataset when the name is a variable, joined with the variable bound to the graph. P
 * sees the variable bound only when it takes bindings (where that equals joining), so that
 * e.g. `GRAPH ?g { FILTER(BOUND(?g)) }` and OPTIONAL/MINUS/subqueries inside follow §18.6.
 */
export function graph(engine: Engine, op: Algebra.Graph, seed: Int32Array, emit: Emit): boolean {
  const name = op.name;
  const input = op.input;
  if (name.termType === 'Variable' && seed[engine.slot(name.value)]! === -1 && input.type === Algebra.types.BGP && input.patterns.length > 0) {
    return engine.bgp(input.patterns, seed, DEFAULT_GRAPH, emit, engine.slot(name.value));
  }
  for (const run of graphRuns(engine, op, seed, emit)) if (engine.evaluate(input, run.seed, run.active, run.emit)) return true;
  return false;
}

/** The same for an evaluation that lets the event loop in ({@link Engine.evaluateAsync}). */
export async function graphAsync(engine: Engine, op: Algebra.Graph, seed: Int32Array, emit: Emit): Promise<boolean> {
  for (const run of graphRuns(engine, op, seed, emit)) if (await engine.evaluateAsync(op.input, run.seed, run.active, run.emit)) return true;
  return false;
}

/** The evaluations of P that `GRAPH name { P }` stands for: under which bindings, with which graph active, emitting where. */
function graphRuns(engine: Engine, op: Algebra.Graph, seed: Int32Array, emit: Emit): Array<{ seed: Int32Array; active: number; emit: Emit }> {
  const name = op.name;
  const graphs = engine.namedGraphs;
  if (name.termType !== 'Variable') {
    const id = engine.terms.idOf(name);
    return graphs.has(id) ? [{ seed, active: id, emit }] : [];
  }
  const slot = engine.slot(name.value);
  const bound = seed[slot]!;
  const each = bound === -1 ? graphs.all() : graphs.has(bound) ? [bound] : [];
  if (seedable(op.input)) {
    return each.map((g) => {
      const s = seed.slice();
      s[slot] = g;
      return { seed: s, active: g, emit };
    });
  }
  return each.map((g) => ({
    seed,
    active: g,
    emit: (r: Int32Array) => {
      if (r[slot]! === g) return emit(r) === true;
      if (r[slot]! !== -1) return false;
      const out = r.slice();
      out[slot] = g;
      return emit(out) === true;
    },
  }));
}
