/**
 * Materialisation and its incremental maintenance, level by level.
 *
 * Facts are tracked by their row during a run (each fact has one visible row in the
 * writer's view); per-table mark bytes say what happens to them:
 * - ADDED: present now but not before the run (explicit additions, derived insertions);
 * - WILL_BE_ABSENT: will be absent (overdeleted and not rederived);
 * - LOSES_DERIVED: stays (explicit) but loses its derived status;
 * - GAINS_DERIVED: gains derived status;
 * - LOSES_EXPLICIT: loses its explicit status;
 * - PROVED: (FBF) proved from settled facts, so it stays whatever else it loses.
 * The old materialisation I_old is every visible row without ADDED; the current one I_cur every
 * visible row without WILL_BE_ABSENT. Statuses are applied at the end, so both stay readable.
 *
 * Per level: overdelete (semi-naive over the deletions, rules evaluated on I_old), rederive
 * (a rule instance with its body in I_cur puts a fact back), insert (semi-naive over the
 * additions on I_cur). With FBF (the default) a fact is not overdeleted when a rule instance
 * proves it from settled facts (lower levels, or explicit facts that stay), which spares the
 * overdelete/rederive cascade; with DRed (use-DRed=true) every candidate is overdeleted.
 * NOT and AGGREGATE only read lower levels: a fact added below a NOT seeds overdeletion, one
 * deleted below seeds insertion, and a change below an AGGREGATE re-evaluates its rule.
 * @module
 */
import type { Interrupter } from '../model/control.js';
import type { PendingWork } from '../storage/change-log.js';
import type { WriteTransaction } from '../storage/fact-store.js';
import { DERIVED, EXPLICIT, type TupleTable } from '../storage/tuple-table.js';
import { type JoinPlan, RuleEvaluator, type RowFilter } from './evaluate.js';
import type { CompiledAtom, CompiledProgram, CompiledRule } from './program.js';
import { TermValues } from './term-values.js';
import type { TermDictionary } from '../model/dictionary.js';
import { storesFacts } from '../storage/catalogue.js';
import { appendedRowOf, wasAppended } from '../storage/sentinels.js';

// The mark bits of a row during a run (see the module documentation).
const ADDED = 1;
const WILL_BE_ABSENT = 2;
const LOSES_DERIVED = 4;
const GAINS_DERIVED = 8;
const LOSES_EXPLICIT = 16;
const PROVED = 32;
/** The marks that change a fact's status when the run ends. */
const STATUS_MARKS = GAINS_DERIVED | WILL_BE_ABSENT | LOSES_DERIVED | LOSES_EXPLICIT;

/**
 * Mark bytes by table id, kept by the caller from one run to the next (all zero between runs),
 * so that a small update does not allocate and zero an array the size of a large table.
 */
export type MarkArrays = Array<Uint8Array | undefined>;

/** Options of a maintenance run. */
export interface MaintenanceOptions {
  /** Use DRed instead of FBF for deletions. */
  readonly useDRed: boolean;
  /** Process levels one by one (true) or merge consecutive positive levels (false). */
  readonly byLevels: boolean;
}

/** Counters of a run. */
export interface MaintenanceStats {
  /** Facts that became present by derivation. */
  inserted: number;
  /** Facts that became absent. */
  deleted: number;
  /** Head tuples the rule instances of the insertion phases gave (each derivation of a fact counts). */
  derivations: number;
}

/** Encodes (table id, row) into one number. */
const key = (tableId: number, row: number): number => tableId * 0x100000000 + row;
const keyTable = (k: number): number => Math.floor(k / 0x100000000);
const keyRow = (k: number): number => k % 0x100000000;

/** Appends the key of (table id, row) to the list of `level` in `lists`. */
function listByLevel(lists: Map<number, number[]>, level: number, tableId: number, row: number): void {
  let list = lists.get(level);
  if (!list) lists.set(level, (list = []));
  list.push(key(tableId, row));
}

/** The rows of one predicate node's facts (all in one table) in the order they were listed. */
interface NodeList {
  readonly tableId: number;
  readonly rows: number[];
}

/** Receives each head tuple an evaluation derives (the tuple array is reused). */
type HeadCallback = (head: CompiledAtom, tuple: Uint32Array) => void;

/** A feed with the head emitter of its rule. */
interface FeedEntry {
  readonly feed: Feed;
  readonly emit: (bound: Int32Array) => void;
}

