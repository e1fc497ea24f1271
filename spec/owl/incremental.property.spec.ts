/**
 * The OWL reasoning bar: after any sequence of updates to data and to OWL axioms (each axiom
 * read from the triples of its own named graph with importAxiomsFromTriples, added and
 * removed on its own), the incrementally maintained default graph equals the default graph of
 * a store built from scratch from the current data and axioms (facts and their
 * explicit/derived status), under FBF, DRed and equality noUNA.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { DataStoreConnection } from '../../lib/index.js';
import { factsWithStatus } from '../helpers/facts.js';
import { useServer } from '../helpers/server.js';

const EX = 'http://example.com/';
const PREFIXES = [
  `@prefix : <${EX}> .`,
  '@prefix owl: <http://www.w3.org/2002/07/owl#> .',
  '@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .',
  '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
  '',
].join('\n');
const CLASSES = [':A', ':B', ':C', ':D'];
const PROPERTIES = [':p', ':q', ':r'];
const INDIVIDUALS = [':a', ':b', ':c', ':d'];

const cls = fc.constantFrom(...CLASSES);
const prop = fc.constantFrom(...PROPERTIES);
const ind = fc.constantFrom(...INDIVIDUALS);

/** An axiom as Turtle, with `_:R` standing for its blank nodes' label stem (made distinct per axiom). */
const axiomArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(cls, cls).map(([a, b]) => `${a} rdfs:subClassOf ${b} .`) },
  {
    weight: 2,
    // the list written with labelled blank nodes, so that deleting the triples matches them
    arbitrary: fc
      .tuple(cls, cls, cls)
      .map(([a, b, c]) => `_:R rdfs:subClassOf ${c} .\n_:R owl:intersectionOf _:RL1 .\n_:RL1 rdf:first ${a} ; rdf:rest _:RL2 .\n_:RL2 rdf:first ${b} ; rdf:rest rdf:nil .`),
  },
  {
    weight: 3,
    arbitrary: fc.tuple(prop, cls, cls).map(([p, b, c]) => `_:R a owl:Restriction ; owl:onProperty ${p} ; owl:someValuesFrom ${b} .\n_:R rdfs:subClassOf ${c} .`),
  },
  { weight: 2, arbitrary: fc.tuple(prop, prop).map(([p, q]) => `${p} rdfs:subPropertyOf ${q} .`) },
  { weight: 1, arbitrary: fc.tuple(prop, prop).map(([p, q]) => `${p} owl:inverseOf ${q} .`) },
  { weight: 1, arbitrary: prop.map((p) => `${p} a owl:TransitiveProperty .`) },
  { weight: 1, arbitrary: prop.map((p) => `${p} a owl:SymmetricProperty .`) },
  { weight: 1, arbitrary: prop.map((p) => `${p} a owl:FunctionalProperty .`) },
  { weight: 1, arbitrary: fc.tuple(prop, cls).map(([p, c]) => `${p} rdfs:domain ${c} .`) },
  { weight: 1, arbitrary: fc.tuple(prop, cls).map(([p, c]) => `${p} rdfs:range ${c} .`) },
  { weight: 1, arbitrary: fc.tuple(cls, cls).map(([a, b]) => `${a} owl:disjointWith ${b} .`) },
);

const dataArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.tuple(ind, cls).map(([i, c]) => `${i} a ${c} .`) },
  { weight: 3, arbitrary: fc.tuple(ind, prop, ind).map(([s, p, o]) => `${s} ${p} ${o} .`) },
);
const sameAsArb = fc.tuple(ind, ind).map(([a, b]) => `${a} owl:sameAs ${b} .`);
const equalityDataArb = fc.oneof({ weight: 5, arbitrary: dataArb }, { weight: 1, arbitrary: sameAsArb });

/** Deletions name current triples or axioms by index (modulo their number at that point). */
type Step =
  | { kind: 'add-data'; triples: string[] }
  | { kind: 'delete-data'; picks: number[] }
  | { kind: 'add-axiom'; axiom: string }
  | { kind: 'delete-axiom'; pick: number };

function stepArbOf(data: fc.Arbitrary<string>): fc.Arbitrary<Step> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.array(data, { minLength: 1, maxLength: 5 }).map((triples): Step => ({ kind: 'add-data', triples })) },
    { weight: 3, arbitrary: fc.array(fc.nat(999), { minLength: 1, maxLength: 4 }).map((picks): Step => ({ kind: 'delete-data', picks })) },
    { weight: 2, arbitrary: axiomArb.map((axiom): Step => ({ kind: 'add-axiom', axiom })) },
    { weight: 2, arbitrary: fc.nat(999).map((pick): Step => ({ kind: 'delete-axiom', pick })) },
  );
}

type Env = ReturnType<typeof useServer>;

/** Every fact of the default graph with its status, as sorted lines (read through the store internals). */
function dump(env: Env, name: string): string[] {
  return factsWithStatus(env.server, name, 'DefaultTriples').map((l) => l.split(EX).join(':'));
}

/** The sorted axiom keys of a store. */
async function axiomKeys(ds: DataStoreConnection): Promise<string[]> {
  return (await ds.listAxioms()).map((a) => `${a.graph} ${a.axiom}`.split(EX).join(':')).sort();
}

/** An axiom held in its own named graph. */
interface HeldAxiom {
  readonly graph: string;
  readonly turtle: string;
}

let graphCounter = 0;

