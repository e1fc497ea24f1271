/**
 * The proof search behind explanations: over one store state and a compiled program, the rule
 * instances that derive a fact (a head atom matched to the fact, the body evaluated with the
 * head's variables bound), the least proof height of a fact (iterative deepening with bounds
 * kept per fact), and the three kinds of explanation (a shortest proof, every instance down
 * to explicit facts, and the same also for explicit facts) cut by the distance and per-fact
 * limits. Facts are id tuples; turning them into text is the server layer's work.
 *
 * A fact's proof height is 0 when it is explicit, else 1 + the greatest height of the body
 * facts of its best rule instance. Body literals that are not atoms (NOT, FILTER, BIND,
 * AGGREGATE, SKOLEM) have no body fact.
 * @module
 */
import type { StoreState } from '../storage/fact-store.js';
import { BUILTIN_TABLE_TYPE, MEMORY_TABLE_TYPE } from '../storage/catalogue.js';
import { DERIVED, EXPLICIT } from '../storage/tuple-table.js';
import { TableCursor } from '../storage/table-cursor.js';
import type { TermDictionary } from '../model/dictionary.js';
import { keyToTerm, termToKey } from '../model/terms.js';
import { RuleEvaluator } from './evaluate.js';
import type { CompiledAtom, CompiledProgram, CompiledRule } from './program.js';
import { TermValues, type TermValue } from './term-values.js';

/** The kinds of explanation. */
export type ExplanationKind = 'shortest' | 'to-explicit' | 'exhaustive';

/** A ground fact: a table id and its term ids. */
export interface GroundFact {
  /** The tuple table id. */
  readonly tableId: number;
  /** The term ids, one per position. */
  readonly tuple: readonly number[];
}

/** One rule instance deriving a fact. */
export interface RuleInstance {
  /** The rule. */
  readonly rule: CompiledRule;
  /** Which head atom matched the fact. */
  readonly headAtomIndex: number;
  /** Term id per slot of the rule's scope (-1 for the slots of NOT and AGGREGATE scopes). */
  readonly slots: Int32Array;
  /** Per body literal: the key of the body fact (an atom), or null. */
  readonly bodyFacts: ReadonlyArray<string | null>;
}

/** One fact of an explanation, at the id level. */
export interface ProofFact {
  /** The fact's key ({@link factKey}). */
  readonly key: string;
  /** The fact. */
  readonly fact: GroundFact;
  /** `explicit`, `derived`, or `false` (a root that does not hold). */
  readonly type: 'explicit' | 'derived' | 'false';
  /** Least number of steps from the root. */
  readonly distanceFromRoot: number;
  /** Least proof height; null when the fact does not hold. */
  readonly proofHeight: number | null;
  /** The instances listed (for a shortest explanation, the one of the proof). */
  readonly ruleInstances: readonly RuleInstance[];
  /** Whether every instance that the kind of explanation asks for is listed. */
  readonly ruleInstancesComplete: boolean;
  /** Index in `ruleInstances` of an instance of least height, or null (explicit, or not listed). */
  readonly shortestProofRuleInstance: number | null;
}

/** An explanation at the id level: facts in order of discovery, the root first. */
export interface Proof {
  /** The facts; the first is the root. */
  readonly facts: readonly ProofFact[];
  /** Whether no limit left anything out. */
  readonly complete: boolean;
}

/** Limits and kind of {@link explainFact}. */
export interface ProofOptions {
  /** The kind (default `shortest`). */
  readonly kind?: ExplanationKind;
  /** Facts farther from the root are not listed, and those at this distance are not explained. */
  readonly maxDistanceFromRoot?: number;
  /** At most this many rule instances per fact. */
  readonly maxRuleInstancesPerFact?: number;
  /**
   * Facts the reader may not see: a hidden root is explained as a fact that does not hold, and
   * rule instances with a hidden body fact are left out (the fact's instances are then
   * incomplete), so that no hidden fact is shown.
   */
  readonly hidden?: (fact: GroundFact) => boolean;
}

/** The key of a fact (table id and term ids). */
export function factKey(tableId: number, tuple: ArrayLike<number>): string {
  let k = `${tableId}`;
  for (let i = 0; i < tuple.length; i++) k += `,${tuple[i]}`;
  return k;
}

/** Ids above this are terms made during the search but not in the dictionary (never in a fact). */
const LOCAL_IDS = 0x40000000;

/** Term values that never add to the dictionary: values it lacks get ids of their own. */
class ReadOnlyTermValues extends TermValues {
  private readonly local = new Map<string, number>();
  private readonly values: TermValue[] = [];

