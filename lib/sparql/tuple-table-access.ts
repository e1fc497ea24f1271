/**
 * Tuple table atoms in SPARQL queries: RDFox's `(t1 … tn) rdfox:TT "name"` (which `TT name
 * { t1 … tn }` is rewritten to before parsing, see tuple-table-syntax.ts). In the algebra such
 * an atom is a pattern `?l rdfox:TT "name"` whose subject heads an RDF collection spelled out
 * as `rdf:first`/`rdf:rest` patterns of the same basic graph pattern; {@link tupleAtomsOf}
 * takes those patterns out of the basic graph pattern as one atom.
 *
 * Atoms are evaluated against the store's catalogue:
 * - over the built-in table SKOLEM, as a function: with every argument but the last bound,
 *   the last is the blank node SKOLEM makes of them (see model/skolem.ts); with the last
 *   argument bound, the others are what SKOLEM made it from (a term SKOLEM made in this store,
 *   or earlier in this query), and nothing when it did not make it. One of the two must hold
 *   when the atom is reached (RDFox's binding restriction), else the query fails;
 * - over an in-memory table, as a scan of its facts (in the query's fact domain);
 * - over a table mounted on a data source, as a read of the source with the bound arguments
 *   pushed down (see datasources/mounted-table.ts);
 * - over a built-in table whose rows the store computes ({@link ComputedTables}: SHACL's
 *   validation reports), as a scan of the rows computed for the atom's leading arguments,
 *   which must be constants: they are computed before the evaluation starts
 *   ({@link TupleTableReader.prepare}).
 *
 * A SKOLEM atom whose inputs the basic graph pattern's bindings already give is evaluated
 * before its patterns (its result then narrows them); the other atoms after them, for each
 * solution of the patterns.
 *
 * Every row a scan reads, kept or not, ticks the query's clock (the `tick` the plan is made
 * with, as every row a graph pattern reads does): a scan whose rows all fail what follows
 * still stops at the query's time limit or an interrupt.
 * @module
 */
import type { ComputedTables } from './types.js';
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import type { Algebra } from '../expressions/sparql-libraries.js';
import type { TermDictionary } from '../model/dictionary.js';
import { QueryCompilationError } from '../model/errors.js';
import { SKOLEM_TABLE, skolemLabel } from '../model/skolem.js';
import { keyToTerm, RDF_NS, termText, termToKey } from '../model/terms.js';
import { BUILTIN_TABLE_TYPE, DATA_SOURCE_TABLE_TYPE, mountedReaderOf, type TupleTableInfo } from '../storage/catalogue.js';
import { type FactAccess, readableFacts } from '../storage/fact-access.js';
import type { StoreState } from '../storage/fact-store.js';
import { ANY } from '../storage/tuple-table.js';
import { CURSOR_END, TableCursor } from '../storage/table-cursor.js';
import type { QueryTerm, QueryTerms } from './query-terms.js';
import { RDFOX_TT } from './tuple-table-syntax.js';

const RDF_FIRST = `${RDF_NS}first`;
const RDF_REST = `${RDF_NS}rest`;
const RDF_NIL = `${RDF_NS}nil`;

/** A tuple table atom of a query: the table's name and the arguments (variables or constants). */
export interface TupleAtomPattern {
  /** The tuple table's name. */
  readonly table: string;
  /** The arguments, in order. */
  readonly args: readonly RDF.Term[];
}

/** A basic graph pattern with its tuple table atoms taken out. */
export interface TupleAtomSplit {
  /** The triple patterns that are not part of a tuple table atom. */
  readonly patterns: readonly Algebra.Pattern[];
  /** The tuple table atoms, in the order of their `rdfox:TT` patterns. */
  readonly atoms: readonly TupleAtomPattern[];
}

const splits = new WeakMap<readonly Algebra.Pattern[], TupleAtomSplit>();

function isTupleTablePattern(p: Algebra.Pattern): boolean {
  return p.predicate.termType === 'NamedNode' && p.predicate.value === RDFOX_TT;
}

