/**
 * OWL axioms of a store: read from the triples of a source graph, kept per destination
 * graph in the catalogue, and compiled to rules in the `axioms` rule domain. A rule several
 * axioms produce stays until the last of them is deleted.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import type { Rule } from '../datalog/ast.js';
import type { ImportReport } from '../formats/notifications.js';
import { KIND_BLANK, keyToTerm, termToKey } from '../model/terms.js';
import { translateAxioms } from '../owl/index.js';
import type { AxiomEntry } from '../storage/catalogue.js';
import { DEFAULT_TRIPLES_ID, QUADS_ID, type WriteTransaction } from '../storage/fact-store.js';
import { EXPLICIT } from '../storage/tuple-table.js';
import type { DataStore } from './data-store.js';
import { ruleKey } from './reasoning.js';

const SCHEMA_NAMESPACES = ['<http://www.w3.org/1999/02/22-rdf-syntax-ns#', '<http://www.w3.org/2000/01/rdf-schema#', '<http://www.w3.org/2002/07/owl#'];
const RDF_TYPE_KEY = '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>';

/**
 * Reads the explicit triples of a graph (undefined = the default graph) as RDF/JS quads in the
 * default graph. Derived triples are not read: axioms are input to reasoning, and with equality
 * on, the copies of an RDF list that owl:sameAs derives (a list node with two `rdf:first`
 * values) would make the list malformed. Without `assertions`, only what can belong to an axiom is read: triples whose
 * predicate is in the RDF, RDFS or OWL vocabulary, except rdf:type triples whose class is a
 * named class outside it (class assertions of the data).
 */
function graphTriples(store: DataStore, tx: WriteTransaction, graph: string | undefined, assertions: boolean): RDF.Quad[] {
  const dictionary = store.facts.dictionary;
  const out: RDF.Quad[] = [];
  const term = (id: number): RDF.Quad_Object => keyToTerm(dictionary.keyOf(id));
  const schema = new Map<number, boolean>();
  const inSchema = (id: number): boolean => {
    let v = schema.get(id);
    if (v === undefined) {
      const key = dictionary.keyOf(id);
      schema.set(id, (v = SCHEMA_NAMESPACES.some((ns) => key.startsWith(ns))));
    }
    return v;
  };
  const rdfType = dictionary.lookup(RDF_TYPE_KEY);
  // class assertions with a class expression (a blank node) compile to rules, so they stay
  const wanted = (p: number, o: number): boolean => assertions || (inSchema(p) && (p !== rdfType || inSchema(o) || dictionary.kindOf(o) === KIND_BLANK));
  if (graph === undefined) {
    const t = tx.table(DEFAULT_TRIPLES_ID);
    const view = tx.view(DEFAULT_TRIPLES_ID);
    t.forEachVisibleRow(view, EXPLICIT, (row) => {
      if (!wanted(t.get(row, 1), t.get(row, 2))) return;
      out.push(DataFactory.quad(term(t.get(row, 0)) as RDF.Quad_Subject, term(t.get(row, 1)) as RDF.Quad_Predicate, term(t.get(row, 2))));
    });
    return out;
  }
  const g = dictionary.lookup(`<${graph}>`);
  if (g < 0) return out;
  const t = tx.table(QUADS_ID);
  const view = tx.view(QUADS_ID);
  const pattern = [-1, -1, -1, g];
  t.scan(pattern, view, (row) => {
    if ((t.statusIn(row, view) & EXPLICIT) === 0 || !wanted(t.get(row, 1), t.get(row, 2))) return;
    out.push(DataFactory.quad(term(t.get(row, 0)) as RDF.Quad_Subject, term(t.get(row, 1)) as RDF.Quad_Predicate, term(t.get(row, 2))));
  });
  return out;
}

/**
 * Adds (or deletes) the axioms found in `sourceGraph` to (from) the axioms of
 * `destinationGraph`, with their rules; with `assertions`, the ABox facts too. Counts go to
 * the report (#processed-axioms, #changed-axioms); parts outside OWL 2 RL become warnings.
 * @internal
 */
export function importAxioms(
  store: DataStore,
  tx: WriteTransaction,
  options: { sourceGraph?: string | undefined; destinationGraph?: string | undefined; assertions: boolean; deleting: boolean },
  report: ImportReport,
): void {
  const quads = graphTriples(store, tx, options.sourceGraph, options.assertions);
  const translation = translateAxioms(quads, { ...(options.destinationGraph !== undefined ? { destinationGraph: options.destinationGraph } : {}), assertions: options.assertions });
  for (const w of translation.warnings) report.warning(w);
  const destination = options.destinationGraph ?? '';
  report.processedAxioms += translation.axioms.length;
  let axioms = tx.catalogue.axioms;
  const referenced = (key: string, except: ReadonlySet<string>): boolean => {
    for (const [id, entry] of axioms) if (!except.has(id) && entry.ruleKeys.includes(key)) return true;
    return false;
  };
  if (!options.deleting) {
    const rules: Rule[] = [];
    for (const axiom of translation.axioms) {
      const id = `${destination}\u0000${axiom.key}`;
      if (axioms.has(id)) continue;
      const entry: AxiomEntry = { destination, key: axiom.key, ruleKeys: axiom.rules.map(ruleKey) };
      axioms = axioms.set(id, entry);
      rules.push(...axiom.rules);
      report.changedAxioms++;
    }
    store.reasoner.addRules(tx, rules, 'axioms');
  } else {
    const gone = new Set<string>();
    const candidates: Rule[] = [];
    for (const axiom of translation.axioms) {
      const id = `${destination}\u0000${axiom.key}`;
      if (!axioms.has(id)) continue;
      gone.add(id);
      candidates.push(...axiom.rules);
      report.changedAxioms++;
    }
    // a rule stays while another axiom still produces it, or when it is a user rule
    const removable = candidates.filter((r) => {
      const key = ruleKey(r);
      return !referenced(key, gone) && tx.catalogue.rules.get(key)?.domain === 'axioms';
    });
    for (const id of gone) axioms = axioms.delete(id);
    store.reasoner.removeRules(tx, removable);
  }
  tx.catalogue = tx.catalogue.set('axioms', axioms);
  if (!options.assertions) return;
  const dictionary = store.facts.dictionary;
  const g = options.destinationGraph !== undefined ? dictionary.intern(`<${options.destinationGraph}>`) : -1;
  for (const q of translation.assertions) {
    const s = dictionary.intern(termToKey(q.subject));
    const p = dictionary.intern(termToKey(q.predicate));
    const o = dictionary.intern(termToKey(q.object));
    report.processedFacts++;
    const tuple = g < 0 ? Uint32Array.of(s, p, o) : Uint32Array.of(s, p, o, g);
    const table = g < 0 ? DEFAULT_TRIPLES_ID : QUADS_ID;
    const changed = store.writeExplicit(tx, table, tuple, options.deleting ? 'remove' : 'add');
    if (changed) report.changedFacts++;
  }
}