/** The feeds of one node in a propagation, by the term their atom has in its second column. */
interface FeedGroup {
  /** The position in the node's list up to which facts have been fed. */
  cursor: number;
  /** Feeds with a variable (or no) second column. */
  readonly anyPredicate: FeedEntry[];
  /** Feeds with a constant second column (the predicate, for triples and quads), by that constant. */
  readonly byPredicate: Map<number, FeedEntry[]>;
}

/** A rule head that can derive facts of a node, with what a backward proof check through it reuses. */
interface HeadEntry {
  readonly rule: CompiledRule;
  readonly head: CompiledAtom;
  /** Slots reused by every check. */
  readonly slots: Int32Array;
  /** The body's plan with the head's variables bound, made on first use. */
  plan: JoinPlan | undefined;
}

/** A match callback that stops at the first match. */
const FOUND = (): boolean => true;

interface Feed {
  readonly rule: CompiledRule;
  readonly literal: number;
  readonly atom: CompiledAtom;
  readonly node: string;
  cursor: number;
  /** Slots reused for every pivot of this feed. */
  readonly slots: Int32Array;
  /** The join plan (the bound slots are always the pivot atom's variables), made on first use. */
  plan: JoinPlan | undefined;
}

/** One maintenance run over a write transaction. */
export class Maintenance {
  /** By table id: the mark bytes of the rows (all zero outside a run; see {@link MarkArrays}). */
  private readonly marks: MarkArrays;
  /** By table id: every row that got a mark, so that the marks can be cleared after the run. */
  private readonly dirty: Array<number[] | undefined> = [];
  /** By table id: the rows that got a mark of STATUS_MARKS (each once). */
  private readonly touched: Array<number[] | undefined> = [];
  private readonly plus = new Map<string, NodeList>();
  private readonly minus = new Map<string, NodeList>();
  /**
   * Whether some fact was marked WILL_BE_ABSENT or LOSES_DERIVED. Until then I_cur is every visible
   * row, and a derived fact derived again needs no restoring.
   */
  private anyLoss = false;
  private readonly underived = new Map<number, number[]>(); // level → keys marked LOSES_DERIVED
  private readonly evaluator: RuleEvaluator;
  private readonly inOldMaterialisation: RowFilter;
  private readonly inCurrentMaterialisation: RowFilter;
  private currentLevel = 0;
  /** Whether the rules being maintained read facts of a lower level (then `settled` looks up levels). */
  private readsLower = false;
  private readonly settled: RowFilter;
  /** The heads of the program's rules by predicate node (built on first use). */
  private headsByNode: Map<string, HeadEntry[]> | undefined;
  /** A head tuple being built, by arity (made on first use: a small run uses one or two). */
  private readonly tuples: Array<Uint32Array | undefined> = [];
  /** The feeds of each rule, made on first use (see `feeds`). */
  private readonly feedsByRule = new Map<CompiledRule, { readonly atom: Feed[]; readonly not: Feed[] }>();
  private ticks = 0;
  /** Counters. */
  readonly stats: MaintenanceStats = { inserted: 0, deleted: 0, derivations: 0 };

  /** Prepares a run. */
  constructor(
    private readonly tx: WriteTransaction,
    dictionary: TermDictionary,
    private readonly program: CompiledProgram,
    private readonly options: MaintenanceOptions,
    private readonly interrupter: Interrupter,
    marks: MarkArrays = [],
  ) {
    this.marks = marks;
    this.evaluator = new RuleEvaluator(tx, new TermValues(dictionary));
    this.inOldMaterialisation = (t, r) => (this.mark(t, r) & ADDED) === 0;
    this.inCurrentMaterialisation = (t, r) => (this.mark(t, r) & WILL_BE_ABSENT) === 0;
    this.settled = (t, r) => {
      const m = this.mark(t, r);
      if ((m & WILL_BE_ABSENT) !== 0) return false;
      if ((this.tx.table(t).statusOf(r) & EXPLICIT) !== 0 && (m & LOSES_EXPLICIT) === 0) return true;
      // finding a row's level costs a lookup: only done when the rules read lower levels at all
      return this.readsLower && this.levelOfRow(t, r) < this.currentLevel;
    };
  }

