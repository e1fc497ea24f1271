/**
 * Explanations of a data store's facts: the fact given in Datalog (the store's prefixes and
 * base IRI apply) is parsed and checked, the store's rules (user rules, those of OWL axioms,
 * equality and built-in rule sets alike) are compiled for the state read, and the proof search
 * of `datalog/explanation.ts` runs over that one state. The answer comes as typed objects,
 * as RDFox's `application/x.explanation+json` value, and as an indented plain-text proof tree.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import type { OrderedMap } from 'immutable';
import type { AtomTerm, Rule, TupleAtom, BodyLiteral } from '../datalog/ast.js';
import { type GroundFact, type Proof, ProofSearch, type RuleInstance } from '../datalog/explanation.js';
import { compileProgram, type CompiledProgram, type CompiledRule } from '../datalog/program.js';
import { isPatternSlotName } from '../datalog/triple-term-patterns.js';
import { parseDatalog } from '../formats/datalog-parser.js';
import { writeDatalog } from '../formats/datalog-writer.js';
import type { TermDictionary } from '../model/dictionary.js';
import { AccessDeniedError, BadRequestError, ParsingError } from '../model/errors.js';
import { type FactTerm, keyToTerm, QuadlogDataFactory as DataFactory, termToKey } from '../model/terms.js';
import { BUILTIN_TABLE_TYPE, storesFacts, type StoredRule } from '../storage/catalogue.js';
import { type FactAccess, readableFacts } from '../storage/fact-access.js';
import type { StoreState } from '../storage/fact-store.js';

/** The media type of explanations in RDFox's JSON shape. */
export const EXPLANATION_JSON = 'application/x.explanation+json';

/** The kinds of explanation: a proof of least height, every derivation down to explicit facts, or also of explicit facts. */
export type ExplanationType = 'shortest' | 'to-explicit' | 'exhaustive';

/** The kinds of explanation, in the order the interface lists them. */
export const EXPLANATION_TYPES: readonly ExplanationType[] = ['shortest', 'to-explicit', 'exhaustive'];

/** Options of an explanation. */
export interface ExplanationOptions {
  /** `shortest` (default), `to-explicit` or `exhaustive`. */
  readonly type?: ExplanationType;
  /** Facts farther from the root are left out; those at this distance are not explained (default: no limit). */
  readonly maxDistanceFromRoot?: number;
  /** At most this many rule instances per fact (default: no limit). */
  readonly maxRuleInstancesPerFact?: number;
}

/** One rule instance of an explanation. */
export interface ExplanationRuleInstance {
  /** The rule, in Datalog with the store's prefixes (ending with ` .`). */
  readonly rule: string;
  /** The rule with its variables replaced by their values (expressions are kept as written). */
  readonly groundedRule: string;
  /** Which head atom of the rule is the explained fact (0-based). */
  readonly headAtomIndex: number;
  /** Per body formula: the id of the fact it matched, or null (NOT, FILTER, BIND, AGGREGATE). */
  readonly bodyFacts: ReadonlyArray<string | null>;
  /** The values of the rule's variables (names without `?`). */
  readonly bindings: ReadonlyMap<string, RDF.NamedNode | RDF.BlankNode | RDF.Literal | RDF.Quad>;
  /** @internal The rule as parsed (its syntax tree is not part of the published types). */
  readonly source: Rule;
}

/** One fact of an explanation. */
export interface ExplanationFact {
  /** The fact's id in {@link Explanation.facts} (`"0"` is the root). */
  readonly id: string;
  /** The fact in Datalog with the store's prefixes (no final dot). */
  readonly fact: string;
  /** @internal The fact as a ground atom (its syntax tree is not part of the published types). */
  readonly atom: TupleAtom;
  /** `explicit`, `derived`, or `false` for a root that does not hold. */
  readonly type: 'explicit' | 'derived' | 'false';
  /** Least number of rule steps from the root. */
  readonly distanceFromRoot: number;
  /** Least height of a proof of the fact (0 for explicit facts); null when it does not hold. */
  readonly proofHeight: number | null;
  /** Whether every rule instance this kind of explanation asks for is listed (false when a limit cut some). */
  readonly ruleInstancesComplete: boolean;
  /** Index in `ruleInstances` of an instance of a proof of least height, or null. */
  readonly shortestProofRuleInstance: number | null;
  /** The rule instances listed for the fact. */
  readonly ruleInstances: readonly ExplanationRuleInstance[];
}

