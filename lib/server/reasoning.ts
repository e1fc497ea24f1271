/**
 * Reasoning for one data store: the rules in the catalogue, the change log of the open write
 * transaction (whose recorded work the next run reads), the compiled program (cached per rule
 * set) and the run itself. Facts are written through the change log, not here.
 * @module
 */
import type { OrderedMap } from 'immutable';
import type { Interrupter } from '../model/control.js';
import type { Rule } from '../datalog/ast.js';
import { Maintenance, type MarkArrays, type MaintenanceStats } from '../datalog/maintenance.js';
import { compileProgram, type CompiledProgram } from '../datalog/program.js';
import { writeDatalog } from '../formats/datalog-writer.js';
import type { StoredRule } from '../storage/catalogue.js';
import { ChangeLog, type ChangeLogSavepoint } from '../storage/change-log.js';
import type { FactStore, StoreSavepoint, WriteTransaction } from '../storage/fact-store.js';
import { RuleCompilationError } from '../model/errors.js';
import { parseDatalog } from '../formats/datalog-parser.js';
import { differentValuesCondition } from '../owl/index.js';
import { checkRuleReads } from './rule-access.js';

/** A savepoint of facts and of the change log. */
export interface ReasoningSavepoint {
  /** The fact store's savepoint. */
  readonly facts: StoreSavepoint;
  /** A copy of the change log's recorded work. */
  readonly log: ChangeLogSavepoint<Rule>;
}

/** The canonical text of a rule: its key in the catalogue. */
export function ruleKey(rule: Rule): string {
  return writeDatalog({ rules: [rule] }).trim();
}

type Rules = OrderedMap<string, StoredRule>;

/** Rules, the open transaction's change log and materialisation of one store. */
export class StoreReasoner {
  /** The change log of the open write transaction (made on first use). */
  private log: ChangeLog<Rule> | null = null;
  private committed: { rules: Rules; program: CompiledProgram } | null = null;
  private draft: { rules: Rules; program: CompiledProgram } | null = null;
  /** The mark arrays of maintenance runs, reused by every run of this store. */
  private readonly marks: MarkArrays = [];
  /** What the latest maintenance run did, and how long it took (for component info). */
  lastRun: (MaintenanceStats & { readonly seconds: number }) | undefined;

  /** Creates the reasoner of a store. */
  constructor(
    private readonly facts: FactStore,
    private readonly options: () => { useDRed: boolean; byLevels: boolean; equality: string },
  ) {}

  /** The change log of the write transaction `tx` (made on first use: one per transaction). */
  changeLog(tx: WriteTransaction): ChangeLog<Rule> {
    if (this.log?.tx !== tx) this.log = new ChangeLog<Rule>(tx);
    return this.log;
  }

  /** Whether a reasoning run is due in the open write transaction. */
  get requiresReasoning(): boolean {
    const tx = this.facts.activeWriter;
    return tx !== null && this.log?.tx === tx && this.log.requiresReasoning;
  }

  /**
   * Adds rules to a domain; returns how many were new. The resulting program is compiled at
   * once, so an unsafe or unstratifiable program is rejected (RuleCompilationError) and the
   * catalogue is left as it was.
   */
  addRules(tx: WriteTransaction, rules: readonly Rule[], domain: string): number {
    if (domain === 'user') {
      tx.access?.checkRules();
      checkRuleReads(rules, tx.access, tx.catalogue);
    }
    if (this.options().equality !== 'off') {
      const bad = rules.find((r) => r.body.some((l) => l.kind === 'not' || l.kind === 'aggregate'));
      if (bad) {
        throw new RuleCompilationError(
          `line ${bad.position.line}: column ${bad.position.column}: rules with NOT or AGGREGATE cannot be used when the store reasons with equality (equality=${this.options().equality})`,
        );
      }
    }
    let draft = tx.catalogue.rules;
    const fresh: string[] = [];
    for (const rule of rules) {
      const key = ruleKey(rule);
      if (draft.has(key)) continue;
      draft = draft.set(key, { key, rule, domain });
      fresh.push(key);
    }
    if (fresh.length === 0) return 0;
    const added = new Set(fresh);
    this.compile(tx, draft, (key) => added.has(key));
    tx.catalogue = tx.catalogue.set('rules', draft);
    const log = this.changeLog(tx);
    for (const key of fresh) log.ruleAdded(key);
    return fresh.length;
  }