  /**
   * Runs maintenance for the work a transaction's change log recorded (facts added and
   * deleted, and in `pending.rulesAdded` the keys of the rules put in); `removed` are the
   * compiled rules taken out of the program. With `pending.full`, every derived fact is
   * dropped and the materialisation is recomputed from the explicit facts.
   */
  async run(pending: PendingWork, removed: readonly CompiledRule[]): Promise<MaintenanceStats> {
    try {
      return await this.maintain(pending, removed);
    } finally {
      this.clearMarks();
    }
  }

  /** Zeroes the marks of every row marked in this run (the arrays outlive it). */
  private clearMarks(): void {
    for (let tableId = 0; tableId < this.dirty.length; tableId++) {
      const rows = this.dirty[tableId];
      const m = this.marks[tableId];
      if (rows && m) for (const row of rows) m[row] = 0;
    }
  }

  private async maintain(pending: PendingWork, removed: readonly CompiledRule[]): Promise<MaintenanceStats> {
    const tx = this.tx;
    const deletedDerived = new Map<number, number[]>(); // level → keys of deleted explicit facts also derived
    if (pending.full) {
      // explicit deletions first, then every derived status goes; all rules are then "added"
      for (const [tableId, rows] of pending.deleted) {
        const table = tx.table(tableId);
        for (const r of rows) table.setStatus(r, table.statusOf(r) & ~EXPLICIT, tx.version);
      }
      this.dropDerived();
    } else {
      for (const [tableId, rows] of pending.added) {
        for (const r of rows) {
          this.setMark(tableId, r, ADDED);
          this.push(this.plus, tableId, r);
        }
      }
      for (const [tableId, rows] of pending.deleted) {
        const table = tx.table(tableId);
        for (const r of rows) {
          this.setMark(tableId, r, LOSES_EXPLICIT);
          // with FBF, a deleted fact that rules also derive is checked at its level first (no
          // rule derives facts of level 0 any more)
          const level = (table.statusOf(r) & DERIVED) !== 0 && !this.options.useDRed ? this.levelOfRow(tableId, r) : 0;
          if (level === 0) this.overdeleteNow(tableId, r);
          else listByLevel(deletedDerived, level, tableId, r);
        }
      }
    }
    const added = new Set(pending.full ? this.program.rules.map((r) => r.key) : pending.rulesAdded);
    // heads of removed rules lost a derivation
    const removedCandidates = new Map<number, number[]>();
    this.evaluator.accept = this.inOldMaterialisation;
    for (const rule of removed) {
      this.eachHead(rule, -1, null, ({ tableId }, tuple) => {
        const row = tx.table(tableId).find(tuple, tx.view(tableId));
        if (row >= 0) listByLevel(removedCandidates, this.levelOfRow(tableId, row), tableId, row);
      });
    }
    // level 0 holds facts no rule derives any more
    this.currentLevel = 0;
    for (const k of removedCandidates.get(0) ?? []) this.candidate(keyTable(k), keyRow(k), true);

    const byLevel = new Map<number, CompiledRule[]>();
    for (const r of this.program.rules) {
      let l = byLevel.get(r.level);
      if (!l) byLevel.set(r.level, (l = []));
      l.push(r);
    }
    const groups = this.levelGroups(byLevel);
    for (const levels of groups) {
      const rules = levels.flatMap((l) => byLevel.get(l) ?? []);
      this.currentLevel = levels[0]!;
      this.readsLower = rules.some((r) => this.atomLevels(r.body).some((l) => l < this.currentLevel));
      const levelSet = new Set(levels);
      // a deleted explicit fact that rules derive from settled facts stays (only its explicit
      // status goes), and nothing that depends on it is overdeleted
      for (const k of levels.flatMap((l) => deletedDerived.get(l) ?? [])) {
        if (this.provable(keyTable(k), keyRow(k), this.settled)) this.setMark(keyTable(k), keyRow(k), PROVED);
        else this.overdeleteNow(keyTable(k), keyRow(k));
      }
      await this.overdelete(rules.filter((r) => !added.has(r.key)), levels.flatMap((l) => removedCandidates.get(l) ?? []));
      await this.rederive(rules, levelSet);
      await this.insert(rules, added);
    }
    this.apply();
    return this.stats;
  }