  constructor(private readonly terms: TermDictionary) {
    super(terms);
  }

  override value(id: number): TermValue {
    return id >= LOCAL_IDS ? this.values[id - LOCAL_IDS]! : super.value(id);
  }

  override id(value: TermValue): number {
    return this.localId(termToKey(value), () => value);
  }

  override key(id: number): string {
    return id >= LOCAL_IDS ? termToKey(this.values[id - LOCAL_IDS]!) : super.key(id);
  }

  override internKey(key: string): number {
    return this.localId(key, () => keyToTerm(key));
  }

  /** The dictionary's id of a key, or an id of this search's own. */
  private localId(key: string, value: () => TermValue): number {
    const id = this.terms.lookup(key);
    if (id >= 0) return id;
    let l = this.local.get(key);
    if (l === undefined) {
      l = LOCAL_IDS + this.values.length;
      this.values.push(value());
      this.local.set(key, l);
    }
    return l;
  }
}


/** The head atoms of the program, indexed by table and (for triples and quads) predicate. */
interface HeadEntry {
  readonly rule: CompiledRule;
  readonly index: number;
  readonly atom: CompiledAtom;
  /** The number of variables of the body's atoms that the head atom does not bind. */
  readonly free: number;
}

/** The number of variables of a rule's body atoms that a head atom does not bind. */
function freeVariables(rule: CompiledRule, head: CompiledAtom): number {
  const bound = new Set<number>();
  head.args.forEach((a) => a < 0 && bound.add(a));
  const free = new Set<number>();
  for (const l of rule.body) if (l.kind === 'atom') l.atom.args.forEach((a) => a < 0 && !bound.has(a) && free.add(a));
  return free.size;
}

/** The head index of a program (kept per program). */
const headIndexes = new WeakMap<CompiledProgram, Map<string, HeadEntry[]>>();

/** The key of a head atom or fact in the head index: the table, and the predicate for triple tables. */
function headKey(program: CompiledProgram, tableId: number, predicate: number): string {
  const { triples, quads } = program.tripleTables;
  return tableId === triples || tableId === quads ? `${tableId}|${predicate}` : `${tableId}`;
}

function headIndexOf(program: CompiledProgram): Map<string, HeadEntry[]> {
  let index = headIndexes.get(program);
  if (index) return index;
  index = new Map();
  const { triples, quads } = program.tripleTables;
  for (const rule of program.rules) {
    rule.heads.forEach((atom, i) => {
      const triple = atom.tableId === triples || atom.tableId === quads;
      const key = headKey(program, atom.tableId, triple ? Math.max(atom.args[1]!, -1) : -1);
      let list = index.get(key);
      if (!list) index.set(key, (list = []));
      list.push({ rule, index: i, atom, free: freeVariables(rule, atom) });
    });
  }
  // rules whose body the head binds entirely first: each has at most one instance, found by
  // lookups, and a search that stops at the first suitable instance is then cheap
  for (const list of index.values()) list.sort((a, b) => a.free - b.free);
  // a triple's candidates: the head atoms of its predicate, then those with a variable predicate
  for (const table of [triples, quads]) {
    const generic = index.get(headKey(program, table, -1));
    if (!generic) continue;
    for (const [key, list] of index) if (key.startsWith(`${table}|`) && key !== `${table}|-1`) list.push(...generic);
  }
  headIndexes.set(program, index);
  return index;
}

/** Whether a head atom matches a fact: its constants are the fact's terms, and a repeated variable takes one value. */
function headMatches(atom: CompiledAtom, tuple: readonly number[]): boolean {
  const args = atom.args;
  for (let c = 0; c < args.length; c++) {
    const a = args[c]!;
    if (a >= 0) {
      if (a !== tuple[c]) return false;
      continue;
    }
    // a variable seen at an earlier position must have the same value
    for (let d = 0; d < c; d++) if (args[d] === a && tuple[d] !== tuple[c]) return false;
  }
  return true;
}

/**
 * What the searches over one state share: the term values (ids of the values that expressions
 * make, none added to the dictionary) and the rule evaluator with its join plans, each made
 * on first use of a rule with a set of bound slots and reused by later explanations.
 */
