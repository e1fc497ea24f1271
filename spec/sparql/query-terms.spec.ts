/**
 * The terms of ids during a query: stored terms are decoded once per store and kept across
 * queries, so the cache must give every id its own term, also after a rollback gave ids to
 * other terms.
 */
import { expect } from 'chai';
import { DataFactory } from 'n3';
import type { DataStoreConnection } from '../../lib/index.js';
import { TermDictionary } from '../../lib/model/dictionary.js';
import { keyToTerm } from '../../lib/model/terms.js';
import { FIRST_LOCAL_ID, QueryTerms } from '../../lib/sparql/query-terms.js';
import { useServer } from '../helpers/server.js';

const EX = 'http://example.com/';

describe('sparql/query-terms: the terms of ids during a query', () => {
  it('gives every stored id its term, over queries and more ids than the cache holds', () => {
    const dictionary = new TermDictionary();
    const keys: string[] = [];
    for (let i = 0; i < 70_000; i++) keys.push(i % 3 === 0 ? `<${EX}n${i}>` : i % 3 === 1 ? `"v ${i}"` : `"${i}"@en`);
    for (const k of keys) dictionary.intern(k);
    let seed = 7;
    for (let q = 0; q < 4; q++) {
      const terms = new QueryTerms(dictionary);
      for (let n = 0; n < 20_000; n++) {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        const id = seed % keys.length;
        expect(terms.termOf(id).equals(keyToTerm(keys[id]!)), `id ${id}`).to.equal(true);
      }
    }
  });

  it('drops what it knows when the dictionary is truncated and its ids go to other terms', () => {
    const dictionary = new TermDictionary();
    dictionary.intern(`<${EX}kept>`);
    const mark = dictionary.size;
    const before = dictionary.intern(`"before rollback"`);
    expect(new QueryTerms(dictionary).termOf(before).value).to.equal('before rollback');
    dictionary.truncate(mark);
    const after = dictionary.intern(`"after rollback"`);
    expect(after).to.equal(before);
    expect(new QueryTerms(dictionary).termOf(after).value).to.equal('after rollback');
  });

  it('keeps a term the store lacked query-local for the rest of the query, one id per term', () => {
    const dictionary = new TermDictionary();
    const terms = new QueryTerms(dictionary);
    const literal = DataFactory.literal('computed');
    const local = terms.idOf(literal);
    expect(local).to.be.at.most(FIRST_LOCAL_ID);
    const stored = dictionary.intern('"computed"');
    expect(terms.idOf(DataFactory.literal('computed'))).to.equal(local);
    expect(terms.termOf(local).equals(literal)).to.equal(true);
    expect(new QueryTerms(dictionary).idOf(literal)).to.equal(stored);
  });

  describe('through a store', () => {
    const env = useServer('query-terms');
    let ds: DataStoreConnection;
    before(async () => {
      ds = await env.newStore();
    });

    it('answers with the terms of a rolled-back transaction gone and the next one’s in their place', async () => {
      const names = async (): Promise<string[]> => {
        const answer = await ds.evaluateQuery(`SELECT ?o WHERE { <${EX}s> <${EX}p> ?o } ORDER BY ?o`);
        if (answer.type !== 'bindings') throw new Error('expected bindings');
        return answer.rows.map((r) => r[0]!.value);
      };
      await ds.importData('ADD', `<${EX}s> <${EX}p> "one" .`);
      expect(await names()).to.deep.equal(['one']);
      await ds.beginTransaction('read-write');
      await ds.importData('ADD', `<${EX}s> <${EX}p> "rolled back" .`);
      expect(await names()).to.deep.equal(['one', 'rolled back']);
      await ds.rollbackTransaction();
      expect(await names()).to.deep.equal(['one']);
      await ds.importData('ADD', `<${EX}s> <${EX}p> "two" .`);
      expect(await names()).to.deep.equal(['one', 'two']);
    });
  });
});