  /** Levels processed together: single levels, or with by-levels=false runs of positive levels. */
  private levelGroups(byLevel: Map<number, CompiledRule[]>): number[][] {
    const levels = [...byLevel.keys()].sort((a, b) => a - b);
    if (this.options.byLevels) return levels.map((l) => [l]);
    const groups: number[][] = [];
    let lastPositive = false;
    for (const l of levels) {
      const positive = !(byLevel.get(l) ?? []).some((r) => r.nonMonotonic);
      if (positive && lastPositive) groups[groups.length - 1]!.push(l);
      else groups.push([l]);
      lastPositive = positive;
    }
    return groups;
  }

  // ---- marks and lists ----

  private mark(tableId: number, row: number): number {
    const m = this.marks[tableId];
    return m !== undefined && row < m.length ? m[row]! : 0;
  }

  private setMark(tableId: number, row: number, bits: number): void {
    let m = this.marks[tableId];
    if (!m || row >= m.length) {
      const grown = new Uint8Array(Math.max(row + 1, this.tx.table(tableId).rowCount + 1024, m ? m.length * 2 : 0));
      if (m) grown.set(m);
      m = grown;
      this.marks[tableId] = m;
    }
    const old = m[row]!;
    m[row] = old | bits;
    if (old === 0) (this.dirty[tableId] ??= []).push(row);
    if ((bits & (WILL_BE_ABSENT | LOSES_DERIVED)) !== 0) this.anyLoss = true;
    // the rows whose status may change, so that applying the marks visits only them
    if ((old & STATUS_MARKS) === 0 && (bits & STATUS_MARKS) !== 0) (this.touched[tableId] ??= []).push(row);
  }

  /** The filter of I_cur: null (no filtering) while no fact is marked absent. */
  private current(): RowFilter {
    return this.anyLoss ? this.inCurrentMaterialisation : null;
  }

  private clearMark(tableId: number, row: number, bits: number): void {
    const m = this.marks[tableId];
    if (m && row < m.length) m[row] = m[row]! & ~bits;
  }

  private nodeOfRow(tableId: number, row: number): string {
    const t = this.program.tripleTables;
    if (tableId !== t.triples && tableId !== t.quads) return this.program.nodeOfFact(tableId, -1, -1);
    const table = this.tx.table(tableId);
    return this.program.nodeOfFact(tableId, table.get(row, 1), table.get(row, 2));
  }

  private levelOfRow(tableId: number, row: number): number {
    return this.program.levelOfFact(this.nodeOfRow(tableId, row), this.tx.table(tableId), row);
  }

  private push(lists: Map<string, NodeList>, tableId: number, row: number, node = this.nodeOfRow(tableId, row)): void {
    let l = lists.get(node);
    if (!l) lists.set(node, (l = { tableId, rows: [] }));
    l.rows.push(row);
  }

  /** The rows listed for a node (none when it has no list). */
  private rowsOf(lists: Map<string, NodeList>, node: string): readonly number[] {
    return lists.get(node)?.rows ?? [];
  }

  // ---- evaluation helpers ----

  /** Evaluates `rule` (pivot literal or -1, pre-bound slots) and calls `onHead` per head tuple. */
  private eachHead(rule: CompiledRule, skip: number, slots: Int32Array | null, onHead: HeadCallback): void {
    const s = slots ?? new Int32Array(rule.slotCount).fill(-1);
    this.evaluator.run(rule, s, skip, this.headEmitter(rule, onHead));
  }

  /** A match callback that builds each head tuple (no allocation per match). */
  private headEmitter(rule: CompiledRule, onHead: HeadCallback): (bound: Int32Array) => void {
    const heads = rule.heads;
    return (bound) => {
      for (let h = 0; h < heads.length; h++) {
        const head = heads[h]!;
        const args = head.args;
        const t = (this.tuples[args.length] ??= new Uint32Array(args.length));
        for (let c = 0; c < args.length; c++) {
          const a = args[c]!;
          t[c] = a >= 0 ? a : bound[-a - 1]!;
        }
        onHead(head, t);
      }
    };
  }

  /** Binds the pivot atom to a fact and evaluates the rest of the rule. */
  private pivot(feed: Feed, table: TupleTable, row: number, filter: RowFilter, emit: (bound: Int32Array) => void): void {
    const slots = feed.slots;
    slots.fill(-1);
    if (!this.evaluator.unify(feed.atom, table, row, slots)) return;
    this.evaluator.accept = filter;
    const plan = (feed.plan ??= this.evaluator.planFor(feed.rule, slots, feed.literal));
    this.evaluator.runPlan(plan, slots, emit);
  }