/** An explanation of one fact. */
export interface Explanation {
  /** The store's prefixes (name with colon → IRI). */
  readonly prefixes: Readonly<Record<string, string>>;
  /** Whether no limit left anything out. */
  readonly complete: boolean;
  /** The explained fact. */
  readonly root: ExplanationFact;
  /** Every fact of the explanation by id, the root (`"0"`) first. */
  readonly facts: ReadonlyMap<string, ExplanationFact>;
}

/** The compiled programs of rule sets (the catalogue's rule map is immutable: a new map is a new rule set). */
const programs = new WeakMap<OrderedMap<string, StoredRule>, CompiledProgram>();

function programOf(state: StoreState, dictionary: TermDictionary): CompiledProgram {
  const rules = state.catalogue.rules;
  let program = programs.get(rules);
  if (!program) {
    program = compileProgram([...rules.values()].map((r) => ({ key: r.key, rule: r.rule as Rule })), state.catalogue, dictionary);
    programs.set(rules, program);
  }
  return program;
}

/** Checks a limit option: a non-negative integer or undefined. */
function checkLimit(name: string, value: number | undefined): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < 0) throw new BadRequestError(`invalid ${name} ${String(value)}: a non-negative integer is required`);
}

/** Checks an explanation type. */
export function checkExplanationType(type: string): ExplanationType {
  if (!(EXPLANATION_TYPES as readonly string[]).includes(type)) {
    throw new BadRequestError(`unknown explanation type '${type}' (known: ${EXPLANATION_TYPES.join(', ')})`);
  }
  return type as ExplanationType;
}

/** @internal Parses the fact to explain: one ground atom, optionally ended by a dot. */
export function parseExplainedFact(text: string, prefixes: ReadonlyMap<string, string>, baseIRI: string): TupleAtom {
  const trimmed = text.replace(/\s+$/, '');
  if (trimmed.trim() === '') throw new ParsingError('line 1: column 1: the fact to explain is empty: write one fact in Datalog, e.g. :A[:a]');
  const source = trimmed.endsWith('.') ? trimmed : `${trimmed} .`;
  const { document, errors } = parseDatalog(source, { prefixes, baseIRI });
  if (errors.length > 0) {
    const e = errors[0]!;
    // the dot added to a fact written without one is not the user's: name the end instead
    const lines = source.split('\n');
    const added = source !== trimmed && e.line === lines.length && e.column === lines.at(-1)!.length;
    const message = added ? e.message.replace(/found '\.'$/, 'found the end of the fact') : e.message;
    throw new ParsingError(`line ${e.line}: column ${e.column}: ${message}`);
  }
  if (document.rules.length > 0) {
    const p = document.rules[0]!.position;
    throw new ParsingError(`line ${p.line}: column ${p.column}: a rule cannot be explained: write one ground fact, e.g. :A[:a]`);
  }
  if (document.facts.length !== 1) {
    const p = document.facts[1]?.position ?? { line: 1, column: 1 };
    throw new ParsingError(`line ${p.line}: column ${p.column}: write exactly one fact to explain (found ${document.facts.length})`);
  }
  return document.facts[0]!;
}

/** Writes Datalog statements with prefixes, without the prefix declarations. */
function statements(input: Parameters<typeof writeDatalog>[0], prefixes: ReadonlyMap<string, string>): string {
  return writeDatalog(input, { prefixes })
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('@prefix '))
    .join('\n');
}