interface SharedSearch {
  readonly catalogue: object;
  readonly dictionary: TermDictionary;
  /**
   * The dictionary's size and bytes when made: once terms were added (or removed by a rollback),
   * the ids and values of terms the search made or looked up may be stale.
   */
  readonly dictionaryMark: string;
  readonly terms: ReadOnlyTermValues;
  readonly evaluator: RuleEvaluator;
  readonly mountedTables: ReadonlySet<number>;
  /** The searches that used it (it is made anew after {@link SHARED_USES}, so that its caches stay small). */
  uses: number;
}

/** The searches that share one evaluator (its term cache grows with the terms the expressions read). */
const SHARED_USES = 10_000;

/** Per state, what its searches share (made anew when the state's catalogue changed or the dictionary grew). */
const sharedSearches = new WeakMap<StoreState, SharedSearch>();

/** The dictionary's number of terms and bytes of their keys. */
function dictionaryMark(dictionary: TermDictionary): string {
  const n = dictionary.size;
  return `${n}/${n > 0 ? dictionary.endOf(n - 1) : 0}`;
}

function sharedSearch(state: StoreState, dictionary: TermDictionary): SharedSearch {
  let shared = sharedSearches.get(state);
  if (shared && shared.catalogue === state.catalogue && shared.dictionary === dictionary && shared.dictionaryMark === dictionaryMark(dictionary) && shared.uses < SHARED_USES) {
    shared.uses++;
    return shared;
  }
  const terms = new ReadOnlyTermValues(dictionary);
  shared = {
    catalogue: state.catalogue,
    dictionary,
    dictionaryMark: dictionaryMark(dictionary),
    terms,
    evaluator: new RuleEvaluator(state, terms),
    mountedTables: new Set([...state.catalogue.tupleTables.values()].filter((t) => t.type !== MEMORY_TABLE_TYPE && t.type !== BUILTIN_TABLE_TYPE).map((t) => t.id)),
    uses: 1,
  };
  sharedSearches.set(state, shared);
  return shared;
}

/** The proof search over one state. */
export class ProofSearch {
  private readonly evaluator: RuleEvaluator;
  private readonly instancesOf = new Map<string, RuleInstance[]>();
  private readonly facts = new Map<string, GroundFact>();
  /** Per fact: a proof of at most this height exists. */
  private readonly upper = new Map<string, number>();
  /** Per fact: no proof of at most this height exists. */
  private readonly lower = new Map<string, number>();
  private readonly index: Map<string, HeadEntry[]>;
  private readonly terms: ReadOnlyTermValues;
  /** Ids of the tables mounted on data sources (their facts are read, not stored). */
  private readonly mountedTables: ReadonlySet<number>;
  /** The cursor of fact lookups (rule bodies are read by the evaluator's cursors). */
  private readonly lookup = new TableCursor();

  /** Creates a search over `state` for the rules of `program`. */
  constructor(
    private readonly state: StoreState,
    dictionary: TermDictionary,
    private readonly program: CompiledProgram,
  ) {
    const shared = sharedSearch(state, dictionary);
    this.terms = shared.terms;
    this.evaluator = shared.evaluator;
    this.index = headIndexOf(program);
    this.mountedTables = shared.mountedTables;
  }

  /** The fact of a key seen by this search. */
  fact(key: string): GroundFact {
    return this.facts.get(key)!;
  }

  /** Registers a fact; returns its key. */
  private remember(tableId: number, tuple: ArrayLike<number>): string {
    const key = factKey(tableId, tuple);
    if (!this.facts.has(key)) this.facts.set(key, { tableId, tuple: Array.from(tuple) });
    return key;
  }

  /** Registers the fact of an atom with its variables' values in `slots`; returns its key. */
  private rememberAtom(atom: CompiledAtom, slots: Int32Array): string {
    const args = atom.args;
    let key = `${atom.tableId}`;
    for (let c = 0; c < args.length; c++) key += `,${args[c]! >= 0 ? args[c]! : slots[-args[c]! - 1]!}`;
    if (!this.facts.has(key)) this.facts.set(key, { tableId: atom.tableId, tuple: Array.from(args, (a) => (a >= 0 ? a : slots[-a - 1]!)) });
    return key;
  }

  /** The canonical key of a term id seen by this search (terms made by the search included). */
  termKey(id: number): string {
    return this.terms.key(id);
  }

  /** The status bits of a fact in the state (0 when it does not hold); facts of tables mounted on data sources are explicit. */
  status(fact: GroundFact): number {
    if (this.mountedTables.has(fact.tableId)) return EXPLICIT;
    const table = this.state.table(fact.tableId);
    // every position bound: the cursor's point lookup
    const row = this.lookup.open(table, this.state.view(fact.tableId), fact.tuple, EXPLICIT | DERIVED).next();
    return row < 0 ? 0 : table.statusIn(row, this.state.view(fact.tableId)) || EXPLICIT;
  }