  /** Binds the outer variables of a negated atom to a fact (for NOT seeding). */
  private bindOuter(rule: CompiledRule, atom: CompiledAtom, local: readonly number[], row: number): Int32Array | null {
    const slots = new Int32Array(rule.slotCount).fill(-1);
    const table = this.tx.table(atom.tableId);
    for (let c = 0; c < atom.args.length; c++) {
      const a = atom.args[c]!;
      const v = table.get(row, c);
      if (a >= 0) {
        if (a !== v) return null;
      } else if (!local.includes(-a - 1)) {
        const s = -a - 1;
        if (slots[s]! >= 0 && slots[s] !== v) return null;
        slots[s] = v;
      }
    }
    return slots;
  }

  /**
   * The feeds of `rules` on their body atoms (`atom`) or on the atoms of their NOT literals
   * (`not`), each with its cursor at 0. A rule's feeds are made once per run and handed out
   * again by each phase (with their slots and plans).
   */
  private feeds(rules: readonly CompiledRule[], kinds: 'atom' | 'not'): Feed[] {
    const out: Feed[] = [];
    for (const rule of rules) {
      let made = this.feedsByRule.get(rule);
      if (!made) {
        made = { atom: [], not: [] };
        const mine = made;
        rule.body.forEach((l, i) => {
          const fresh = (atom: CompiledAtom): Feed => ({ rule, literal: i, atom, node: atom.node, cursor: 0, slots: new Int32Array(rule.slotCount), plan: undefined });
          if (l.kind === 'atom') mine.atom.push(fresh(l.atom));
          if (l.kind === 'not') for (const atom of l.atoms) mine.not.push(fresh(atom));
        });
        this.feedsByRule.set(rule, made);
      }
      for (const feed of made[kinds]) {
        feed.cursor = 0;
        out.push(feed);
      }
    }
    return out;
  }

  /** Levels of every atom of `literals` (inside NOT and AGGREGATE too). */
  private atomLevels(literals: CompiledRule['body'], levels: number[] = []): number[] {
    for (const l of literals) {
      if (l.kind === 'atom') levels.push(l.atom.level);
      else if (l.kind === 'not') levels.push(...l.atoms.map((a) => a.level));
      else if (l.kind === 'aggregate') this.atomLevels(l.inner, levels);
    }
    return levels;
  }

  /** Nodes of every atom of `literals` (inside NOT and AGGREGATE too). */
  private atomNodes(literals: CompiledRule['body'], nodes: string[] = []): string[] {
    for (const l of literals) {
      if (l.kind === 'atom') nodes.push(l.atom.node);
      else if (l.kind === 'not') nodes.push(...l.atoms.map((a) => a.node));
      else if (l.kind === 'aggregate') this.atomNodes(l.inner, nodes);
    }
    return nodes;
  }

  /** Nodes read by the AGGREGATE literals of a rule. */
  private aggregateNodes(rule: CompiledRule): string[] {
    const nodes: string[] = [];
    for (const l of rule.body) if (l.kind === 'aggregate') this.atomNodes(l.inner, nodes);
    return nodes;
  }

  /** Counts a unit of work; true every 256 units when the interrupter wants a yield (then `await this.pause()`). */
  private tick(): boolean {
    return (++this.ticks & 255) === 0 && this.interrupter.due();
  }

  /** Yields to the event loop (and throws when interrupted). */
  private pause(): Promise<void> {
    return this.interrupter.yield();
  }

  // ---- phases ----

  /** Marks a fact absent and lists it, so that what depends on it is overdeleted. */
  private overdeleteNow(tableId: number, row: number): void {
    this.setMark(tableId, row, WILL_BE_ABSENT);
    this.push(this.minus, tableId, row);
  }

  /** A fact lost a derivation: overdelete it unless it is explicit (then it only loses its derived status). */
  private candidate(tableId: number, row: number, force: boolean): void {
    const m = this.mark(tableId, row);
    if ((m & (WILL_BE_ABSENT | LOSES_DERIVED | ADDED | PROVED)) !== 0) return;
    const table = this.tx.table(tableId);
    const status = table.statusOf(row);
    if ((status & DERIVED) === 0) return;
    // an explicit fact that stays is not deleted: whether it stays derived is left to the
    // rederivation, which checks once against the whole current materialisation
    const staysExplicit = (status & EXPLICIT) !== 0 && (m & LOSES_EXPLICIT) === 0;
    if (!force && !staysExplicit && !this.options.useDRed && this.provable(tableId, row, this.settled)) {
      // settled facts are never deleted in this run, so the proof stands for later candidates too
      this.setMark(tableId, row, PROVED);
      return;
    }
    if (staysExplicit) {
      this.setMark(tableId, row, LOSES_DERIVED);
      listByLevel(this.underived, this.levelOfRow(tableId, row), tableId, row);
      return;
    }
    this.overdeleteNow(tableId, row);
  }