/**
 * The tuple table atoms of a basic graph pattern and its other patterns, or undefined when it
 * has none (the common case, found without allocating).
 * @throws QueryCompilationError when an `rdfox:TT` pattern is not a name linked to a collection.
 */
export function tupleAtomsOf(patterns: readonly Algebra.Pattern[]): TupleAtomSplit | undefined {
  if (!patterns.some(isTupleTablePattern)) return undefined;
  let split = splits.get(patterns);
  if (!split) splits.set(patterns, (split = splitPatterns(patterns)));
  return split;
}

function splitPatterns(patterns: readonly Algebra.Pattern[]): TupleAtomSplit {
  const used = new Set<Algebra.Pattern>();
  const atoms: TupleAtomPattern[] = [];
  const same = (a: RDF.Term, b: RDF.Term): boolean => a.termType === b.termType && a.value === b.value;
  for (const p of patterns) {
    if (!isTupleTablePattern(p)) continue;
    used.add(p);
    const name = p.object;
    if (name.termType === 'Variable') throw new QueryCompilationError(`invalid use of rdfox:TT: a variable (?${name.value}) cannot stand for a tuple table name; write the name as a string, as in (?x ?y) rdfox:TT "Name"`);
    if (name.termType !== 'Literal') throw new QueryCompilationError('invalid use of rdfox:TT: its object must be the name of a tuple table, written as a string');
    const args: RDF.Term[] = [];
    const malformed = (): QueryCompilationError =>
      new QueryCompilationError(`invalid use of rdfox:TT with tuple table '${name.value}': its subject must be a well-formed RDF collection of the atom's arguments, as in (?x ?y) rdfox:TT "${name.value}"`);
    let node: RDF.Term = p.subject;
    const visited = new Set<string>();
    while (!(node.termType === 'NamedNode' && node.value === RDF_NIL)) {
      if (node.termType !== 'Variable' && node.termType !== 'BlankNode') throw malformed();
      const at: RDF.Term = node;
      const key = `${at.termType}:${at.value}`;
      if (visited.has(key)) throw malformed();
      visited.add(key);
      const first = patterns.filter((q) => !used.has(q) && same(q.subject, at) && q.predicate.termType === 'NamedNode' && q.predicate.value === RDF_FIRST);
      const rest = patterns.filter((q) => !used.has(q) && same(q.subject, at) && q.predicate.termType === 'NamedNode' && q.predicate.value === RDF_REST);
      if (first.length !== 1 || rest.length !== 1) throw malformed();
      used.add(first[0]!);
      used.add(rest[0]!);
      args.push(first[0]!.object);
      node = rest[0]!.object;
    }
    atoms.push({ table: name.value, args });
  }
  return { patterns: patterns.filter((p) => !used.has(p)), atoms };
}

/** An atom as `TT name { t1 … tn }` (for messages). */
export function describeTupleAtom(atom: TupleAtomPattern): string {
  return `TT ${atom.table} { ${atom.args.map(termText).join(' ')} }`;
}

/** An argument of an atom in a plan: a slot of the solution or a term id. */
export type ArgumentRef = { readonly slot: number } | { readonly id: number };

/** Receives a solution; returning true stops the evaluation. */
export type SolutionCallback = (solution: Int32Array) => boolean | void;

/** An atom of a plan: the pattern, its table, and its arguments as references. */
interface PlannedAtom {
  readonly pattern: TupleAtomPattern;
  readonly info: TupleTableInfo;
  readonly skolem: boolean;
  /** Whether the table is one of the {@link ComputedTables}. */
  readonly computed: boolean;
  readonly args: readonly ArgumentRef[];
}

const UNBOUND = -1;

/** What unpacking gives for a node SKOLEM did not make in the store or the query. */
const NOT_MADE_HERE = 'not made here';

const NONE_DEFERRED: ReadonlySet<PlannedAtom> = new Set();

/**
 * The rows a scan's cursor reads before it hands back control without a match (and the clock
 * is ticked once): rows the cursor rejects itself (other statuses, bound columns its path does
 * not guarantee) count too.
 */
