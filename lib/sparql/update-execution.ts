/**
 * The execution of SPARQL 1.1 updates inside a write transaction: INSERT/DELETE DATA,
 * DELETE/INSERT … WHERE (with USING and WITH), DELETE WHERE, LOAD, CLEAR, DROP, CREATE, ADD,
 * MOVE and COPY. Loaded by update.ts on the first update, not when quadlog is imported.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { Algebra } from '../expressions/sparql-libraries.js';
import { BadRequestError, ImportError, ParsingError, QueryCompilationError } from '../model/errors.js';
import { SourceRefusedError } from '../model/source-refusal.js';
import { termToKey } from '../model/terms.js';
import { DEFAULT_TRIPLES_ID, QUADS_ID } from '../storage/fact-store.js';
import { type Catalogue, storesFacts, unstoredFactsText } from '../storage/catalogue.js';
import { EXPLICIT, DERIVED } from '../storage/tuple-table.js';
import type { TermDictionary } from '../model/dictionary.js';
import { StoreQuadSource, type DatasetGraphs } from './dataset.js';
import { Engine } from './engine.js';
import { applyLimits } from './query-budget.js';
import { QueryTerms } from './query-terms.js';
import { describeTupleAtom, type TupleAtomPattern, type TupleAtomSplit, tupleAtomsOf, TupleTableReader } from './tuple-table-access.js';
import type { UpdateTarget } from './types.js';

/** Whether a term holds neither variables nor blank nodes (at any depth). */
function isGroundTerm(t: RDF.Term): boolean {
  if (t.termType === 'Variable' || t.termType === 'BlankNode') return false;
  return t.termType !== 'Quad' || (isGroundTerm(t.subject) && isGroundTerm(t.predicate) && isGroundTerm(t.object));
}

/** Runs every operation of an update, in order. */
export async function executeUpdate(op: Algebra.Operation, target: UpdateTarget, baseIRI: string): Promise<void> {
  const ops = op.type === Algebra.types.COMPOSITE_UPDATE ? op.updates : [op];
  // the time limit covers the whole update: every WHERE clause shares one deadline
  const started = performance.now();
  for (const u of ops) await executeOne(u, target, baseIRI, started);
}

async function executeOne(op: Algebra.Operation, target: UpdateTarget, baseIRI: string, started: number): Promise<void> {
  switch (op.type) {
    case Algebra.types.DELETE_INSERT:
      return deleteInsert(op, target, baseIRI, started);
    case Algebra.types.LOAD: {
      const destination = op.destination?.value;
      // the role must be allowed to write where the data goes, SILENT or not
      checkLoadDestination(destination, target);
      try {
        await target.load(op.source.value, destination);
      } catch (e) {
        if (!op.silent || !failedLoad(e)) throw e;
      }
      return;
    }
    case Algebra.types.CLEAR:
    case Algebra.types.DROP: {
      const graphs = selectGraphs(op.source, target);
      if (!op.silent && typeof op.source !== 'string' && op.source.termType === 'NamedNode' && graphs.length === 0 && op.type === Algebra.types.DROP) {
        throw new BadRequestError(`graph <${op.source.value}> does not exist`);
      }
      for (const g of graphs) clearGraph(g, target);
      return;
    }
    case Algebra.types.CREATE: {
      const id = target.dictionary.lookup(`<${op.source.value}>`);
      if (!op.silent && id >= 0 && graphHasFacts(id, target)) throw new BadRequestError(`graph <${op.source.value}> already exists`);
      return;
    }
    case Algebra.types.ADD:
    case Algebra.types.MOVE:
    case Algebra.types.COPY: {
      const from = graphRef(op.source, target);
      const to = graphRef(op.destination, target);
      // graphs exist as long as they hold facts: a missing source is an empty one
      if (from === to) return;
      if (op.type !== Algebra.types.ADD) clearGraph(to, target);
      const rows = graphTriples(from, target);
      for (const [s, p, o] of rows) putTriple(to, s, p, o, target, true);
      if (op.type === Algebra.types.MOVE) clearGraph(from, target);
      return;
    }
    case Algebra.types.NOP:
      return;
    default:
      throw new QueryCompilationError(`unsupported update operation '${op.type}'`);
  }
}