/**
 * Writes facts and rules, each on its own, in one pass of the writer (whose output starts
 * with the prefix declarations, written once instead of once per statement): the facts'
 * texts (without the final dot), then the rules'. A statement written over several lines
 * (an expression's source text may hold a line break) makes it write each on its own.
 */
function statementsEach(facts: readonly TupleAtom[], rules: readonly Rule[], prefixes: ReadonlyMap<string, string>): { facts: string[]; rules: string[] } {
  const n = facts.length + rules.length;
  const lines = n === 0 ? [] : writeDatalog({ facts, rules }, { prefixes }).split('\n');
  lines.pop();
  let header = 0;
  while (header < lines.length && lines[header]!.startsWith('@prefix ')) header++;
  if (header > 0 && lines[header] === '') header++;
  if (lines.length - header === n) {
    return { facts: lines.slice(header, header + facts.length).map((l) => l.replace(/ \.$/, '')), rules: lines.slice(header + facts.length) };
  }
  return {
    facts: facts.map((a) => statements({ rules: [], facts: [a] }, prefixes).replace(/ \.$/, '')),
    rules: rules.map((r) => statements({ rules: [r] }, prefixes)),
  };
}

/** What the explanations over one catalogue (an immutable value) share. */
interface CatalogueTexts {
  /** The prefixes, name with colon → IRI. */
  readonly prefixes: ReadonlyMap<string, string>;
  /** The tuple tables' names by id. */
  readonly tableNames: ReadonlyMap<number, string>;
  /** The text of each rule with the prefixes (written on first use). */
  readonly ruleTexts: WeakMap<CompiledRule, string>;
}

const catalogueTexts = new WeakMap<object, CatalogueTexts>();

function catalogueTextsOf(catalogue: StoreState['catalogue']): CatalogueTexts {
  let texts = catalogueTexts.get(catalogue);
  if (!texts) {
    texts = { prefixes: new Map(catalogue.prefixes), tableNames: new Map([...catalogue.tupleTables.values()].map((t) => [t.id, t.name])), ruleTexts: new WeakMap() };
    catalogueTexts.set(catalogue, texts);
  }
  return texts;
}

/** The slots of a compiled rule's own scope (not those local to NOT EXISTS or AGGREGATE), by variable name. */
const scopes = new WeakMap<CompiledRule, Map<string, number>>();

function scopeOf(rule: CompiledRule): Map<string, number> {
  let scope = scopes.get(rule);
  if (scope) return scope;
  const slots = new Set<number>();
  const args = (a: Int32Array): void => a.forEach((x) => x < 0 && slots.add(-x - 1));
  rule.heads.forEach((h) => args(h.args));
  for (const l of rule.body) {
    if (l.kind === 'atom') args(l.atom.args);
    else if (l.kind === 'bind') slots.add(l.slot);
    l.vars.forEach((v) => slots.add(v));
  }
  // the slots of triple term patterns are no variables of the rule: their values show in the grounded rule
  scope = new Map([...slots].map((s): [string, number] => [rule.slotNames[s]!, s]).filter(([name]) => !isPatternSlotName(name)));
  scopes.set(rule, scope);
  return scope;
}

