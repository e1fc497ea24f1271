/**
 * The evaluation of an incremental delta query's WHERE clause seeded with changed facts: for
 * each changed fact of a table and each pattern of the query over that table that the fact
 * matches, the WHERE clause is evaluated once with that pattern's variables bound to the fact
 * (the seed), over the state given (the new version for additions, the old one for deletions).
 * The solutions found, deduplicated, are the solutions of that state that use at least one of
 * the facts. The changed facts are matched against each pattern's constants (looked up once
 * per query, not per commit) before any engine is made, so a commit that touches none of a
 * query's patterns costs a few comparisons per changed fact. Also the evaluation of a whole
 * answer (re-run queries, first answers). Both stop at a deadline (the server's
 * `query-time-limit`, applied by delta-queries.ts). Loaded by delta-queries.ts on first use (it
 * loads the SPARQL evaluator).
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import type { Interrupter } from '../model/control.js';
import type { TermDictionary } from '../model/dictionary.js';
import { QueryCompilationError } from '../model/errors.js';
import { termToKey } from '../model/terms.js';
import { Algebra } from '../expressions/sparql-libraries.js';
import { type DatasetGraphs, StoreQuadSource } from '../sparql/dataset.js';
import type { CompiledQuery } from '../sparql/parse.js';
import { Engine } from '../sparql/engine.js';
import { QueryTerms, type QueryTerm } from '../sparql/query-terms.js';
import { TupleTableReader } from '../sparql/tuple-table-access.js';
import type { FactAccess } from '../storage/fact-access.js';
import type { StoreState } from '../storage/fact-store.js';
import type { TransactionChanges } from '../storage/change-log.js';
import { factDomainMask } from '../storage/tuple-table.js';
import type { DeltaQueryShape } from './delta-query-shape.js';

/** One solution of an incremental query: its projected terms, keyed by their ids. */
export interface SeededRow {
  /** The projected values (undefined: unbound). */
  readonly values: ReadonlyArray<QueryTerm | undefined>;
}

/**
 * A pattern of an incremental query prepared for matching changed facts without an engine:
 * for each position, a constant (its dictionary key, and its id once looked up) or a variable
 * (its name, and the earlier position of the same variable, where it repeats).
 */
interface PatternMatcher {
  readonly tableId: number;
  readonly terms: readonly RDF.Term[];
  /** Per position: the key of a constant, or undefined for a variable. */
  readonly keys: ReadonlyArray<string | undefined>;
  /** Per position: the first position of the same variable when this one repeats it, else -1. */
  readonly repeats: readonly number[];
  /** The constants' ids (-1: not looked up yet or unknown), valid while the dictionary's truncation count is `truncations`. */
  ids: Int32Array;
  truncations: number;
}

/** The matchers of each incremental shape (made on first use, kept as long as the shape). */
const matchersOf = new WeakMap<object, readonly PatternMatcher[]>();

function matchers(shape: IncrementalShape): readonly PatternMatcher[] {
  let out = matchersOf.get(shape);
  if (out === undefined) {
    out = shape.patterns.map((pattern) => {
      const keys = pattern.terms.map((t) => (t.termType === 'Variable' ? undefined : termToKey(t)));
      const repeats = pattern.terms.map((t) => (t.termType === 'Variable' ? pattern.terms.findIndex((u) => u.termType === 'Variable' && u.value === t.value) : -1)).map((first, i) => (first === i ? -1 : first));
      return { tableId: pattern.tableId, terms: pattern.terms, keys, repeats, ids: new Int32Array(keys.length).fill(-1), truncations: -1 };
    });
    matchersOf.set(shape, out);
  }
  return out;
}

/**
 * The ids of a matcher's constants in `dictionary`; false when one of them is not in it (the
 * pattern then matches no fact). Ids found are kept until the dictionary truncates; a constant
 * not found is looked up again next time (a later commit may add it).
 */
function resolve(m: PatternMatcher, dictionary: TermDictionary): boolean {
  if (m.truncations !== dictionary.truncations) {
    m.ids.fill(-1);
    m.truncations = dictionary.truncations;
  }
  for (let c = 0; c < m.keys.length; c++) {
    const key = m.keys[c];
    if (key === undefined || m.ids[c]! >= 0) continue;
    const id = dictionary.lookup(key);
    if (id < 0) return false;
    m.ids[c] = id;
  }
  return true;
}

/** Whether the tuple at `at` of `tuples` matches a resolved matcher (constants equal, a repeated variable the same value). */
function matchesAt(m: PatternMatcher, tuples: ArrayLike<number>, at: number): boolean {
  const { keys, ids, repeats } = m;
  for (let c = 0; c < keys.length; c++) {
    const value = tuples[at + c]!;
    if (keys[c] !== undefined) {
      if (ids[c] !== value) return false;
    } else if (repeats[c]! >= 0 && tuples[at + repeats[c]!] !== value) return false;
  }
  return true;
}

/** The facts of one side of a change that match a pattern: the pattern and the offsets of the facts in the table's delta. */
interface Matches {
  readonly matcher: PatternMatcher;
  readonly tuples: ArrayLike<number>;
  readonly offsets: readonly number[];
}