  /**
   * Removes rules (matched by their canonical text); returns how many existed. Internal rules
   * stay, unless `domain` is given: then only the rules of that domain go (`internal` for a
   * built-in rule set).
   */
  removeRules(tx: WriteTransaction, rules: readonly Rule[], domain?: string): number {
    let draft = tx.catalogue.rules;
    const gone: StoredRule[] = [];
    for (const rule of rules) {
      const key = ruleKey(rule);
      const stored = draft.get(key);
      if (!stored || (domain === undefined ? stored.domain === 'internal' : stored.domain !== domain)) continue;
      draft = draft.delete(key);
      gone.push(stored);
    }
    if (gone.length === 0) return 0;
    if (gone.some((r) => r.domain === 'user')) tx.access?.checkRules();
    this.compile(tx, draft);
    tx.catalogue = tx.catalogue.set('rules', draft);
    const log = this.changeLog(tx);
    for (const stored of gone) log.ruleRemoved(stored.key, stored.rule as Rule);
    return gone.length;
  }

  /** Removes every rule of the given domains (all when undefined); returns how many. */
  removeDomain(tx: WriteTransaction, domains?: ReadonlySet<string>): number {
    const rules = [...tx.catalogue.rules.values()].filter((r) => !domains || domains.has(r.domain)).map((r) => r.rule as Rule);
    return this.removeRules(tx, rules);
  }

  /**
   * Compiles the rules afresh (dropping the compiled programs kept between runs). Join plans
   * are made at each reasoning run from the counts of that moment, so they follow too.
   */
  recompile(tx: WriteTransaction): void {
    this.committed = null;
    this.draft = null;
    this.compile(tx, tx.catalogue.rules);
  }

  /**
   * @internal Records the rule changes from `before` to the transaction's rules in its change
   * log (the catalogue was replaced wholesale, as log replay does).
   */
  noteRuleChanges(tx: WriteTransaction, before: OrderedMap<string, StoredRule>): void {
    const after = tx.catalogue.rules;
    if (after === before) return;
    const log = this.changeLog(tx);
    for (const key of after.keys()) if (!before.has(key)) log.ruleAdded(key);
    for (const [key, stored] of before) if (!after.has(key)) log.ruleRemoved(key, stored.rule as Rule);
  }

  /** Requests a from-scratch materialisation at the next run of `tx` (default: the open write transaction). */
  requestRecompute(tx: WriteTransaction | null = this.facts.activeWriter): void {
    if (tx) this.changeLog(tx).requestRecompute();
  }

  /** Runs maintenance for the work recorded in the transaction's change log, if any. */
  async reason(tx: WriteTransaction, interrupter: Interrupter): Promise<MaintenanceStats | undefined> {
    const log = this.log;
    if (log?.tx !== tx || log.empty) return undefined;
    const program = this.compile(tx, tx.catalogue.rules);
    const removed = log.rulesRemoved.size > 0
      ? compileProgram([...log.rulesRemoved].map(([key, rule]) => ({ key, rule })), tx.catalogue, this.facts.dictionary).rules
      : [];
    const run = new Maintenance(tx, this.facts.dictionary, program, this.options(), interrupter, this.marks);
    const start = performance.now();
    const stats = await run.run(log, removed);
    this.lastRun = { ...stats, seconds: (performance.now() - start) / 1000 };
    log.settle();
    return stats;
  }

  /** A savepoint covering facts and the change log's recorded work. */
  savepoint(tx: WriteTransaction): ReasoningSavepoint {
    return { facts: this.facts.savepoint(tx), log: this.changeLog(tx).savepoint() };
  }

  /** Returns to a savepoint. */
  rollbackTo(tx: WriteTransaction, sp: ReasoningSavepoint): void {
    this.facts.rollbackTo(tx, sp.facts);
    this.changeLog(tx).rollbackTo(sp.log);
    if (this.draft && this.draft.rules !== tx.catalogue.rules) this.draft = null;
  }

  /** Called after commit: the transaction's program becomes the committed one. */
  committedTransaction(tx: WriteTransaction): void {
    if (this.draft && this.draft.rules === tx.catalogue.rules) this.committed = this.draft;
    this.draft = null;
    this.log = null;
  }