/** Replaces the variables of `rule`'s own scope by their values. */
function groundRule(rule: Rule, values: ReadonlyMap<string, RDF.NamedNode | RDF.BlankNode | RDF.Literal | RDF.Quad>): Rule {
  const term = (t: AtomTerm, local: ReadonlySet<string>): AtomTerm => {
    if (t.kind === 'triple') {
      // a triple term pattern: its variables replaced, and a constant once it is ground
      const subject = term(t.subject, local);
      const predicate = term(t.predicate, local);
      const object = term(t.object, local);
      if (subject.kind === 'const' && predicate.kind === 'const' && object.kind === 'const') {
        return { kind: 'const', term: DataFactory.quad(subject.term as RDF.NamedNode | RDF.BlankNode, predicate.term as RDF.NamedNode, object.term) };
      }
      return { kind: 'triple', subject, predicate, object };
    }
    if (t.kind !== 'var' || local.has(t.name)) return t;
    const v = values.get(t.name);
    return v ? { kind: 'const', term: v } : t;
  };
  const atom = (a: TupleAtom, local: ReadonlySet<string> = new Set()): TupleAtom => ({ ...a, args: a.args.map((t) => term(t, local)) });
  const literal = (l: BodyLiteral): BodyLiteral => {
    switch (l.kind) {
      case 'atom':
        return atom(l);
      case 'not': {
        const local = new Set(l.existentialVariables);
        return { ...l, atoms: l.atoms.map((a) => atom(a, local)) };
      }
      default:
        return l;
    }
  };
  return { ...rule, head: rule.head.map((h) => atom(h)), body: rule.body.map(literal) };
}

/** Explains a fact read as text, over one state; `access` (when given) must allow reading every fact shown. */
export function explainFact(state: StoreState, dictionary: TermDictionary, text: string, options: ExplanationOptions = {}, access?: FactAccess): Explanation {
  const type = checkExplanationType(options.type ?? 'shortest');
  checkLimit('max-distance-from-root', options.maxDistanceFromRoot);
  checkLimit('max-rule-instances-per-fact', options.maxRuleInstancesPerFact);
  const catalogue = state.catalogue;
  const texts = catalogueTextsOf(catalogue);
  const prefixes = texts.prefixes;
  const atom = parseExplainedFact(text, prefixes, catalogue.baseIRI);
  const where = `line ${atom.position.line}: column ${atom.position.column}`;
  const info = catalogue.tupleTables.get(atom.table);
  if (!info) throw new BadRequestError(`${where}: tuple table '${atom.table}' does not exist`);
  if (info.type === BUILTIN_TABLE_TYPE) throw new BadRequestError(`${where}: tuple table '${atom.table}' is built in: its facts are computed, not derived, and have no explanation`);
  if (!storesFacts(info)) throw new BadRequestError(`${where}: tuple table '${atom.table}' is mounted on a data source: its facts are read from the source, not derived, and have no explanation`);
  if (atom.args.length < info.minArity || atom.args.length > info.maxArity) {
    throw new BadRequestError(`${where}: tuple table '${atom.table}' takes ${info.minArity === info.maxArity ? info.minArity : `${info.minArity} to ${info.maxArity}`} arguments, not ${atom.args.length}`);
  }
  access?.checkRead(info.id);
  const ids = atom.args.map((t) => (t.kind === 'const' ? dictionary.lookup(termToKey(t.term)) : -1));
  const prefixRecord = Object.fromEntries(prefixes);
  if (ids.some((id) => id < 0)) {
    // a term the store has never seen: the fact cannot hold
    const root: ExplanationFact = {
      id: '0',
      fact: statements({ rules: [], facts: [atom] }, prefixes).replace(/ \.$/, ''),
      atom,
      type: 'false',
      distanceFromRoot: 0,
      proofHeight: null,
      ruleInstancesComplete: true,
      shortestProofRuleInstance: null,
      ruleInstances: [],
    };
    return { prefixes: prefixRecord, complete: true, root, facts: new Map([['0', root]]) };
  }
  const search = new ProofSearch(state, dictionary, programOf(state, dictionary));
  const proof = search.explain(info.id, ids, {
    kind: type,
    ...(access ? { hidden: hiddenFacts(access) } : {}),
    ...(options.maxDistanceFromRoot !== undefined ? { maxDistanceFromRoot: options.maxDistanceFromRoot } : {}),
    ...(options.maxRuleInstancesPerFact !== undefined ? { maxRuleInstancesPerFact: options.maxRuleInstancesPerFact } : {}),
  });
  return new ExplanationWriter((id) => search.termKey(id), texts).explanation(proof, prefixRecord);
}

