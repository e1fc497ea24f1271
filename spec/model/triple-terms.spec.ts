import type * as RDF from '@rdfjs/types/data-model.js';
import { expect } from 'chai';
import { DataFactory } from 'n3';
import { TermDictionary } from '../../lib/model/dictionary.js';
import { TripleTermIndex } from '../../lib/model/triple-terms.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { keyToTerm, termText, termToKey } from '../../lib/model/terms.js';

const namedNode = (iri: string) => DataFactory.namedNode(iri);
const literal = (value: string, language?: string) => DataFactory.literal(value, language);
const blankNode = (label: string) => DataFactory.blankNode(label);
const quad = (s: RDF.Quad_Subject, p: RDF.Quad_Predicate, o: RDF.Quad_Object, g?: RDF.Quad_Graph): RDF.Quad => DataFactory.quad(s, p, o, g);
const ex = (name: string) => namedNode(`http://ex.org/${name}`);

describe('triple terms (RDF 1.2) in the dictionary', () => {
  it('gives a triple term a canonical key that holds its parts, nested to any depth, and reads it back', () => {
    const inner = quad(ex('s'), ex('p'), literal('a b )'));
    const outer = quad(blankNode('b1'), ex('says'), inner);
    const key = termToKey(outer);
    expect(key).to.equal('(_:b1 <http://ex.org/says> (<http://ex.org/s> <http://ex.org/p> "a b )"))');
    expect(keyToTerm(key).equals(outer)).to.equal(true);
    expect(termText(outer)).to.equal('<<( _:b1 <http://ex.org/says> <<( <http://ex.org/s> <http://ex.org/p> "a b )" )>> )>>');
  });

  it('keeps the base direction of a literal in its key', () => {
    const l = DataFactory.literal('שלום', { language: 'HE', direction: 'rtl' } as unknown as string);
    expect(termToKey(l)).to.equal('"שלום"@he--rtl');
    const back = keyToTerm('"שלום"@he--rtl');
    expect(back.termType === 'Literal' && [back.language, (back as unknown as { direction: string }).direction]).to.deep.equal(['he', 'rtl']);
    expect(termToKey(literal('x', 'en'))).to.equal('"x"@en');
  });

  it('refuses a triple term that RDF 1.2 does not allow', () => {
    expect(() => termToKey(quad(literal('x') as unknown as RDF.Quad_Subject, ex('p'), ex('o')))).to.throw(TypeError, /subject of a triple term/);
    expect(() => termToKey(quad(ex('s'), ex('p'), ex('o'), ex('g')))).to.throw(TypeError, /cannot have a graph/);
    expect(() => termToKey(quad(namedNode('http://ex.org/a b'), ex('p'), ex('o')))).to.throw(TypeError, /cannot hold a space/);
  });

  it('interns the parts before the triple term and indexes it by every part', () => {
    const d = new TermDictionary();
    const a = d.intern('<http://ex.org/a>');
    const t1 = d.intern(termToKey(quad(ex('a'), ex('p'), ex('o'))));
    const t2 = d.intern(termToKey(quad(ex('b'), ex('p'), literal('1'))));
    const nested = d.intern(termToKey(quad(ex('c'), ex('q'), quad(ex('a'), ex('p'), ex('o')))));
    const p = d.lookup('<http://ex.org/p>');
    const o = d.lookup('<http://ex.org/o>');
    expect([a, p, o].every((id) => id >= 0 && id < t1)).to.equal(true);
    const index = d.tripleTerms;
    expect(index.size).to.equal(3);
    expect(index.part(t1, 0)).to.equal(a);
    expect(index.part(nested, 2)).to.equal(t1);
    const byPredicate: number[] = [];
    index.match(-1, p, -1, (id) => byPredicate.push(id) > 0);
    expect(byPredicate.sort((x, y) => x - y)).to.deep.equal([t1, t2]);
    expect(index.find(a, p, o)).to.equal(t1);
    expect(index.find(a, p, d.lookup('"1"'))).to.equal(-1);
    expect(index.estimate(-1, -1, t1)).to.equal(1);
    expect(d.intern(termToKey(quad(ex('a'), ex('p'), ex('o'))))).to.equal(t1);
  });

  it('forgets triple terms a rollback removes, and finds them again after a restore', () => {
    const d = new TermDictionary();
    const t1 = d.intern(termToKey(quad(ex('a'), ex('p'), ex('o'))));
    const mark = d.size;
    const t2 = d.intern(termToKey(quad(ex('a'), ex('p'), ex('new'))));
    d.truncate(mark);
    expect(d.tripleTerms.has(t2)).to.equal(false);
    expect(d.tripleTerms.size).to.equal(1);
    const t3 = d.intern(termToKey(quad(ex('z'), ex('p'), ex('o'))));
    const keys = Array.from({ length: d.size }, (_, id) => d.keyOf(id));
    const bytes = new TextEncoder().encode(keys.join(''));
    const ends = new Uint32Array(keys.length);
    let at = 0;
    keys.forEach((k, i) => (ends[i] = at += new TextEncoder().encode(k).length));
    const restored = new TermDictionary();
    restored.restore(bytes, ends);
    expect(restored.tripleTerms.size).to.equal(2);
    expect(restored.tripleTerms.find(restored.lookup('<http://ex.org/z>'), restored.lookup('<http://ex.org/p>'), restored.lookup('<http://ex.org/o>'))).to.equal(t3);
    expect(restored.tripleTerms.part(t1, 1)).to.equal(restored.lookup('<http://ex.org/p>'));
  });

  it('holds a triple term in as few bytes whatever its parts, and gives its canonical key back (keyOf, canonicalTerms, lookup)', () => {
    const d = new TermDictionary();
    const long = `http://ex.org/${'x'.repeat(400)}`;
    const outer = quad(ex('c'), ex('q'), quad(namedNode(long), ex('p'), literal('a b )', 'en')));
    const key = termToKey(outer);
    const id = d.intern(key);
    const inner = d.lookup(termToKey(quad(namedNode(long), ex('p'), literal('a b )', 'en'))));
    // the triple terms take their parts' ids, not their parts' bytes
    expect(d.endOf(inner) - d.startOf(inner)).to.equal(13);
    expect(d.endOf(id) - d.startOf(id)).to.equal(13);
    expect(d.keyOf(id)).to.equal(key);
    expect(d.kindOf(id)).to.equal(0x28);
    expect(d.lookup(key)).to.equal(id);
    expect(d.lookup(termToKey(quad(ex('c'), ex('q'), ex('unknown'))))).to.equal(-1);
    expect(d.size).to.equal(7);
    // what a snapshot or a log record holds: the canonical keys, which restore the same ids
    const { ends, bytes } = d.canonicalTerms(0, d.size);
    expect(new TextDecoder().decode(bytes.subarray(ends[id - 1], ends[id]))).to.equal(key);
    const restored = new TermDictionary();
    restored.restore(bytes, ends);
    expect(Array.from({ length: d.size }, (_, i) => restored.keyOf(i))).to.deep.equal(Array.from({ length: d.size }, (_, i) => d.keyOf(i)));
    expect(restored.tripleTerms.part(id, 2)).to.equal(inner);
    // the first byte of the short form starts no key the dictionary takes, nor a snapshot's term
    expect(() => d.intern('\u0001abc')).to.throw(RangeError, /0x01/);
    expect(() => new TermDictionary().restore(new Uint8Array([1, 2, 3]), new Uint32Array([3]))).to.throw(RangeError, /0x01/);
  });

  it('walks the matches a budget at a time, stops when told, and refuses to go on after a rollback removed triple terms', () => {
    const index = new TripleTermIndex();
    for (let id = 10; id < 110; id++) index.add(id, id % 7, 1, id % 3);
    const walk = index.walk(-1, 1, 2);
    const seen: number[] = [];
    // the object's list is the shorter (33 triple terms against the predicate's 100): read ten at a time
    let calls = 0;
    while (!index.resume(walk, 10, (id) => seen.push(id) > 0)) calls++;
    expect(calls).to.equal(3);
    expect(seen).to.have.length(33);
    expect(seen.every((id) => id % 3 === 2)).to.equal(true);
    const stopped = index.walk(3, -1, -1);
    let first = -1;
    expect(index.resume(stopped, 1000, (id) => ((first = id), false))).to.equal(true);
    expect(first % 7).to.equal(3);
    expect(index.resume(stopped, 1000, () => expect.fail('a stopped walk reads nothing more'))).to.equal(true);
    // new triple terms after the walk began are not read; a rollback that removes some invalidates it
    const all = index.walk(-1, -1, -1);
    index.add(500, 1, 1, 1);
    const read: number[] = [];
    while (!index.resume(all, 7, (id) => read.push(id) > 0));
    expect(read).to.deep.equal(Array.from({ length: 100 }, (_, i) => 10 + i));
    const suspended = index.walk(-1, -1, -1);
    index.resume(suspended, 5, () => true);
    index.truncate(400);
    expect(() => index.resume(suspended, 5, () => true)).to.throw(RangeError, /removed/);
  });

  it('matches like a scan of every triple term, through additions and rollbacks (random)', () => {
    const int = seededRandom(34);
    const index = new TripleTermIndex();
    let model: Array<[number, number, number, number]> = [];
    let next = 1000;
    for (let step = 0; step < 3000; step++) {
      if (int(100) < 3 && model.length > 0) {
        const mark = model[int(model.length)]![0];
        index.truncate(mark);
        model = model.filter(([id]) => id < mark);
      } else {
        next += 1 + int(3);
        const t: [number, number, number, number] = [next, int(40), int(5), int(60)];
        index.add(...t);
        model.push(t);
      }
      if (step % 50 === 0) {
        const [s, p, o] = [int(2) === 0 ? int(40) : -1, int(2) === 0 ? int(5) : -1, int(2) === 0 ? int(60) : -1];
        const expected = model.filter(([, a, b, c]) => (s < 0 || a === s) && (p < 0 || b === p) && (o < 0 || c === o)).map(([id]) => id);
        const found: number[] = [];
        index.match(s, p, o, (id) => found.push(id) > 0);
        expect(found.sort((x, y) => x - y), `step ${step}`).to.deep.equal(expected);
        // the same matches by a walk read a few triple terms at a time
        const walk = index.walk(s, p, o);
        const walked: number[] = [];
        const budget = 1 + int(7);
        while (!index.resume(walk, budget, (id) => walked.push(id) > 0));
        expect(walked.sort((x, y) => x - y), `walk at step ${step}`).to.deep.equal(expected);
        expect(index.estimate(s, p, o)).to.be.at.least(expected.length);
        expect(index.size).to.equal(model.length);
        for (const [id, a, b, c] of model.slice(-5)) expect([index.part(id, 0), index.part(id, 1), index.part(id, 2), index.find(a, b, c) >= 0]).to.deep.equal([a, b, c, true]);
      }
    }
  });
});