const ROWS_PER_TICK = 64;

function valueOf(ref: ArgumentRef, solution: Int32Array): number {
  return 'id' in ref ? ref.id : solution[ref.slot]!;
}

/**
 * Reads the tuple tables of a store state for one query: resolves names, computes and unpacks
 * SKOLEM terms (without adding terms to the store: a term the store lacks gets a query-local
 * id) and scans in-memory tables.
 */
export class TupleTableReader {
  /** SKOLEM results of this query by their inputs (ids joined by commas). */
  private readonly made = new Map<string, number>();
  /** The inputs of the SKOLEM terms this query made, by term id. */
  private readonly madeFrom = new Map<number, Int32Array>();
  /** One cursor per nesting depth of scans (the atoms after one are evaluated inside its scan). */
  private readonly cursors: TableCursor[] = [];
  /** The depth of the innermost scan running. */
  private depth = 0;
  /** The reading query's deadline (`performance.now()` time; Infinity: none): a wait on a data source (a SQL statement) is cancelled when it passes. */
  deadline: () => number = () => Infinity;
  /** The built-in tables the store computes the rows of (none when undefined: such tables cannot be queried). */
  computed: ComputedTables | undefined = undefined;
  /** The rows computed for atoms of computed tables, by table and leading arguments (see {@link TupleTableReader.prepare}). */
  private readonly prepared = new Map<string, Int32Array[]>();

  /** Creates the reader; `mask` selects fact statuses; with `access`, reading a table the role may not read fails. */
  constructor(
    private readonly state: StoreState,
    private readonly dictionary: TermDictionary,
    private readonly terms: QueryTerms,
    private readonly mask: number,
    private readonly access?: FactAccess,
  ) {}

  /**
   * The plan of a basic graph pattern's atoms; `ref` maps a term to a slot or an id,
   * `patternSlots` are the slots its patterns bind; `tick` runs for every row its scans read
   * (it throws to stop the query: its time limit, an interrupt).
   */
  plan(split: TupleAtomSplit, ref: (t: RDF.Term) => ArgumentRef, patternSlots: ReadonlySet<number>, tick: () => void): TupleAtomPlan {
    const atoms = split.atoms.map((pattern): PlannedAtom => {
      const info = this.resolve(pattern);
      const builtIn = info.type === BUILTIN_TABLE_TYPE;
      return { pattern, info, skolem: builtIn && info.name === SKOLEM_TABLE, computed: builtIn && this.computed?.has(info.name) === true, args: pattern.args.map(ref) };
    });
    return new TupleAtomPlan(this, atoms, patternSlots, tick);
  }

  /** The catalogue entry of an atom's table, checked: it exists, the arity fits, the role may read it. */
  private resolve(atom: TupleAtomPattern): TupleTableInfo {
    const info = this.state.catalogue.tupleTables.get(atom.table);
    if (!info) throw new QueryCompilationError(`tuple table '${atom.table}' does not exist (in ${describeTupleAtom(atom)})`);
    const n = atom.args.length;
    if (n < info.minArity || n > info.maxArity) {
      const arity = info.minArity === info.maxArity ? `${info.minArity} arguments` : info.maxArity >= 0xffffffff ? `at least ${info.minArity} argument${info.minArity === 1 ? '' : 's'}` : `${info.minArity} to ${info.maxArity} arguments`;
      throw new QueryCompilationError(`tuple table '${atom.table}' takes ${arity}, not ${n} (in ${describeTupleAtom(atom)})`);
    }
    if (info.type === BUILTIN_TABLE_TYPE && info.name !== SKOLEM_TABLE && this.computed?.has(info.name) !== true) throw new QueryCompilationError(`the built-in tuple table '${atom.table}' cannot be queried`);
    this.access?.checkRead(info.id);
    return info;
  }

  /** The key of an atom's leading arguments in {@link TupleTableReader.prepared}. */
  private preparedKey(atom: TupleAtomPattern, leading: number): string {
    return `${atom.table} ${atom.args.slice(0, leading).map(termText).join(' ')}`;
  }