/** Puts an axiom into a fresh named graph `:axN` (blank nodes labelled `_:rN…`). */
function hold(axiom: string): HeldAxiom {
  const n = ++graphCounter;
  return { graph: `${EX}ax${n}`, turtle: axiom.replace(/_:R/g, `_:r${n}`) };
}

async function ok(result: Promise<{ errors: number; warnings: number; text: string }>, what: string): Promise<void> {
  const r = await result;
  expect(r.errors, `${what}\n${r.text}`).to.equal(0);
  expect(r.warnings, `${what}\n${r.text}`).to.equal(0);
}

async function addAxiom(ds: DataStoreConnection, a: HeldAxiom): Promise<number> {
  await ok(ds.importData('ADD', PREFIXES + a.turtle, { defaultGraph: a.graph }), a.turtle);
  const r = await ds.importAxiomsFromTriples(a.graph);
  expect(r.errors, `${a.turtle}\n${r.text}`).to.equal(0);
  return r.changedAxioms;
}

async function deleteAxiom(ds: DataStoreConnection, a: HeldAxiom): Promise<number> {
  const r = await ds.importAxiomsFromTriples(a.graph, false, undefined, 'DELETE');
  expect(r.errors, `${a.turtle}\n${r.text}`).to.equal(0);
  await ok(ds.importData('DELETE', PREFIXES + a.turtle, { defaultGraph: a.graph }), a.turtle);
  const left = await ds.evaluateQuery(`ASK { GRAPH <${a.graph}> { ?s ?p ?o } }`);
  expect(left.type === 'boolean' && left.value, `triples left in <${a.graph}>`).to.equal(false);
  return r.changedAxioms;
}

async function check(env: Env, parameters: Record<string, string>, steps: Step[]): Promise<void> {
  const name = env.uniqueName('owl');
  const ds = await env.newStore(name, undefined, parameters);
  const data = new Set<string>();
  const axioms: HeldAxiom[] = [];
  const done: string[] = [];
  try {
    for (const step of steps) {
      if (step.kind === 'add-data') {
        await ok(ds.importData('ADD', PREFIXES + step.triples.join('\n')), 'add data');
        step.triples.forEach((t) => data.add(t));
        done.push(`add data: ${step.triples.join(' ')}`);
      } else if (step.kind === 'delete-data') {
        const all = [...data];
        if (all.length === 0) continue;
        const gone = [...new Set(step.picks.map((i) => all[i % all.length]!))];
        await ok(ds.importData('DELETE', PREFIXES + gone.join('\n')), 'delete data');
        gone.forEach((t) => data.delete(t));
        done.push(`delete data: ${gone.join(' ')}`);
      } else if (step.kind === 'add-axiom') {
        const a = hold(step.axiom);
        const changed = await addAxiom(ds, a);
        if (changed === 0) {
          // the same axiom is held already (axioms are a set): withdraw the extra copy's triples
          await ok(ds.importData('DELETE', PREFIXES + a.turtle, { defaultGraph: a.graph }), a.turtle);
          continue;
        }
        expect(changed, a.turtle).to.equal(1);
        axioms.push(a);
        done.push(`add axiom <${a.graph}>: ${a.turtle.replace(/\n/g, ' ')}`);
      } else {
        if (axioms.length === 0) continue;
        const a = axioms.splice(step.pick % axioms.length, 1)[0]!;
        expect(await deleteAxiom(ds, a), a.turtle).to.equal(1);
        done.push(`delete axiom <${a.graph}>: ${a.turtle.replace(/\n/g, ' ')}`);
      }
      const oracleName = env.uniqueName('oracle');
      const oracle = await env.newStore(oracleName, undefined, parameters);
      try {
        if (data.size > 0) await ok(oracle.importData('ADD', PREFIXES + [...data].join('\n')), 'oracle data');
        for (const a of axioms) await ok(oracle.importData('ADD', PREFIXES + a.turtle, { defaultGraph: a.graph }), a.turtle);
        for (const a of axioms) {
          const r = await oracle.importAxiomsFromTriples(a.graph);
          expect(r.errors, r.text).to.equal(0);
        }
        const context = `history:\n${done.join('\n')}`;
        expect(await axiomKeys(ds), context).to.deep.equal(await axiomKeys(oracle));
        expect(dump(env, name), context).to.deep.equal(dump(env, oracleName));
      } finally {
        oracle.close();
        env.connection.deleteDataStore(oracleName);
      }
    }
  } finally {
    ds.close();
    env.connection.deleteDataStore(name);
  }
}

describe('owl/incremental: axioms and data updated incrementally equal from scratch', function () {
  this.timeout(120_000);
  const env = useServer('owl-incremental-property');
  const modes: Array<[string, Record<string, string>, fc.Arbitrary<string>]> = [
    ['FBF', {}, dataArb],
    ['DRed', { 'use-DRed': 'true' }, dataArb],
    ['equality noUNA', { equality: 'noUNA' }, equalityDataArb],
  ];
  for (const [label, parameters, data] of modes) {
    it(`random ontologies, data and updates (${label})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(data, { minLength: 4, maxLength: 12 }), fc.array(axiomArb, { minLength: 1, maxLength: 5 }), fc.array(stepArbOf(data), { minLength: 2, maxLength: 8 }), (triples, ontology, steps) =>
          check(env, parameters, [{ kind: 'add-data', triples }, ...ontology.map((axiom): Step => ({ kind: 'add-axiom', axiom })), ...steps]),
        ),
        { numRuns: 60 },
      );
    });
  }
});