/**
 * The facts of a proof the role may not read (through the one filter of readable facts): those
 * of a table it may not read, and those of a named graph it may not read.
 */
function hiddenFacts(access: FactAccess): (fact: GroundFact) => boolean {
  const filters = new Map<number, ((get: (column: number) => number) => boolean) | 'all' | 'none'>();
  return (fact) => {
    let filter = filters.get(fact.tableId);
    if (filter === undefined) {
      try {
        filter = readableFacts(access, fact.tableId) ?? 'all';
      } catch (e) {
        if (!(e instanceof AccessDeniedError)) throw e;
        filter = 'none';
      }
      filters.set(fact.tableId, filter);
    }
    return filter === 'none' || (filter !== 'all' && !filter((c) => fact.tuple[c]!));
  };
}

/** Turns id-level proofs into typed explanations. */
class ExplanationWriter {
  private readonly terms = new Map<number, FactTerm>();
  private readonly prefixes: ReadonlyMap<string, string>;
  private readonly tableNames: ReadonlyMap<number, string>;
  /** The texts of the rules, kept across explanations over the same catalogue. */
  private readonly ruleTexts: WeakMap<CompiledRule, string>;

  constructor(
    private readonly keyOf: (id: number) => string,
    texts: CatalogueTexts,
  ) {
    this.prefixes = texts.prefixes;
    this.tableNames = texts.tableNames;
    this.ruleTexts = texts.ruleTexts;
  }

  private term(id: number): FactTerm {
    let t = this.terms.get(id);
    if (!t) this.terms.set(id, (t = keyToTerm(this.keyOf(id))));
    return t;
  }

  private atom(fact: GroundFact): TupleAtom {
    return {
      kind: 'atom',
      table: this.tableNames.get(fact.tableId) ?? `#${fact.tableId}`,
      args: fact.tuple.map((id) => ({ kind: 'const', term: this.term(id) })),
      position: { line: 1, column: 1 },
    };
  }

  private bindings(instance: RuleInstance): Map<string, FactTerm> {
    const bindings = new Map<string, FactTerm>();
    for (const [name, slot] of scopeOf(instance.rule)) {
      const id = instance.slots[slot]!;
      if (id >= 0) bindings.set(name, this.term(id));
    }
    return bindings;
  }

  private ruleText(rule: CompiledRule): string {
    let text = this.ruleTexts.get(rule);
    if (text === undefined) this.ruleTexts.set(rule, (text = statements({ rules: [rule.rule] }, this.prefixes)));
    return text;
  }

  explanation(proof: Proof, prefixes: Readonly<Record<string, string>>): Explanation {
    const ids = new Map(proof.facts.map((f, i) => [f.key, String(i)]));
    // every fact and grounded rule written in one pass
    const atoms = proof.facts.map((f) => this.atom(f.fact));
    const bindings = proof.facts.map((f) => f.ruleInstances.map((r) => this.bindings(r)));
    const grounded: Rule[] = [];
    proof.facts.forEach((f, i) => f.ruleInstances.forEach((r, j) => grounded.push(groundRule(r.rule.rule, bindings[i]![j]!))));
    const texts = statementsEach(atoms, grounded, this.prefixes);
    let g = 0;
    const facts = new Map<string, ExplanationFact>();
    proof.facts.forEach((f, i) => {
      const id = String(i);
      facts.set(id, {
        id,
        fact: texts.facts[i]!,
        atom: atoms[i]!,
        type: f.type,
        distanceFromRoot: f.distanceFromRoot,
        proofHeight: f.proofHeight,
        ruleInstancesComplete: f.ruleInstancesComplete,
        shortestProofRuleInstance: f.shortestProofRuleInstance,
        ruleInstances: f.ruleInstances.map((r, j) => ({
          rule: this.ruleText(r.rule),
          groundedRule: texts.rules[g++]!,
          headAtomIndex: r.headAtomIndex,
          bodyFacts: r.bodyFacts.map((b) => (b === null ? null : ids.get(b)!)),
          bindings: bindings[i]![j]!,
          source: r.rule.rule,
        })),
      });
    });
    return { prefixes, complete: proof.complete, root: facts.get('0')!, facts };
  }
}