  /** Whether some rule of the fact's level derives it from rows accepted by `filter`. */
  private provable(tableId: number, row: number, filter: RowFilter): boolean {
    // called from inside other evaluations (a candidate found while a pivot's join runs):
    // the row filter of that evaluation must be restored
    const saved = this.evaluator.accept;
    try {
      const table = this.tx.table(tableId);
      // the rules of the fact's level that can derive it are those with a head of its node
      for (const entry of this.headsOf(this.nodeOfRow(tableId, row))) {
        const slots = entry.slots;
        slots.fill(-1);
        if (!this.evaluator.unify(entry.head, table, row, slots)) continue;
        this.evaluator.accept = filter;
        // the head's variables are the bound ones, so one plan serves every check
        const plan = (entry.plan ??= this.evaluator.planFor(entry.rule, slots, -1));
        if (this.evaluator.runPlan(plan, slots, FOUND)) return true;
      }
      return false;
    } finally {
      this.evaluator.accept = saved;
    }
  }

  /** The rule heads that can derive facts of a predicate node (they have that node). */
  private headsOf(node: string): readonly HeadEntry[] {
    if (!this.headsByNode) {
      this.headsByNode = new Map();
      for (const rule of this.program.rules) {
        for (const head of rule.heads) {
          let list = this.headsByNode.get(head.node);
          if (!list) this.headsByNode.set(head.node, (list = []));
          list.push({ rule, head, slots: new Int32Array(rule.slotCount), plan: undefined });
        }
      }
    }
    return this.headsByNode.get(node) ?? [];
  }

  private async overdelete(rules: readonly CompiledRule[], removedCandidates: readonly number[]): Promise<void> {
    const onHead: HeadCallback = (head, tuple) => {
      const tableId = head.tableId;
      const row = this.tx.table(tableId).find(tuple, this.tx.view(tableId));
      if (row >= 0) this.candidate(tableId, row, false);
    };
    for (const k of removedCandidates) this.candidate(keyTable(k), keyRow(k), true);
    // a change below an AGGREGATE: every old instance of its rule is a candidate
    for (const rule of rules) {
      if (!rule.aggregates) continue;
      const nodes = this.aggregateNodes(rule);
      if (this.changedAny(nodes)) {
        this.evaluator.accept = this.inOldMaterialisation;
        this.eachHead(rule, -1, null, onHead);
      }
    }
    // a fact added below a NOT: instances that relied on its absence lose a derivation
    for (const feed of this.feeds(rules, 'not')) {
      const lit = feed.rule.body[feed.literal]!;
      if (lit.kind !== 'not') continue;
      for (const row of this.rowsOf(this.plus, feed.node)) {
        const slots = this.bindOuter(feed.rule, feed.atom, lit.local, row);
        if (!slots) continue;
        this.evaluator.accept = this.inOldMaterialisation;
        this.eachHead(feed.rule, feed.literal, slots, onHead);
        if (this.tick()) await this.pause();
      }
    }
    const emitters = new Map(rules.map((r) => [r, this.headEmitter(r, onHead)]));
    await this.drain(this.feeds(rules, 'atom'), this.minus, this.inOldMaterialisation, emitters, true);
  }

