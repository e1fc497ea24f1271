/**
 * Test helper: an independent checker of explanations. It reads the store's facts through
 * the store internals (as `facts.ts` does) and checks every rule instance against the rule's
 * text: the rule is loaded, its head atom with the instance's bindings is the explained fact,
 * each body atom with the bindings is its body fact and holds, each negated atom does not
 * hold, and non-atoms have no body fact. It also checks the types, the distances, the proof
 * heights (recomputed from the instances listed), and that derived facts reach explicit facts.
 */
import { expect } from 'chai';
import type * as RDF from '@rdfjs/types';
import type { Explanation, ExplanationFact, Server } from '../../lib/index.js';
import type { AtomTerm, TupleAtom } from '../../lib/datalog/ast.js';
import { ruleKey } from '../../lib/server/reasoning.js';
import { termToKey } from '../../lib/model/terms.js';
import { EXPLICIT } from '../../lib/storage/tuple-table.js';

/** The facts of a store: `Table(key …)` → explicit?. */
export function storeFacts(server: Server, storeName: string): Map<string, boolean> {
  const store = server.dataStore(storeName);
  const state = store.facts.committed;
  const out = new Map<string, boolean>();
  for (const info of state.catalogue.tupleTables.values()) {
    if (info.type === 'builtin') continue;
    const t = state.table(info.id);
    const view = state.view(info.id);
    for (let row = 0; row < view.limit; row++) {
      if (!t.visible(row, view)) continue;
      const terms: string[] = [];
      for (let c = 0; c < t.arity; c++) terms.push(store.facts.dictionary.keyOf(t.get(row, c)));
      out.set(`${info.name}(${terms.join(' ')})`, (t.statusIn(row, view) & EXPLICIT) !== 0);
    }
  }
  return out;
}

type Bindings = ReadonlyMap<string, RDF.Term>;

/** The key of an argument with the bindings applied (a triple term pattern's from its parts); undefined when a variable is unbound. */
function groundKey(t: AtomTerm, bindings: Bindings, local: ReadonlySet<string>): string | undefined {
  if (t.kind === 'const') return termToKey(t.term);
  if (t.kind === 'triple') {
    const parts = [t.subject, t.predicate, t.object].map((x) => groundKey(x, bindings, local));
    return parts.some((x) => x === undefined) ? undefined : `(${parts.join(' ')})`;
  }
  if (local.has(t.name)) return undefined;
  const v = bindings.get(t.name);
  return v ? termToKey(v) : undefined;
}

/** An atom's line with the bindings applied; undefined when a variable is unbound. */
function ground(atom: TupleAtom, bindings: Bindings, local: ReadonlySet<string> = new Set()): string | undefined {
  const keys: string[] = [];
  for (const t of atom.args) {
    const key = groundKey(t, bindings, local);
    if (key === undefined) return undefined;
    keys.push(key);
  }
  return `${atom.table}(${keys.join(' ')})`;
}

/** Whether some fact matches an atom whose variables not bound (or local) match anything. */
function anyMatch(atom: TupleAtom, bindings: Bindings, local: ReadonlySet<string>, facts: ReadonlyMap<string, boolean>): boolean {
  const parts = atom.args.map((t) => (t.kind === 'const' ? termToKey(t.term) : t.kind === 'triple' ? undefined : local.has(t.name) || !bindings.has(t.name) ? undefined : termToKey(bindings.get(t.name)!)));
  for (const line of facts.keys()) {
    if (!line.startsWith(`${atom.table}(`)) continue;
    const keys = line.slice(atom.table.length + 1, -1).split(' ');
    if (keys.length !== parts.length || !parts.every((p, i) => p === undefined || p === keys[i])) continue;
    // a variable repeated in the atom takes one value
    const values = new Map<string, string>();
    let consistent = true;
    atom.args.forEach((t, i) => {
      if (t.kind !== 'var' || parts[i] !== undefined) return;
      const seen = values.get(t.name);
      if (seen === undefined) values.set(t.name, keys[i]!);
      else if (seen !== keys[i]) consistent = false;
    });
    if (consistent) return true;
  }
  return false;
}