/** One fact in RDFox's JSON shape. */
export interface ExplanationJsonFact {
  /** The fact in Datalog. */
  readonly fact: string;
  /** `explicit`, `derived` or `false`. */
  readonly type: 'explicit' | 'derived' | 'false';
  /** Least number of steps from the root. */
  readonly 'distance-from-root': number;
  /** Least proof height, or null. */
  readonly 'proof-height': number | null;
  /** Whether every rule instance asked for is listed. */
  readonly 'rule-instances-complete': boolean;
  /** Index of an instance of a shortest proof, or null. */
  readonly 'shortest-proof-rule-instance': number | null;
  /** The rule instances. */
  readonly 'rule-instances': ReadonlyArray<{
    readonly rule: string;
    readonly 'grounded-rule': string;
    readonly 'head-atom-index': number;
    readonly 'body-facts': ReadonlyArray<string | null>;
  }>;
}

/** An explanation in RDFox's `application/x.explanation+json` shape. */
export interface ExplanationJson {
  /** The store's prefixes. */
  readonly prefixes: Readonly<Record<string, string>>;
  /** Whether no limit left anything out. */
  readonly complete: boolean;
  /** The facts by id (`"0"` is the root). */
  readonly facts: Readonly<Record<string, ExplanationJsonFact>>;
}

/** The explanation as RDFox's JSON value (`application/x.explanation+json`). */
export function explanationToJson(explanation: Explanation): ExplanationJson {
  const facts: Record<string, ExplanationJsonFact> = {};
  for (const [id, f] of explanation.facts) {
    facts[id] = {
      fact: f.fact,
      type: f.type,
      'distance-from-root': f.distanceFromRoot,
      'proof-height': f.proofHeight,
      'rule-instances-complete': f.ruleInstancesComplete,
      'shortest-proof-rule-instance': f.shortestProofRuleInstance,
      'rule-instances': f.ruleInstances.map((r) => ({ rule: r.rule, 'grounded-rule': r.groundedRule, 'head-atom-index': r.headAtomIndex, 'body-facts': r.bodyFacts })),
    };
  }
  return { prefixes: explanation.prefixes, complete: explanation.complete, facts };
}

/**
 * The explanation as an indented proof tree: each fact with its type and proof height, under
 * it each rule instance (`<=` and the grounded rule) and, further in, that instance's body
 * facts. A fact shown before is not expanded again (`see above`).
 */
export function renderExplanation(explanation: Explanation): string {
  const lines: string[] = [];
  const shown = new Set<string>();
  const describe = (f: ExplanationFact): string => {
    if (f.type === 'false') return 'does not hold';
    if (f.type === 'explicit') return f.ruleInstances.length > 0 ? 'explicit, also derived' : 'explicit';
    return `derived, proof height ${f.proofHeight ?? '?'}`;
  };
  const visit = (id: string, depth: number): void => {
    const f = explanation.facts.get(id)!;
    const indent = '  '.repeat(depth);
    if (shown.has(id)) {
      lines.push(`${indent}${f.fact}    [${describe(f)}; see above]`);
      return;
    }
    shown.add(id);
    lines.push(`${indent}${f.fact}    [${describe(f)}]`);
    for (const r of f.ruleInstances) {
      lines.push(`${indent}  <= ${r.groundedRule}`);
      for (const b of r.bodyFacts) if (b !== null) visit(b, depth + 2);
    }
    if (!f.ruleInstancesComplete) lines.push(`${indent}  … more rule instances not shown (a limit was reached)`);
  };
  visit('0', 0);
  if (!explanation.complete) lines.push('(incomplete: limits left parts of the explanation out)');
  return `${lines.join('\n')}\n`;
}