  /**
   * Computes, before the evaluation, the rows of every atom of `algebra` over a computed
   * table (whose leading arguments must be constants there).
   * @throws QueryCompilationError when a leading argument is a variable.
   */
  async prepare(algebra: object): Promise<void> {
    const computed = this.computed;
    if (computed === undefined) return;
    const atoms: TupleAtomPattern[] = [];
    const visit = (node: unknown): void => {
      if (node === null || typeof node !== 'object') return;
      if (Array.isArray(node)) {
        for (const n of node) visit(n);
        return;
      }
      const o = node as { readonly type?: unknown; readonly patterns?: unknown; readonly termType?: unknown };
      if (o.termType !== undefined) return;
      if (o.type === 'bgp' && Array.isArray(o.patterns)) {
        const split = tupleAtomsOf(o.patterns as Algebra.Pattern[]);
        if (split) atoms.push(...split.atoms.filter((a) => computed.has(a.table)));
      }
      for (const value of Object.values(o)) visit(value);
    };
    visit(algebra);
    for (const atom of atoms) {
      const info = this.state.catalogue.tupleTables.get(atom.table);
      if (info?.type !== BUILTIN_TABLE_TYPE) continue;
      const leading = atom.args.length - computed.width;
      const args = atom.args.slice(0, Math.max(0, leading));
      const variable = args.find((t) => t.termType === 'Variable' || t.termType === 'BlankNode');
      if (variable) throw new QueryCompilationError(`the tuple table atom ${describeTupleAtom(atom)} cannot be evaluated: ${atom.table} needs its arguments before the last ${computed.width} given as constants (${termText(variable)} is not)`);
      const key = this.preparedKey(atom, leading);
      if (this.prepared.has(key)) continue;
      const rows = await computed.rows(atom.table, args, this.deadline());
      this.prepared.set(key, rows.map((row) => Int32Array.from(row, (t) => this.terms.idOf(t as QueryTerm))));
    }
  }

  /**
   * Calls `onRow` with each row computed for an atom of a computed table whose columns equal
   * `values` where bound (query ids, -1 where unbound); true when it asked to stop. `tick`
   * runs for every row read.
   */
  scanComputed(atom: TupleAtomPattern, values: Int32Array, onRow: (get: (column: number) => number) => boolean, tick: () => void): boolean {
    const leading = values.length - this.computed!.width;
    const rows = this.prepared.get(this.preparedKey(atom, leading));
    if (rows === undefined) throw new QueryCompilationError(`the tuple table atom ${describeTupleAtom(atom)} was not prepared`);
    let row: Int32Array = rows[0]!;
    const get = (c: number): number => (c < leading ? values[c]! : row[c - leading]!);
    next: for (const r of rows) {
      tick();
      for (let c = leading; c < values.length; c++) if (values[c] !== UNBOUND && values[c] !== r[c - leading]) continue next;
      row = r;
      if (onRow(get)) return true;
    }
    return false;
  }

  /** The id of the SKOLEM term of `inputs` (query ids), or -1 when an input is not a term. */
  skolem(inputs: Int32Array): number {
    const k = inputs.join(',');
    let id = this.made.get(k);
    if (id === undefined) {
      const keys: string[] = [];
      for (const x of inputs) {
        if (x < 0 && x > -3) return UNBOUND;
        keys.push(x >= 0 ? this.dictionary.keyOf(x) : termToKey(this.terms.termOf(x)));
      }
      id = this.terms.idOf(DataFactory.blankNode(skolemLabel(keys)));
      this.made.set(k, id);
      if (!this.madeFrom.has(id)) this.madeFrom.set(id, inputs.slice());
    }
    return id;
  }

  /** The inputs SKOLEM made term `id` (a query id) from, or undefined when it did not make it in this store or query. */
  unpack(id: number): ArrayLike<number> | undefined {
    const here = this.madeFrom.get(id);
    if (here) return here;
    if (id < 0) return undefined;
    const stored = this.dictionary.skolemInputs(id);
    // inputs interned by a transaction this query does not see are not terms for it
    if (!stored || stored.some((x) => x >= this.dictionary.size)) return undefined;
    return stored;
  }