  /**
   * Semi-naive propagation: every fact of `lists` (including those appended meanwhile) that
   * is marked WILL_BE_ABSENT (`absent`) or not (`!absent`) is the pivot of every feed on its node whose constants it matches.
   * One cursor per node; a feed only takes facts from its own start position on.
   */
  private async drain(
    feeds: readonly Feed[],
    lists: Map<string, NodeList>,
    filter: RowFilter,
    emitters: Map<CompiledRule, (bound: Int32Array) => void>,
    absent: boolean,
  ): Promise<void> {
    const want = absent ? WILL_BE_ABSENT : 0;
    const byNode = new Map<string, FeedGroup>();
    for (const feed of feeds) {
      let group = byNode.get(feed.node);
      if (!group) byNode.set(feed.node, (group = { cursor: feed.cursor, anyPredicate: [], byPredicate: new Map() }));
      group.cursor = Math.min(group.cursor, feed.cursor);
      const entry: FeedEntry = { feed, emit: emitters.get(feed.rule)! };
      const p = feed.atom.args.length > 1 ? feed.atom.args[1]! : -1;
      if (p < 0) group.anyPredicate.push(entry);
      else {
        let list = group.byPredicate.get(p);
        if (!list) group.byPredicate.set(p, (list = []));
        list.push(entry);
      }
    }
    const none: FeedEntry[] = [];
    let progress = true;
    while (progress) {
      progress = false;
      for (const [node, group] of byNode) {
        const list = lists.get(node);
        if (!list) continue;
        const rows = list.rows;
        const tableId = list.tableId;
        const table = this.tx.table(tableId);
        let i = group.cursor;
        for (; i < rows.length; i++) {
          const row = rows[i]!;
          const m = this.marks[tableId]; // re-read: the array grows as rows are marked
          if (((m !== undefined && row < m.length ? m[row]! : 0) & WILL_BE_ABSENT) !== want) continue;
          progress = true;
          // the feeds whose atom can match: a variable or this fact's term in the second column
          const specific = table.arity > 1 ? (group.byPredicate.get(table.get(row, 1)) ?? none) : none;
          for (let pass = 0; pass < 2; pass++) {
            const entries = pass === 0 ? group.anyPredicate : specific;
            for (let f = 0; f < entries.length; f++) {
              const { feed, emit } = entries[f]!;
              if (i < feed.cursor) continue;
              const args = feed.atom.args;
              let ok = true;
              for (let c = 0; c < args.length; c++) {
                const a = args[c]!;
                if (a >= 0 && a !== table.get(row, c)) {
                  ok = false;
                  break;
                }
              }
              if (ok) this.pivot(feed, table, row, filter, emit);
            }
          }
          if (this.tick()) await this.pause();
        }
        group.cursor = i;
      }
    }
  }

  private async rederive(rules: readonly CompiledRule[], levels: ReadonlySet<number>): Promise<void> {
    if (rules.length === 0) return;
    const check = (tableId: number, row: number, bit: number): void => {
      if ((this.mark(tableId, row) & bit) === 0) return;
      // a fact no rule derived before the run is derived now only through an addition, a
      // change below a NOT or an AGGREGATE, or an added rule: the insertion phase finds those
      if ((this.tx.table(tableId).statusOf(row) & DERIVED) === 0) return;
      if (!levels.has(this.levelOfRow(tableId, row))) return;
      if (!this.provable(tableId, row, this.inCurrentMaterialisation)) return;
      this.restore(tableId, row);
    };
    for (const [node, list] of this.minus) {
      if (!this.program.levelsOfNode(node).some((l) => levels.has(l))) continue;
      for (const row of list.rows) {
        check(list.tableId, row, WILL_BE_ABSENT);
        if (this.tick()) await this.pause();
      }
    }
    for (const level of levels) for (const k of this.underived.get(level) ?? []) check(keyTable(k), keyRow(k), LOSES_DERIVED);
  }

  /** Puts an overdeleted fact back (and lets insertion propagate it). */
  private restore(tableId: number, row: number): void {
    const m = this.mark(tableId, row);
    if ((m & LOSES_DERIVED) !== 0) {
      this.clearMark(tableId, row, LOSES_DERIVED);
      return;
    }
    if ((m & WILL_BE_ABSENT) === 0) return;
    this.clearMark(tableId, row, WILL_BE_ABSENT);
    if ((this.tx.table(tableId).statusOf(row) & DERIVED) === 0) this.setMark(tableId, row, GAINS_DERIVED);
    this.push(this.plus, tableId, row);
  }