/**
 * Whether an error of LOAD is a failed load, which `LOAD SILENT` turns into success: the
 * resource could not be read (unreachable, missing, refused by the server's read policy) or
 * its content is not valid RDF. A privilege the role lacks, an interrupt, a time limit, a
 * memory limit and any other failure of the request are errors with SILENT too.
 */
export function failedLoad(e: unknown): boolean {
  return e instanceof ParsingError || e instanceof ImportError || e instanceof BadRequestError || e instanceof SourceRefusedError;
}

/** Refuses a LOAD into a graph the role may not write (before anything is read). */
function checkLoadDestination(destination: string | undefined, target: UpdateTarget): void {
  const access = target.tx.access;
  if (!access) return;
  if (destination === undefined) access.checkWrite(DEFAULT_TRIPLES_ID, [0, 0, 0]);
  else access.checkWrite(QUADS_ID, [0, 0, 0, target.dictionary.intern(`<${destination}>`)]);
}

type GraphRef = 'default' | number;

function graphRef(t: RDF.Term | 'DEFAULT' | 'NAMED' | 'ALL', target: UpdateTarget): GraphRef {
  if (typeof t === 'string' || t.termType === 'DefaultGraph') return 'default';
  return target.dictionary.intern(`<${t.value}>`);
}

function selectGraphs(source: RDF.Term | 'DEFAULT' | 'NAMED' | 'ALL', target: UpdateTarget): GraphRef[] {
  if (source === 'DEFAULT') return ['default'];
  const named = namedGraphIds(target);
  if (source === 'NAMED') return named;
  if (source === 'ALL') return ['default', ...named];
  if (source.termType === 'DefaultGraph') return ['default'];
  const id = target.dictionary.lookup(`<${source.value}>`);
  return id >= 0 && named.includes(id) ? [id] : [];
}

function namedGraphIds(target: UpdateTarget): number[] {
  target.tx.access?.checkRead(QUADS_ID);
  const t = target.tx.table(QUADS_ID);
  const view = target.tx.view(QUADS_ID);
  const out = new Set<number>();
  for (let row = 0; row < view.limit; row++) if (t.visible(row, view) && (t.statusIn(row, view) & EXPLICIT) !== 0) out.add(t.get(row, 3));
  const readable = target.tx.access?.readableGraph;
  return readable ? [...out].filter(readable) : [...out];
}

function graphHasFacts(g: GraphRef, target: UpdateTarget): boolean {
  return graphTriples(g, target).length > 0;
}

function graphTriples(g: GraphRef, target: UpdateTarget): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = [];
  const tableId = g === 'default' ? DEFAULT_TRIPLES_ID : QUADS_ID;
  const access = target.tx.access;
  access?.checkRead(tableId);
  // a graph the role may not read looks empty
  if (g !== 'default' && access?.readableGraph && !access.readableGraph(g)) return out;
  const t = target.tx.table(tableId);
  const view = target.tx.view(tableId);
  for (let row = 0; row < view.limit; row++) {
    if (!t.visible(row, view) || (t.statusIn(row, view) & EXPLICIT) === 0) continue;
    if (g !== 'default' && t.get(row, 3) !== g) continue;
    out.push([t.get(row, 0), t.get(row, 1), t.get(row, 2)]);
  }
  return out;
}

function clearGraph(g: GraphRef, target: UpdateTarget): void {
  for (const [s, p, o] of graphTriples(g, target)) putTriple(g, s, p, o, target, false);
}