  /** Whether a fact holds and is explicit. */
  private explicit(key: string): boolean {
    return (this.status(this.facts.get(key)!) & EXPLICIT) !== 0;
  }

  /** Every rule instance deriving the fact (cached). */
  instances(key: string): RuleInstance[] {
    let list = this.instancesOf.get(key);
    if (!list) this.instancesOf.set(key, (list = this.enumerate(key, undefined)));
    return list;
  }

  /**
   * The first rule instance of the fact that `accept` takes, found without enumerating every
   * instance when one comes early (`accept` must not search itself). When none is taken, the
   * instances were all enumerated, and are cached.
   */
  private search(key: string, accept: (instance: RuleInstance) => boolean): RuleInstance | undefined {
    const cached = this.instancesOf.get(key);
    if (cached) return cached.find(accept);
    let found: RuleInstance | undefined;
    const list = this.enumerate(key, (instance) => {
      if (!accept(instance)) return false;
      found = instance;
      return true;
    });
    if (found === undefined) this.instancesOf.set(key, list);
    return found;
  }

  /** Enumerates the rule instances of a fact, stopping once `stop` returns true. */
  private enumerate(key: string, stop: ((instance: RuleInstance) => boolean) | undefined): RuleInstance[] {
    const list: RuleInstance[] = [];
    const fact = this.facts.get(key)!;
    const { triples, quads } = this.program.tripleTables;
    const triple = fact.tableId === triples || fact.tableId === quads;
    // (the index lists a triple's head atoms with a variable predicate after those of its predicate)
    const candidates = (triple ? this.index.get(headKey(this.program, fact.tableId, fact.tuple[1]!)) : undefined) ?? this.index.get(headKey(this.program, fact.tableId, -1)) ?? [];
    const seen = new Set<string>();
    for (let ci = 0; ci < candidates.length; ci++) {
      const { rule, index, atom } = candidates[ci]!;
      if (atom.args.length !== fact.tuple.length || !headMatches(atom, fact.tuple)) continue;
      const slots = new Int32Array(rule.slotCount).fill(-1);
      for (let c = 0; c < atom.args.length; c++) {
        const a = atom.args[c]!;
        if (a < 0) slots[-a - 1] = fact.tuple[c]!;
      }
      // the whole head is the fact: a head variable bound by BIND or AGGREGATE is checked by the evaluator
      const stopped = this.evaluator.run(rule, slots, -1, (match) => {
        const bodyFacts: Array<string | null> = [];
        // one per literal of the rule's body (the triple term patterns compiled after them have none)
        for (let i = 0; i < rule.rule.body.length; i++) {
          const l = rule.body[i]!;
          if (l.kind !== 'atom') {
            bodyFacts.push(null);
            continue;
          }
          bodyFacts.push(this.rememberAtom(l.atom, match));
        }
        const copy = Int32Array.from(match);
        // the candidate and the slots determine the instance (its body facts too)
        const k = `${ci}|${copy.join(',')}`;
        if (seen.has(k)) return false;
        seen.add(k);
        const instance: RuleInstance = { rule, headAtomIndex: index, slots: copy, bodyFacts };
        list.push(instance);
        return stop !== undefined && stop(instance);
      });
      if (stopped) break;
    }
    return list;
  }

  /** Whether every body fact of an instance is known (without searching) to have a proof of height at most `k`. */
  private knownWithin(instance: RuleInstance, k: number): boolean {
    for (const b of instance.bodyFacts) {
      if (b === null) continue;
      const up = this.upper.get(b);
      if (up !== undefined && up <= k) continue;
      if (up === undefined && this.explicit(b)) {
        this.upper.set(b, 0);
        continue;
      }
      return false;
    }
    return true;
  }

  /** Whether the fact has a proof of height at most `k`. */
  provable(key: string, k: number): boolean {
    const up = this.upper.get(key);
    if (up !== undefined && up <= k) return true;
    const low = this.lower.get(key) ?? -1;
    if (low >= k) return false;
    if (this.explicit(key)) {
      this.upper.set(key, 0);
      return true;
    }
    if (k === 0) {
      this.lower.set(key, 0);
      return false;
    }
    const quick = this.search(key, (instance) => this.knownWithin(instance, k - 1));
    if (quick !== undefined || this.instances(key).some((instance) => instance.bodyFacts.every((b) => b === null || this.provable(b, k - 1)))) {
      this.upper.set(key, Math.min(up ?? k, k));
      return true;
    }
    this.lower.set(key, Math.max(low, k));
    return false;
  }

