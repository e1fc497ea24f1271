/**
 * `affectedFocusNodes` against full validation: on random small changes to a small graph
 * (additions and deletions of 1–3 triples, derived facts of a rule included), the results of
 * the validation before the change whose focus node is not affected, plus a validation of the
 * affected focus nodes only, must be the results of a full validation after the change. And
 * the cases where it answers 'all'.
 */
import { expect } from 'chai';
import { affectedFocusNodes, type ShaclResult, validate } from '../../lib/shacl/index.js';
import type { TransactionChanges } from '../../lib/storage/change-log.js';
import { DEFAULT_TRIPLES_ID } from '../../lib/storage/fact-store.js';
import { DERIVED, EXPLICIT } from '../../lib/storage/tuple-table.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { PREFIXES, type ShaclStore, useShaclServer } from './shacl-store.js';

const SHAPES = `
ex:S1 sh:targetClass ex:A ; sh:property [ sh:path ex:p ; sh:minCount 1 ; sh:maxCount 2 ; sh:class ex:B ] .
ex:S2 sh:targetSubjectsOf ex:q ; sh:property [ sh:path ( ex:q ex:p ) ; sh:node ex:N ] .
ex:N sh:property [ sh:path [ sh:inversePath ex:r ] ; sh:maxCount 1 ] .
ex:S3 sh:targetObjectsOf ex:r ; sh:property [ sh:path [ sh:zeroOrMorePath ex:p ] ; sh:not [ sh:class ex:A ] ] .
ex:S4 sh:targetClass ex:B ; sh:closed true ; sh:ignoredProperties ( rdf:type ex:s ) ;
  sh:property [ sh:path ex:p ] ; sh:property [ sh:path ex:q ; sh:equals ex:r ] .
ex:S5 sh:targetNode ex:n0 ; sh:property [ sh:path ex:p ; sh:qualifiedValueShape [ sh:class ex:A ] ; sh:qualifiedMinCount 1 ] ;
  sh:property [ sh:path ex:r ; sh:lessThan ex:q ] .
ex:S6 sh:targetClass ex:C ; sh:or ( [ sh:path ex:s ; sh:minCount 1 ] [ sh:class ex:A ] ) .
`;

const NODES = ['ex:n0', 'ex:n1', 'ex:n2', 'ex:n3', 'ex:n4', 'ex:n5'];
const OBJECTS = [...NODES, '1', '2', '"a"'];
const PREDICATES = ['ex:p', 'ex:q', 'ex:r', 'ex:s'];
const CLASSES = ['ex:A', 'ex:B', 'ex:C'];

/** Every fact of the default graph (explicit or derived) as id triples. */
function defaultGraph(store: ShaclStore): Map<string, readonly [number, number, number]> {
  const state = store.facts.committed;
  const table = state.table(DEFAULT_TRIPLES_ID);
  const out = new Map<string, readonly [number, number, number]>();
  table.forEachVisibleRow(state.view(DEFAULT_TRIPLES_ID), EXPLICIT | DERIVED, (row) => {
    const t = [table.get(row, 0), table.get(row, 1), table.get(row, 2)] as const;
    out.set(t.join(' '), t);
  });
  return out;
}

/** The net change between two states of the default graph, as the commit feed gives it. */
function diff(before: Map<string, readonly number[]>, after: Map<string, readonly number[]>): TransactionChanges {
  const added = [...after].filter(([k]) => !before.has(k)).flatMap(([, t]) => t);
  const removed = [...before].filter(([k]) => !after.has(k)).flatMap(([, t]) => t);
  return new Map([[DEFAULT_TRIPLES_ID, { arity: 3, added: Uint32Array.from(added), removed: Uint32Array.from(removed) }]]);
}

