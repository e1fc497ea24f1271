import { expect } from 'chai';
import type { DataStoreConnection } from '../../lib/index.js';
import { useServer } from '../helpers/server.js';

const N = 300;
function data(): string {
  const lines: string[] = [];
  for (let i = 0; i < N; i++) lines.push(`:p${i} :group :g${i % 7} ; :score ${i % 11} .`);
  return `@prefix : <http://example.com/> .\n${lines.join('\n')}\n`;
}

describe('sparql/grouping: GROUP BY and aggregates on term ids', () => {
  const env = useServer('grouping');
  let ds: DataStoreConnection;
  before(async () => {
    ds = await env.newStore();
    await ds.setPrefix(':', 'http://example.com/');
    await ds.importData('ADD', data());
  });
  async function rows(query: string): Promise<string[][]> {
    const a = await ds.evaluateQuery(query);
    if (a.type !== 'bindings') throw new Error('expected bindings');
    return a.rows.map((r) => r.map((t) => t?.value ?? ''));
  }

  it('COUNT(*), COUNT(?x), COUNT(DISTINCT), SUM, MIN, MAX per group, in order of first appearance', async () => {
    const got = await rows('SELECT ?g (COUNT(*) AS ?n) (COUNT(?s) AS ?c) (COUNT(DISTINCT ?s) AS ?d) (SUM(?s) AS ?sum) (MIN(?s) AS ?min) (MAX(?s) AS ?max) WHERE { ?p :group ?g ; :score ?s } GROUP BY ?g ORDER BY ?g');
    const expected: string[][] = [];
    for (let g = 0; g < 7; g++) {
      const scores = Array.from({ length: N }, (_, i) => i).filter((i) => i % 7 === g).map((i) => i % 11);
      expected.push([`http://example.com/g${g}`, String(scores.length), String(scores.length), String(new Set(scores).size), String(scores.reduce((a, b) => a + b, 0)), String(Math.min(...scores)), String(Math.max(...scores))]);
    }
    expect(got).to.deep.equal(expected);
  });

  it('SUM, MIN and MAX go on exactly past integers: decimals, strings, unbound values and huge integers', async () => {
    const ds2 = await env.newStore();
    await ds2.setPrefix(':', 'http://example.com/');
    const values = ['1', '2', '3', '2.5', '"x"', '9007199254740991', '"0010"^^<http://www.w3.org/2001/XMLSchema#integer>'];
    const lines = values.map((v, i) => `:g${i} :v 5 , ${v} .`);
    await ds2.importData('ADD', `@prefix : <http://example.com/> .\n${lines.join('\n')}\n:g7 :v 4 .\n:g8 :w 1 .\n`);
    const a = await ds2.evaluateQuery('SELECT ?g (SUM(?v) AS ?s) (MIN(?v) AS ?min) (MAX(?v) AS ?max) WHERE { { SELECT DISTINCT ?g WHERE { ?g ?p ?x } } OPTIONAL { ?g :v ?v } } GROUP BY ?g ORDER BY ?g');
    if (a.type !== 'bindings') throw new Error('expected bindings');
    const got = a.rows.map((r) => r.slice(1).map((t) => t?.value));
    expect(got).to.deep.equal([
      ['6', '1', '5'],
      ['7', '2', '5'],
      ['8', '3', '5'],
      ['7.5', '2.5', '5'],
      [undefined, '5', 'x'],
      ['9007199254740996', '5', '9007199254740991'],
      ['15', '5', '0010'],
      ['4', '4', '4'],
      [undefined, undefined, undefined],
    ]);
  });

  it('aggregates over no solutions: one row without GROUP BY variables, none with', async () => {
    expect(await rows('SELECT (COUNT(*) AS ?n) (COUNT(?x) AS ?c) (SUM(?x) AS ?s) WHERE { ?p :missing ?x }')).to.deep.equal([['0', '0', '0']]);
    expect(await rows('SELECT ?g (COUNT(*) AS ?n) WHERE { ?p :missing ?g } GROUP BY ?g')).to.deep.equal([]);
  });

  it('COUNT of an expression counts the solutions where it has a value; grouping on a BIND', async () => {
    // ?s / (?s - 5) is an error where ?s = 5
    const errors = Array.from({ length: N }, (_, i) => i).filter((i) => i % 11 === 5).length;
    expect(await rows('SELECT (COUNT(?s / (?s - 5)) AS ?n) WHERE { ?p :score ?s }')).to.deep.equal([[String(N - errors)]]);
    const got = await rows('SELECT ?odd (COUNT(*) AS ?n) WHERE { ?p :score ?s BIND(?s - 2 * FLOOR(?s / 2) AS ?odd) } GROUP BY ?odd ORDER BY ?odd');
    const odd = Array.from({ length: N }, (_, i) => i).filter((i) => (i % 11) % 2 === 1).length;
    expect(got.map((r) => r[1])).to.deep.equal([String(N - odd), String(odd)]);
  });
});