  /** The least proof height of a fact that holds (it is derived or explicit). */
  height(key: string): number {
    for (;;) {
      const low = this.lower.get(key) ?? -1;
      const up = this.upper.get(key);
      if (up !== undefined && up === low + 1) return up;
      if (this.provable(key, low + 1)) return low + 1;
      // a fact that holds has a proof of height at most the number of facts; guard anyway
      if (low + 1 > 1_000_000) throw new Error('internal error: no proof found for a fact that holds');
    }
  }

  /** The height of a rule instance: 1 + the greatest height of its body facts. */
  instanceHeight(instance: RuleInstance): number {
    let h = 0;
    for (const b of instance.bodyFacts) if (b !== null) h = Math.max(h, this.height(b));
    return h + 1;
  }

  /** An instance of a proof of least height of a derived fact. */
  private best(key: string): RuleInstance | undefined {
    const h = this.height(key);
    return this.search(key, (instance) => this.knownWithin(instance, h - 1)) ?? this.instances(key).find((r) => r.bodyFacts.every((b) => b === null || this.provable(b, h - 1)));
  }

  /** Explains the fact `tuple` of table `tableId`. */
  explain(tableId: number, tuple: ArrayLike<number>, options: ProofOptions = {}): Proof {
    const kind = options.kind ?? 'shortest';
    const maxDistance = options.maxDistanceFromRoot ?? Infinity;
    const maxInstances = options.maxRuleInstancesPerFact ?? Infinity;
    const rootKey = this.remember(tableId, tuple);
    const hidden = options.hidden;
    const rootStatus = hidden?.(this.facts.get(rootKey)!) ? 0 : this.status(this.facts.get(rootKey)!);
    if (rootStatus === 0) {
      const root: ProofFact = {
        key: rootKey,
        fact: this.facts.get(rootKey)!,
        type: 'false',
        distanceFromRoot: 0,
        proofHeight: null,
        ruleInstances: [],
        ruleInstancesComplete: true,
        shortestProofRuleInstance: null,
      };
      return { facts: [root], complete: true };
    }
    const out: ProofFact[] = [];
    const distance = new Map<string, number>([[rootKey, 0]]);
    const queue = [rootKey];
    let complete = true;
    for (let q = 0; q < queue.length; q++) {
      const key = queue[q]!;
      const d = distance.get(key)!;
      const explicit = this.explicit(key);
      const explain = !explicit || kind === 'exhaustive';
      let listed: RuleInstance[] = [];
      let instancesComplete = true;
      let shortest: number | null = null;
      if (explain) {
        let wanted: RuleInstance[];
        let best: RuleInstance | undefined;
        if (kind === 'shortest') {
          best = explicit ? undefined : this.best(key);
          wanted = best ? [best] : [];
        } else {
          // every instance, the shortest first (so that a per-fact limit keeps it); enumerated
          // first, so that the best is one of them
          const all = this.instances(key);
          best = explicit ? undefined : this.best(key);
          wanted = best ? [best, ...all.filter((r) => r !== best)] : all;
        }
        if (hidden !== undefined) {
          const shown = wanted.filter((r) => !r.bodyFacts.some((b) => b !== null && hidden(this.facts.get(b)!)));
          if (shown.length < wanted.length) {
            instancesComplete = false;
            if (best !== undefined && shown[0] !== best) best = undefined;
            wanted = shown;
          }
        }
        if (d >= maxDistance) {
          if (wanted.length > 0) instancesComplete = false;
        } else {
          listed = wanted.length > maxInstances ? wanted.slice(0, maxInstances) : wanted;
          if (listed.length < wanted.length) instancesComplete = false;
        }
        if (!explicit && listed.length > 0 && best !== undefined) shortest = 0;
        if (!instancesComplete) complete = false;
        for (const instance of listed) {
          for (const b of instance.bodyFacts) {
            if (b === null || distance.has(b)) continue;
            distance.set(b, d + 1);
            queue.push(b);
          }
        }
      }
      out.push({
        key,
        fact: this.facts.get(key)!,
        type: explicit ? 'explicit' : 'derived',
        distanceFromRoot: d,
        proofHeight: explicit ? 0 : this.height(key),
        ruleInstances: listed,
        ruleInstancesComplete: instancesComplete,
        shortestProofRuleInstance: shortest,
      });
    }
    return { facts: out, complete };
  }
}