describe('shacl/affectedFocusNodes', () => {
  const env = useShaclServer('affected');

  for (const shapesInDefault of [false, true]) {
  it(`gives incremental validation the results of full validation on random small changes (shapes in ${shapesInDefault ? 'the default graph, with the data' : 'a named graph'})`, async function () {
    this.timeout(120000);
    const random = seededRandom(shapesInDefault ? 38 : 37);
    const pick = <T>(xs: readonly T[]): T => xs[random(xs.length)]!;
    const initial = Array.from({ length: 14 }, () => (random(3) === 0 ? `${pick(NODES)} a ${pick(CLASSES)} .` : `${pick(NODES)} ${pick(PREDICATES)} ${pick(OBJECTS)} .`));
    const store = await env.store(initial.join('\n'), SHAPES, { shapesInDefault });
    // derived facts: whatever has an ex:s link to an A is a C
    await store.ds.importData('ADD', '@prefix ex: <http://example.org/> .\n[?x, a, ex:C] :- [?x, ex:s, ?y], [?y, a, ex:A] .', { mediaType: 'application/x.datalog' });
    let incremental = 0;
    let changed = 0;
    for (let round = 0; round < 150; round++) {
      const before = defaultGraph(store);
      const old = await validate(store.selection());
      const ops = 1 + random(3);
      // (the data's triples: with the shapes in the same graph, deleting theirs would break them)
      const existing = [...before.values()].filter(([s]) => store.facts.dictionary.keyOf(s).startsWith('<http://example.org/n'));
      await store.ds.beginTransaction('read-write');
      for (let i = 0; i < ops; i++) {
        if (random(2) === 0 && existing.length > 0) {
          const [s, p, o] = pick(existing);
          // (canonical keys are N-Triples terms for the plain terms of this test)
          const text = `${store.facts.dictionary.keyOf(s)} ${store.facts.dictionary.keyOf(p)} ${store.facts.dictionary.keyOf(o)} .`;
          await store.ds.importData('DELETE', text, { mediaType: 'application/n-triples' });
        } else {
          const triple = random(3) === 0 ? `${pick(NODES)} a ${pick(CLASSES)} .` : `${pick(NODES)} ${pick(PREDICATES)} ${pick(OBJECTS)} .`;
          await store.ds.importData('ADD', PREFIXES + triple);
        }
      }
      await store.ds.commitTransaction();
      const after = defaultGraph(store);
      const changes = diff(before, after);
      const affected = affectedFocusNodes(store.selection(), changes);
      const full = await validate(store.selection());
      if (affected === 'all') continue;
      if (changes.get(DEFAULT_TRIPLES_ID)!.added.length + changes.get(DEFAULT_TRIPLES_ID)!.removed.length > 0) changed++;
      incremental++;
      const kept = old.results.filter((r) => !affected.has(r.focusNode));
      const fresh = await validate(store.selection(), { focusNodes: affected });
      const lines = (rs: readonly ShaclResult[]): string[] => rs.map((r) => store.line(r)).sort();
      expect(lines([...kept, ...fresh.results]), `round ${round}`).to.deep.equal(lines(full.results));
    }
    expect(incremental).to.be.greaterThan(100);
    expect(changed).to.be.greaterThan(80);
  });
  }

  it("answers 'all' when the shapes graph or the subclass hierarchy changes, and nothing for no change", async () => {
    const store = await env.store('ex:n0 ex:p ex:n1 .', SHAPES);
    const sel = store.selection();
    const shapesGraph = sel.shapesGraph as number;
    const p = store.id('ex:p');
    const quad = (g: number): TransactionChanges => new Map([[2, { arity: 4, added: Uint32Array.from([p, p, p, g]), removed: new Uint32Array(0) }]]);
    expect(affectedFocusNodes(sel, quad(shapesGraph))).to.equal('all');
    const subClassOf = store.facts.dictionary.intern('<http://www.w3.org/2000/01/rdf-schema#subClassOf>');
    expect(affectedFocusNodes(sel, new Map([[DEFAULT_TRIPLES_ID, { arity: 3, added: Uint32Array.from([p, subClassOf, p]), removed: new Uint32Array(0) }]]))).to.equal('all');
    expect(affectedFocusNodes(sel, new Map())).to.deep.equal(new Set());
  });

  it('follows the paths backwards only as far as the shapes reach', async () => {
    const store = await env.store(
      'ex:a ex:p ex:b . ex:b ex:p ex:c . ex:c ex:p ex:d . ex:x ex:q ex:a .',
      'ex:S sh:targetSubjectsOf ex:p ; sh:property [ sh:path ex:p ; sh:class ex:K ] .',
    );
    const sel = store.selection();
    const changes: TransactionChanges = new Map([[DEFAULT_TRIPLES_ID, { arity: 3, added: Uint32Array.from([store.id('ex:d'), store.id('ex:p'), store.id('ex:a')]), removed: new Uint32Array(0) }]]);
    const affected = affectedFocusNodes(sel, changes);
    expect(affected).to.not.equal('all');
    // one step back from ex:d and ex:a along ex:p: ex:c; not ex:b (two steps) nor ex:x (ex:q is no path predicate)
    expect([...(affected as Set<number>)].map((n) => store.key(n)).sort()).to.deep.equal(['ex:a', 'ex:c', 'ex:d']);
  });
});