  /**
   * The inputs of a SKOLEM term made by this query, as store ids (interning them), or
   * undefined; for an update that stores the term, so that the store can unpack it too.
   */
  storedInputs(id: number, intern: (term: QueryTerm) => number): number[] | undefined {
    const inputs = this.madeFrom.get(id);
    return inputs ? [...inputs].map((x) => (x >= 0 ? x : intern(this.terms.termOf(x)))) : undefined;
  }

  /**
   * Calls `onRow` with each row of a table mounted on a data source whose columns equal
   * `values` where bound (query ids, -1 where unbound), read from the source now; its terms get
   * query ids (query-local for terms the store lacks). True when `onRow` asked to stop. `tick`
   * runs for every row read.
   */
  scanMounted(info: TupleTableInfo, values: Int32Array, onRow: (get: (column: number) => number) => boolean, tick: () => void): boolean {
    const bound = [...values].map((v) => (v === UNBOUND ? undefined : v >= 0 ? this.dictionary.keyOf(v) : termToKey(this.terms.termOf(v))));
    let ids: number[] = [];
    return mountedReaderOf(info).scan(bound, (row) => {
      tick();
      ids = row.map((key) => {
        const id = this.dictionary.lookup(key);
        return id >= 0 && id < this.dictionary.size ? id : this.terms.idOf(keyToTerm(key));
      });
      return onRow((c) => ids[c]!);
    }, this.deadline());
  }

  /**
   * Calls `onRow` with each fact of an in-memory table matching `pattern` (ANY where unbound)
   * that the role may read (a fact of `Quads` in a graph it may not read does not exist for
   * it); true when it asked to stop. `tick` runs for every row handed out, and between them after
   * every 64 rows read (a long walk of rows the cursor rejects stops too).
   */
  scan(info: TupleTableInfo, pattern: Int32Array, onRow: (get: (column: number) => number) => boolean, tick: () => void): boolean {
    const table = this.state.table(info.id);
    const readable = readableFacts(this.access, info.id);
    const depth = this.depth;
    const cursor = (this.cursors[depth] ??= new TableCursor()).open(table, this.state.view(info.id), pattern, this.mask);
    let row = -1;
    const get = (c: number): number => table.get(row, c);
    this.depth = depth + 1;
    // (catch, not finally, which V8 deoptimizes hot functions at)
    try {
      for (;;) {
        row = cursor.step(ROWS_PER_TICK);
        tick();
        if (row < 0) {
          if (row === CURSOR_END) break;
          continue;
        }
        if (readable !== undefined && !readable(get)) continue;
        if (onRow(get)) {
          this.depth = depth;
          return true;
        }
      }
    } catch (e) {
      this.depth = depth;
      throw e;
    }
    this.depth = depth;
    return false;
  }
}

/** The evaluation of the tuple table atoms of one basic graph pattern around the evaluation of its patterns. */
export class TupleAtomPlan {
  /** Sets of slots bound on entry for which the binding restriction was checked. */
  private readonly checked = new Set<string>();
  private readonly atomSlots: readonly number[];

  /** @internal */
  constructor(
    private readonly reader: TupleTableReader,
    private readonly atoms: readonly PlannedAtom[],
    private readonly patternSlots: ReadonlySet<number>,
    private readonly tick: () => void,
  ) {
    const slots = new Set<number>();
    for (const a of atoms) for (const r of a.args) if ('slot' in r) slots.add(r.slot);
    this.atomSlots = [...slots];
  }