function putTriple(g: GraphRef, s: number, p: number, o: number, target: UpdateTarget, add: boolean): void {
  if (g === 'default') {
    const t = Uint32Array.of(s, p, o);
    if (add) target.addFact(DEFAULT_TRIPLES_ID, t);
    else target.removeFact(DEFAULT_TRIPLES_ID, t);
  } else {
    const t = Uint32Array.of(s, p, o, g);
    if (add) target.addFact(QUADS_ID, t);
    else target.removeFact(QUADS_ID, t);
  }
}

let blankCounter = 0;

/** A blank node label the store does not use yet (for blank nodes of INSERT templates). */
function freshLabel(dictionary: TermDictionary): string {
  for (;;) {
    const label = `i${(++blankCounter).toString(36)}`;
    if (dictionary.lookup(`_:${label}`) < 0) return label;
  }
}

/** The id of the table a template's tuple table atom writes to, checked: it exists, stores facts, and the arity fits. */
function writableTable(catalogue: Catalogue, atom: TupleAtomPattern, verb: string): number {
  const info = catalogue.tupleTables.get(atom.table);
  if (!info) throw new BadRequestError(`tuple table '${atom.table}' does not exist (in ${describeTupleAtom(atom)})`);
  if (!storesFacts(info)) throw new BadRequestError(`tuple table '${atom.table}' ${unstoredFactsText(info, verb)} (in ${describeTupleAtom(atom)})`);
  if (atom.args.length < info.minArity || atom.args.length > info.maxArity) {
    throw new BadRequestError(`tuple table '${atom.table}' takes ${info.maxArity} arguments, not ${atom.args.length} (in ${describeTupleAtom(atom)})`);
  }
  return info.id;
}