/** The line of an explained fact. */
export function factLine(f: ExplanationFact): string {
  return ground(f.atom, new Map())!;
}

/** What {@link checkExplanation} found, for further assertions. */
export interface CheckedExplanation {
  /** Least heights recomputed from the listed instances (facts without a proof among them: absent). */
  readonly heights: ReadonlyMap<string, number>;
}

/** Checks an explanation of a store's latest version (see the module documentation). */
export function checkExplanation(server: Server, storeName: string, e: Explanation, facts: ReadonlyMap<string, boolean> = storeFacts(server, storeName)): CheckedExplanation {
  const rules = server.dataStore(storeName).facts.committed.catalogue.rules;
  expect(e.root.id).to.equal('0');
  expect(e.root.distanceFromRoot).to.equal(0);
  for (const [id, f] of e.facts) {
    expect(f.id).to.equal(id);
    const line = factLine(f);
    if (f.type === 'false') {
      expect(id, 'only the root can be false').to.equal('0');
      expect(facts.has(line), `${line} does not hold`).to.equal(false);
      expect(f.ruleInstances).to.have.length(0);
      continue;
    }
    expect(facts.has(line), `${line} holds`).to.equal(true);
    expect(f.type, line).to.equal(facts.get(line) ? 'explicit' : 'derived');
    for (const r of f.ruleInstances) {
      expect(rules.has(ruleKey(r.source)), `rule ${r.rule} is loaded`).to.equal(true);
      expect(ground(r.source.head[r.headAtomIndex]!, r.bindings), `head of ${r.groundedRule}`).to.equal(line);
      expect(r.bodyFacts).to.have.length(r.source.body.length);
      r.source.body.forEach((l, i) => {
        const b = r.bodyFacts[i];
        if (l.kind === 'atom' && l.table !== 'SKOLEM') {
          expect(b, `body atom ${i} of ${r.groundedRule}`).to.be.a('string');
          const bf = e.facts.get(b!)!;
          expect(bf, `body fact ${b}`).to.not.equal(undefined);
          expect(factLine(bf)).to.equal(ground(l, r.bindings));
          expect(facts.has(factLine(bf)), `${factLine(bf)} holds`).to.equal(true);
          expect(bf.distanceFromRoot).to.be.at.most(f.distanceFromRoot + 1);
        } else {
          expect(b, `non-atom body formula ${i} of ${r.groundedRule}`).to.equal(null);
          if (l.kind === 'not') {
            const local = new Set(l.existentialVariables);
            expect(l.atoms.some((a) => anyMatch(a, r.bindings, local, facts)), `NOT of ${r.groundedRule} holds`).to.equal(false);
          }
        }
      });
    }
    if (f.type === 'derived' && f.shortestProofRuleInstance !== null) expect(f.ruleInstances[f.shortestProofRuleInstance]).to.not.equal(undefined);
  }
  // least heights over the listed instances (explicit facts 0), by fixpoint
  const heights = new Map<string, number>();
  for (const [id, f] of e.facts) if (f.type === 'explicit') heights.set(id, 0);
  for (let changed = true; changed; ) {
    changed = false;
    for (const [id, f] of e.facts) {
      if (f.type !== 'derived') continue;
      for (const r of f.ruleInstances) {
        let h = 0;
        let ok = true;
        for (const b of r.bodyFacts) {
          if (b === null) continue;
          const hb = heights.get(b);
          if (hb === undefined) ok = false;
          else h = Math.max(h, hb);
        }
        if (ok && (heights.get(id) ?? Infinity) > h + 1) {
          heights.set(id, h + 1);
          changed = true;
        }
      }
    }
  }
  if (e.complete) {
    for (const [id, f] of e.facts) {
      if (f.type !== 'derived') continue;
      expect(heights.has(id), `derived fact ${f.fact} reaches explicit facts`).to.equal(true);
      expect(f.ruleInstancesComplete).to.equal(true);
    }
  }
  return { heights };
}