  /**
   * Evaluates the atoms and the patterns under `seed`: SKOLEM atoms that the seed makes
   * evaluable first, then `patterns` (which evaluates the basic graph pattern's patterns under
   * a seed), then the other atoms for each of their solutions.
   * @throws QueryCompilationError when a SKOLEM atom can never have its inputs or its result bound.
   */
  run<R>(seed: Int32Array, emit: SolutionCallback, patterns: (seed: Int32Array, emit: SolutionCallback) => R): R | boolean {
    this.check(seed);
    let solution = seed;
    let remaining = this.atoms;
    // atoms whose last argument is a node SKOLEM did not make here: checked once the patterns bound the others
    const deferred = new Set<PlannedAtom>();
    for (;;) {
      const i = remaining.findIndex((a) => a.skolem && !deferred.has(a) && this.ready(a, solution));
      if (i < 0) break;
      const next = this.skolem(remaining[i]!, solution);
      if (next === undefined) return false;
      if (next === NOT_MADE_HERE) deferred.add(remaining[i]!);
      else {
        solution = next;
        remaining = remaining.filter((_, k) => k !== i);
      }
    }
    if (remaining.length === 0) return patterns(solution, emit);
    const rest = remaining;
    return patterns(solution, (s) => this.chain(rest, s, emit, NONE_DEFERRED));
  }

  /** RDFox's binding restriction: every SKOLEM atom gets its inputs or its result bound somewhere (checked once per set of seed bindings). */
  private check(seed: Int32Array): void {
    let key = '';
    for (const s of this.atomSlots) if (seed[s]! !== UNBOUND) key += `${s},`;
    if (this.checked.has(key)) return;
    const known = new Set(this.patternSlots);
    for (const s of this.atomSlots) if (seed[s]! !== UNBOUND) known.add(s);
    const isKnown = (r: ArgumentRef): boolean => 'id' in r || known.has(r.slot);
    const learn = (r: ArgumentRef): boolean => {
      if (!('slot' in r) || known.has(r.slot)) return false;
      known.add(r.slot);
      return true;
    };
    for (let changed = true; changed; ) {
      changed = false;
      for (const a of this.atoms) {
        if (!a.skolem) {
          for (const r of a.args) if (learn(r)) changed = true;
          continue;
        }
        const last = a.args[a.args.length - 1]!;
        const leading = a.args.slice(0, -1);
        if (leading.every(isKnown)) {
          if (learn(last)) changed = true;
        } else if (isKnown(last)) {
          for (const r of leading) if (learn(r)) changed = true;
        }
      }
    }
    for (const a of this.atoms) {
      if (!a.skolem) continue;
      const leading = a.args.slice(0, -1);
      const last = a.args[a.args.length - 1]!;
      if (leading.every(isKnown) || isKnown(last)) continue;
      const unbound = a.pattern.args.slice(0, -1).filter((_, c) => !isKnown(leading[c]!)).map(termText);
      throw new QueryCompilationError(
        `the tuple table atom ${describeTupleAtom(a.pattern)} cannot be evaluated: SKOLEM needs either all its arguments but the last bound ` +
          `(${unbound.join(', ')} ${unbound.length === 1 ? 'is' : 'are'} not bound by the rest of the query) or its last argument ` +
          `${termText(a.pattern.args[a.pattern.args.length - 1]!)} bound (to unpack it)`,
      );
    }
    this.checked.add(key);
  }

  /** Whether a SKOLEM atom can be evaluated under `solution`. */
  private ready(a: PlannedAtom, solution: Int32Array): boolean {
    const n = a.args.length - 1;
    if (valueOf(a.args[n]!, solution) !== UNBOUND) return true;
    for (let c = 0; c < n; c++) if (valueOf(a.args[c]!, solution) === UNBOUND) return false;
    return true;
  }

