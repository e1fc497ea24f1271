/**
 * The evaluation of an incremental delta query's WHERE clause seeded with changed facts: for
 * each changed fact of a table and each pattern of the query over that table that the fact
 * matches, the WHERE clause is evaluated once with that pattern's variables bound to the fact
 * (the seed), over the state given (the new version for additions, the old one for deletions).
 * The solutions found, deduplicated, are the solutions of that state that use at least one of
 * the facts. Loaded by delta-queries.ts on first use (it loads the SPARQL evaluator).
 * @module
 */
import type { Interrupter } from '../model/control.js';
import type { TermDictionary } from '../model/dictionary.js';
import { QueryCompilationError } from '../model/errors.js';
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
 * The solutions on `state` of the incremental query `shape` that use at least one of the facts
 * in `changes` (the `added` or the `removed` side, as `side` says), by a key of their ids.
 */
export async function seededSolutions(
  state: StoreState,
  dictionary: TermDictionary,
  shape: Extract<DeltaQueryShape, { kind: 'incremental' }>,
  changes: TransactionChanges,
  side: 'added' | 'removed',
  factDomain: string,
  access: FactAccess | undefined,
  interrupter: Interrupter,
): Promise<Map<string, SeededRow>> {
  const out = new Map<string, SeededRow>();
  const terms = new QueryTerms(dictionary);
  const mask = factDomainMask(factDomain, 'all', QueryCompilationError);
  const source = new StoreQuadSource(state, dictionary, mask, {}, access);
  const engine = new Engine(source, terms, interrupter, state.catalogue.baseIRI, () => source.graphNames());
  engine.tupleTables = new TupleTableReader(state, dictionary, terms, mask, access);
  engine.collectVariables(shape.where);
  for (const v of shape.variables) engine.slot(v);
  const slots = shape.variables.map((v) => engine.slot(v));
  const seen = new Set<string>();
  for (const pattern of shape.patterns) {
    const delta = changes.get(pattern.tableId);
    if (!delta) continue;
    const tuples = delta[side];
    const arity = delta.arity;
    // constants as ids (a constant the store lacks matches no fact); variables as slots
    const refs: Array<{ readonly id: number } | { readonly slot: number }> = [];
    let impossible = false;
    for (const t of pattern.terms) {
      if (t.termType === 'Variable') refs.push({ slot: engine.slot(t.value) });
      else {
        const id = terms.idOf(t as QueryTerm);
        if (id < 0) impossible = true;
        refs.push({ id });
      }
    }
    if (impossible) continue;
    for (let at = 0; at + arity <= tuples.length; at += arity) {
      const seed = engine.empty();
      let matches = true;
      for (let c = 0; c < refs.length && matches; c++) {
        const ref = refs[c]!;
        const value = tuples[at + c]!;
        if ('id' in ref) matches = ref.id === value;
        else if (seed[ref.slot] === -1) seed[ref.slot] = value;
        else matches = seed[ref.slot] === value;
      }
      if (!matches) continue;
      const seedKey = `${pattern.tableId}:${seed.join(',')}`;
      if (seen.has(seedKey)) continue;
      seen.add(seedKey);
      await engine.runAsync(shape.where, seed, (s) => {
        let key = '';
        for (const slot of slots) key += `${s[slot]},`;
        if (!out.has(key)) out.set(key, { values: slots.map((slot) => (s[slot]! === -1 ? undefined : terms.termOf(s[slot]!))) });
      });
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