/** DELETE/INSERT with an optional WHERE: all solutions first, then deletions, then insertions. */
async function deleteInsert(op: Algebra.DeleteInsert, target: UpdateTarget, baseIRI: string, started: number): Promise<void> {
  const dictionary = target.dictionary;
  const terms = new QueryTerms(dictionary);
  let where: Algebra.Operation | undefined = op.where;
  let dataset: DatasetGraphs = {};
  if (where && where.type === Algebra.types.FROM) {
    const ids = (iris: readonly RDF.NamedNode[]): number[] => iris.map((i) => dictionary.lookup(`<${i.value}>`)).filter((id) => id >= 0);
    dataset = { defaultGraphs: ids(where.default), namedGraphs: ids(where.named) };
    where = where.input;
  }
  const source = new StoreQuadSource(target.tx, dictionary, EXPLICIT | DERIVED, dataset, target.tx.access);
  const engine = new Engine(source, terms, target.interrupter, baseIRI, () => source.graphNames());
  applyLimits(engine, target.limits, started);
  const tupleTables = new TupleTableReader(target.tx, dictionary, terms, EXPLICIT | DERIVED, target.tx.access);
  engine.tupleTables = tupleTables;
  tupleTables.deadline = () => engine.deadline;
  tupleTables.computed = target.computedTables;
  if (where) await tupleTables.prepare(where);
  engine.collectVariables(op);
  // tuple table atoms of the templates write to their tables (checked before anything runs)
  const deleteSplit = op.delete ? tupleAtomsOf(op.delete) : undefined;
  const insertSplit = op.insert ? tupleAtomsOf(op.insert) : undefined;
  const deleteTables = deleteSplit?.atoms.map((a) => writableTable(target.tx.catalogue, a, 'deleted')) ?? [];
  const insertTables = insertSplit?.atoms.map((a) => writableTable(target.tx.catalogue, a, 'inserted')) ?? [];
  const solutions = where ? engine.collect(where, engine.empty()) : [engine.empty()];
  const value = (t: RDF.Term, s: Int32Array, bnodes: Map<string, number>): number => {
    if (t.termType === 'Variable') {
      const slot = engine.slots.get(t.value);
      const id = slot === undefined ? -1 : s[slot]!;
      if (id === -1) return -1;
      const stored = id >= 0 ? id : dictionary.intern(termToKey(terms.termOf(id)));
      // a SKOLEM term the WHERE clause made: the store can unpack it from now on
      const inputs = tupleTables.storedInputs(id, (t) => dictionary.intern(termToKey(t)));
      if (inputs) dictionary.recordSkolem(stored, inputs);
      return stored;
    }
    if (t.termType === 'BlankNode') {
      let id = bnodes.get(t.value);
      if (id === undefined) bnodes.set(t.value, (id = dictionary.intern(`_:${freshLabel(dictionary)}`)));
      return id;
    }
    if (t.termType === 'DefaultGraph') return -2;
    if (t.termType === 'Quad' && !isGroundTerm(t)) {
      // a triple term with variables or blank nodes: interned from its parts' keys (-1 when one is unbound or misplaced)
      const parts = [value(t.subject, s, bnodes), value(t.predicate, s, bnodes), value(t.object, s, bnodes)];
      if (parts.some((x) => x < 0) || dictionary.kindOf(parts[0]!) === 0x22 || dictionary.kindOf(parts[0]!) === 0x28 || dictionary.kindOf(parts[1]!) !== 0x3c) return -1;
      return dictionary.intern(`(${parts.map((x) => dictionary.keyOf(x)).join(' ')})`);
    }
    return dictionary.intern(termToKey(t));
  };
  /** The template's triples for every solution; its tuple table atoms' tuples go to `tuples` (with their table's id). */
  const instances = (
    templates: readonly Algebra.Pattern[] | undefined,
    fresh: boolean,
    split?: TupleAtomSplit,
    tableIds: readonly number[] = [],
    tuples: Array<[number, Uint32Array]> = [],
  ): Array<[number, number, number, number]> => {
    const out: Array<[number, number, number, number]> = [];
    if (!templates) return out;
    solutions.forEach((s) => {
      const bnodes = new Map<string, number>();
      split?.atoms.forEach((atom, k) => {
        if (!fresh && atom.args.some((t) => t.termType === 'BlankNode')) return;
        const tuple = atom.args.map((t) => value(t, s, bnodes));
        if (!tuple.some((x) => x < 0)) tuples.push([tableIds[k]!, Uint32Array.from(tuple)]);
      });
      for (const q of split?.patterns ?? templates) {
        if (!fresh && (q.subject.termType === 'BlankNode' || q.object.termType === 'BlankNode')) continue;
        const v = [value(q.subject, s, bnodes), value(q.predicate, s, bnodes), value(q.object, s, bnodes), value(q.graph, s, bnodes)];
        if (v.slice(0, 3).some((x) => x === -1) || v[3] === -1) continue;
        // subjects cannot be literals, predicates must be IRIs
        if (dictionary.kindOf(v[0]!) === 0x22 || dictionary.kindOf(v[1]!) !== 0x3c) continue;
        if (v[3] !== -2 && dictionary.kindOf(v[3]!) === 0x22) continue;
        out.push([v[0]!, v[1]!, v[2]!, v[3]!]);
      }
    });
    return out;
  };
  const deletedTuples: Array<[number, Uint32Array]> = [];
  const insertedTuples: Array<[number, Uint32Array]> = [];
  const deletions = instances(op.delete, false, deleteSplit, deleteTables, deletedTuples);
  const insertions = instances(op.insert, true, insertSplit, insertTables, insertedTuples);
  for (const [s, p, o, g] of deletions) putTriple(g === -2 ? 'default' : g, s, p, o, target, false);
  for (const [tableId, tuple] of deletedTuples) target.removeFact(tableId, tuple);
  for (const [s, p, o, g] of insertions) putTriple(g === -2 ? 'default' : g, s, p, o, target, true);
  for (const [tableId, tuple] of insertedTuples) target.addFact(tableId, tuple);
}