  /** Called after rollback: the transaction's program (and its term ids) are forgotten. */
  rolledBackTransaction(): void {
    this.draft = null;
    this.log = null;
  }

  /** The program of `rules` (cached); `isNew` tells errors which rules are the ones being added. */
  private compile(tx: WriteTransaction, rules: Rules, isNew?: (key: string) => boolean): CompiledProgram {
    if (this.draft?.rules === rules) return this.draft.program;
    if (this.committed?.rules === rules) return this.committed.program;
    const program = compileProgram([...rules.values()].map((r) => ({ key: r.key, rule: r.rule as Rule })), tx.catalogue, this.facts.dictionary, isNew ? { isNew } : {});
    this.draft = { rules, program };
    return program;
  }
}

/**
 * The internal rules that make owl:sameAs an equality: reflexive on every IRI and blank node
 * used in a fact, symmetric, transitive, and replacing equals in every position of triples and
 * quads. Clashes make the terms involved members of owl:Nothing, as RDFox reports them: in
 * every mode, two terms that are the same and `owl:differentFrom`, and two literals that are
 * the same but denote different data values (by OWL 2's value identity: `"01"^^xsd:integer` and
 * `"1"^^xsd:integer` are one value, `"0.0"^^xsd:float` and `"-0.0"^^xsd:float` two); with
 * `UNA`, also two distinct IRIs that are the same.
 */
export function equalityRules(mode: string): Rule[] {
  if (mode === 'off') return [];
  const text = `
    [?s, owl:sameAs, ?s] :- [?s, ?p, ?o] .
    [?p, owl:sameAs, ?p] :- [?s, ?p, ?o] .
    [?o, owl:sameAs, ?o] :- [?s, ?p, ?o], FILTER(!isLiteral(?o)) .
    [?s, owl:sameAs, ?s] :- [?s, ?p, ?o] ?g .
    [?p, owl:sameAs, ?p] :- [?s, ?p, ?o] ?g .
    [?o, owl:sameAs, ?o] :- [?s, ?p, ?o] ?g, FILTER(!isLiteral(?o)) .
    [?g, owl:sameAs, ?g] :- [?s, ?p, ?o] ?g .
    [?y, owl:sameAs, ?x] :- [?x, owl:sameAs, ?y] .
    [?x, owl:sameAs, ?z] :- [?x, owl:sameAs, ?y], [?y, owl:sameAs, ?z] .
    [?s2, ?p, ?o] :- [?s, ?p, ?o], [?s, owl:sameAs, ?s2] .
    [?s, ?p2, ?o] :- [?s, ?p, ?o], [?p, owl:sameAs, ?p2] .
    [?s, ?p, ?o2] :- [?s, ?p, ?o], [?o, owl:sameAs, ?o2] .
    [?s2, ?p, ?o] ?g :- [?s, ?p, ?o] ?g, [?s, owl:sameAs, ?s2] .
    [?s, ?p2, ?o] ?g :- [?s, ?p, ?o] ?g, [?p, owl:sameAs, ?p2] .
    [?s, ?p, ?o2] ?g :- [?s, ?p, ?o] ?g, [?o, owl:sameAs, ?o2] .
    [?s, ?p, ?o] ?g2 :- [?s, ?p, ?o] ?g, [?g, owl:sameAs, ?g2] .
    owl:Nothing[?x], owl:Nothing[?y] :- [?x, owl:sameAs, ?y], [?x, owl:differentFrom, ?y] .
    owl:Nothing[?x], owl:Nothing[?y] :- [?x, owl:sameAs, ?y], FILTER(${differentValuesCondition('x', 'y')}) .
    ${mode === 'UNA' ? 'owl:Nothing[?x], owl:Nothing[?y] :- [?x, owl:sameAs, ?y], FILTER(isIRI(?x) && isIRI(?y) && ?x != ?y) .' : ''}`;
  const { document, errors } = parseDatalog(text, { prefixes: new Map([['owl:', 'http://www.w3.org/2002/07/owl#']]) });
  if (errors.length > 0) throw new Error(`internal equality rules: ${errors.map((e) => e.message).join('; ')}`);
  return [...document.rules];
}