  private async insert(rules: readonly CompiledRule[], added: ReadonlySet<string>): Promise<void> {
    const tx = this.tx;
    const stats = this.stats;
    const onHead: HeadCallback = (head, tuple) => {
      const tableId = head.tableId;
      stats.derivations++;
      const table = tx.table(tableId);
      const row = table.findOrAdd(tuple, DERIVED);
      if (wasAppended(row)) {
        const r = appendedRowOf(row);
        this.setMark(tableId, r, ADDED);
        // a derived fact's node is its head atom's (nodes are as coarse as the program's atoms)
        this.push(this.plus, tableId, r, head.node);
        this.stats.inserted++;
        return;
      }
      // the status first: most repeats find a derived fact, and while no fact is marked to lose
      // anything the mark need not be read (each read is a likely cache miss on a large table)
      const derived = (table.statusOf(row) & DERIVED) !== 0;
      if (derived && !this.anyLoss) return;
      const m = this.mark(tableId, row);
      if ((m & (WILL_BE_ABSENT | LOSES_DERIVED)) !== 0) this.restore(tableId, row);
      else if (!derived) this.setMark(tableId, row, GAINS_DERIVED);
    };
    // a rule evaluated in full needs as pivots only the facts that arrive after its evaluation
    const startAt = new Map<CompiledRule, Map<string, number>>();
    for (const rule of rules) {
      if (added.has(rule.key)) {
        const starts = new Map<string, number>();
        for (const l of rule.body) if (l.kind === 'atom') starts.set(l.atom.node, this.rowsOf(this.plus, l.atom.node).length);
        startAt.set(rule, starts);
        this.evaluator.accept = this.current();
        this.eachHead(rule, -1, null, onHead);
        if (this.tick()) await this.pause();
      } else if (rule.aggregates) {
        const nodes = this.aggregateNodes(rule);
        if (this.changedAny(nodes)) {
          this.evaluator.accept = this.current();
          this.eachHead(rule, -1, null, onHead);
        }
      }
    }
    // a fact deleted below a NOT: instances that needed its absence may now hold
    for (const feed of this.feeds(rules, 'not')) {
      const lit = feed.rule.body[feed.literal]!;
      if (lit.kind !== 'not' || added.has(feed.rule.key)) continue;
      for (const row of this.rowsOf(this.minus, feed.node)) {
        if ((this.mark(feed.atom.tableId, row) & WILL_BE_ABSENT) === 0) continue;
        const slots = this.bindOuter(feed.rule, feed.atom, lit.local, row);
        if (!slots) continue;
        this.evaluator.accept = this.current();
        this.eachHead(feed.rule, -1, slots, onHead);
        if (this.tick()) await this.pause();
      }
    }
    const feeds = this.feeds(rules, 'atom');
    for (const feed of feeds) feed.cursor = startAt.get(feed.rule)?.get(feed.node) ?? 0;
    const emitters = new Map(rules.map((r) => [r, this.headEmitter(r, onHead)]));
    await this.drain(feeds, this.plus, this.current(), emitters, false);
  }

  /** Whether facts of some of `nodes` were added or deleted. */
  private changedAny(nodes: readonly string[]): boolean {
    return nodes.some((n) => this.rowsOf(this.plus, n).length > 0 || this.rowsOf(this.minus, n).length > 0);
  }

  /** Removes every derived status before a from-scratch run. */
  private dropDerived(): void {
    const tx = this.tx;
    for (const info of tx.catalogue.tupleTables.values()) {
      if (!storesFacts(info)) continue;
      const table = tx.table(info.id);
      // a status change is made in place, or appends a row past the limit the walk read at its start
      const view = tx.view(info.id);
      table.forEachVisibleRow(view, DERIVED, (row) => table.setStatus(row, table.statusOf(row) & ~DERIVED, tx.version));
    }
  }

  /** Applies the marks to the statuses of the facts. */
  private apply(): void {
    const tx = this.tx;
    for (let tableId = 0; tableId < this.touched.length; tableId++) {
      const touched = this.touched[tableId];
      const marks = this.marks[tableId];
      if (!touched || !marks) continue;
      const table = tx.table(tableId);
      // in row order, for locality (a status change that keeps the fact is made in place)
      for (const row of new Int32Array(touched).sort()) {
        const m = marks[row]!;
        if ((m & STATUS_MARKS) === 0) continue;
        const old = table.statusOf(row);
        let status = old;
        if ((m & GAINS_DERIVED) !== 0) status |= DERIVED;
        if ((m & (WILL_BE_ABSENT | LOSES_DERIVED)) !== 0 && (old & DERIVED) !== 0) status &= ~DERIVED;
        if ((m & LOSES_EXPLICIT) !== 0) status &= ~EXPLICIT;
        if ((m & WILL_BE_ABSENT) !== 0) this.stats.deleted++;
        table.setStatus(row, status, tx.version);
      }
    }
  }
}