  /**
   * The atoms in turn for one solution: a ready SKOLEM atom first, else the in-memory atom with
   * the most bound arguments, else a SKOLEM atom whose last argument could not be unpacked
   * (`deferred`) once its other arguments are bound.
   */
  private chain(remaining: readonly PlannedAtom[], solution: Int32Array, emit: SolutionCallback, deferred: ReadonlySet<PlannedAtom>): boolean {
    if (remaining.length === 0) return emit(solution) === true;
    let pick = remaining.findIndex((a) => a.skolem && !deferred.has(a) && this.ready(a, solution));
    if (pick < 0) {
      let best = -1;
      remaining.forEach((a, k) => {
        if (a.skolem) return;
        const bound = a.args.filter((r) => valueOf(r, solution) !== UNBOUND).length;
        if (bound > best) {
          best = bound;
          pick = k;
        }
      });
    }
    // a deferred atom whose other arguments are bound now; with none, the atoms left cannot hold
    if (pick < 0) pick = remaining.findIndex((a) => a.skolem && a.args.slice(0, -1).every((r) => valueOf(r, solution) !== UNBOUND));
    if (pick < 0) return false;
    const atom = remaining[pick]!;
    const rest = remaining.filter((_, k) => k !== pick);
    if (atom.skolem) {
      const next = this.skolem(atom, solution);
      if (next === NOT_MADE_HERE) return this.chain(remaining, solution, emit, new Set([...deferred, atom]));
      return next !== undefined && this.chain(rest, next, emit, deferred);
    }
    return this.scan(atom, solution, (next) => this.chain(rest, next, emit, deferred));
  }

  /**
   * The solution extended by a SKOLEM atom (computing its result or unpacking it), undefined
   * when it does not hold, or {@link NOT_MADE_HERE} when its last argument is to be unpacked
   * but SKOLEM did not make it in this store or query (then only a check can tell).
   */
  private skolem(a: PlannedAtom, solution: Int32Array): Int32Array | undefined | typeof NOT_MADE_HERE {
    const n = a.args.length - 1;
    const lastRef = a.args[n]!;
    const last = valueOf(lastRef, solution);
    const inputs = new Int32Array(n);
    let complete = true;
    for (let c = 0; c < n && complete; c++) {
      const v = valueOf(a.args[c]!, solution);
      if (v === UNBOUND) complete = false;
      else inputs[c] = v;
    }
    if (complete) {
      const id = this.reader.skolem(inputs);
      if (id === UNBOUND) return undefined;
      if (last !== UNBOUND) return last === id ? solution : undefined;
      const out = solution.slice();
      out[(lastRef as { slot: number }).slot] = id;
      return out;
    }
    if (last === UNBOUND) return undefined;
    const known = this.reader.unpack(last);
    if (!known) return NOT_MADE_HERE;
    if (known.length !== n) return undefined;
    const out = solution.slice();
    for (let c = 0; c < n; c++) {
      const r = a.args[c]!;
      const v = known[c]!;
      if ('id' in r) {
        if (r.id !== v) return undefined;
      } else if (out[r.slot] === UNBOUND) out[r.slot] = v;
      else if (out[r.slot] !== v) return undefined;
    }
    return out;
  }

  /** Each solution an in-memory table's facts give `solution`, to `next`; true when it asked to stop. */
  private scan(a: PlannedAtom, solution: Int32Array, next: (solution: Int32Array) => boolean): boolean {
    const extend = (get: (column: number) => number): boolean => {
      const out = solution.slice();
      for (let c = 0; c < a.args.length; c++) {
        const r = a.args[c]!;
        if ('id' in r) continue;
        const v = get(c);
        if (out[r.slot] === UNBOUND) out[r.slot] = v;
        else if (out[r.slot] !== v) return false;
      }
      return next(out);
    };
    if (a.computed) {
      const values = new Int32Array(a.args.length);
      for (let c = 0; c < a.args.length; c++) values[c] = valueOf(a.args[c]!, solution);
      return this.reader.scanComputed(a.pattern, values, extend, this.tick);
    }
    if (a.info.type === DATA_SOURCE_TABLE_TYPE) {
      const values = new Int32Array(a.args.length);
      for (let c = 0; c < a.args.length; c++) values[c] = valueOf(a.args[c]!, solution);
      return this.reader.scanMounted(a.info, values, extend, this.tick);
    }
    const pattern = new Int32Array(a.args.length);
    for (let c = 0; c < a.args.length; c++) {
      const v = valueOf(a.args[c]!, solution);
      // a term the store does not hold is in no fact
      if (v !== UNBOUND && v < 0) return false;
      pattern[c] = v === UNBOUND ? ANY : v;
    }
    return this.reader.scan(a.info, pattern, extend, this.tick);
  }
}