/** The changed facts of `side` that match each pattern of `shape` (patterns that match none are left out). */
function matching(shape: IncrementalShape, dictionary: TermDictionary, changes: TransactionChanges, side: 'added' | 'removed'): Matches[] {
  const out: Matches[] = [];
  for (const m of matchers(shape)) {
    const delta = changes.get(m.tableId);
    if (!delta) continue;
    const tuples = delta[side];
    if (tuples.length === 0 || !resolve(m, dictionary)) continue;
    const arity = delta.arity;
    const offsets: number[] = [];
    for (let at = 0; at + arity <= tuples.length; at += arity) if (matchesAt(m, tuples, at)) offsets.push(at);
    if (offsets.length > 0) out.push({ matcher: m, tuples, offsets });
  }
  return out;
}

/** An incremental shape. */
type IncrementalShape = Extract<DeltaQueryShape, { kind: 'incremental' }>;

/**
 * The solutions on `state` of the incremental query `shape` that use at least one of the facts
 * in `changes` (the `added` or the `removed` side, as `side` says), by a key of their ids.
 * Changed facts are first matched against the patterns' constants; the WHERE clause is
 * evaluated only for those that match (none: no evaluation at all), once per distinct seed.
 * `access` is asked only when something is evaluated. The evaluation stops with
 * InterruptedError once `performance.now()` passes `deadline`.
 */
export async function seededSolutions(
  state: StoreState,
  dictionary: TermDictionary,
  shape: IncrementalShape,
  changes: TransactionChanges,
  side: 'added' | 'removed',
  factDomain: string,
  access: () => FactAccess | undefined,
  interrupter: Interrupter,
  deadline = Infinity,
): Promise<Map<string, SeededRow>> {
  const out = new Map<string, SeededRow>();
  const found = matching(shape, dictionary, changes, side);
  if (found.length === 0) return out;
  const terms = new QueryTerms(dictionary);
  const mask = factDomainMask(factDomain, 'all', QueryCompilationError);
  const facts = access();
  const source = new StoreQuadSource(state, dictionary, mask, {}, facts);
  const engine = new Engine(source, terms, interrupter, state.catalogue.baseIRI, () => source.graphNames());
  engine.tupleTables = new TupleTableReader(state, dictionary, terms, mask, facts);
  engine.deadline = deadline;
  engine.collectVariables(shape.where);
  for (const v of shape.variables) engine.slot(v);
  const slots = shape.variables.map((v) => engine.slot(v));
  const emit = (s: Int32Array): void => {
    let key = '';
    for (const slot of slots) key += `${s[slot]},`;
    if (!out.has(key)) out.set(key, { values: slots.map((slot) => (s[slot]! === -1 ? undefined : terms.termOf(s[slot]!))) });
  };
  const seen = new Set<string>();
  for (const { matcher, tuples, offsets } of found) {
    const refs = matcher.terms.map((t) => (t.termType === 'Variable' ? engine.slot(t.value) : -1));
    for (const at of offsets) {
      const seed = engine.empty();
      for (let c = 0; c < refs.length; c++) if (refs[c]! >= 0) seed[refs[c]!] = tuples[at + c]!;
      const seedKey = seed.join(',');
      if (seen.has(seedKey)) continue;
      seen.add(seedKey);
      await engine.runAsync(shape.where, seed, emit);
    }
  }
  return out;
}

/**
 * The whole answer of a compiled SELECT query on `state` (FROM / FROM NAMED as the dataset):
 * its variables and rows (a row once per copy).
 */
export async function wholeAnswer(
  state: StoreState,
  dictionary: TermDictionary,
  compiled: CompiledQuery,
  factDomain: string,
  access: FactAccess | undefined,
  agent: string,
  interrupter: Interrupter,
  deadline = Infinity,
): Promise<{ variables: string[]; rows: Array<ReadonlyArray<QueryTerm | undefined>> }> {
  let algebra = compiled.algebra;
  let dataset: DatasetGraphs = {};
  if (algebra.type === Algebra.types.FROM) {
    const ids = (iris: readonly { value: string }[]): number[] => iris.map((i) => dictionary.lookup(`<${i.value}>`)).filter((id) => id >= 0);
    dataset = { defaultGraphs: ids(algebra.default), namedGraphs: ids(algebra.named) };
    algebra = algebra.input;
  }
  const terms = new QueryTerms(dictionary);
  const mask = factDomainMask(factDomain, 'all', QueryCompilationError);
  const source = new StoreQuadSource(state, dictionary, mask, dataset, access);
  const engine = new Engine(source, terms, interrupter, compiled.parsed.base ?? state.catalogue.baseIRI, () => source.graphNames());
  engine.tupleTables = new TupleTableReader(state, dictionary, terms, mask, access);
  engine.agent = agent;
  engine.deadline = deadline;
  engine.collectVariables(algebra);
  let project: Algebra.Operation = algebra;
  while (project.type !== Algebra.types.PROJECT && 'input' in project && !Array.isArray(project.input)) project = project.input as Algebra.Operation;
  const variables = project.type === Algebra.types.PROJECT ? project.variables.map((v) => v.value) : [];
  const rows: Array<ReadonlyArray<QueryTerm | undefined>> = [];
  // LIMIT 0 leaves no slice in the algebra
  if ('limit' in compiled.parsed && compiled.parsed.limit === 0) return { variables, rows };
  const slots = variables.map((v) => engine.slot(v));
  await engine.runAsync(algebra, engine.empty(), (s) => {
    rows.push(slots.map((slot) => (s[slot]! === -1 ? undefined : terms.termOf(s[slot]!))));
  });
  return { variables, rows };
}
