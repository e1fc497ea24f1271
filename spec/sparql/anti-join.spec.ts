import { expect } from 'chai';
import type { DataStoreConnection } from '../../lib/index.js';
import { useServer } from '../helpers/server.js';

/** People p0 … p399: some know another, some have an age; enough solutions that (NOT) EXISTS, MINUS and OPTIONAL hash their inner patterns. */
const N = 400;
const knows = (i: number): number | undefined => (i % 3 === 0 ? undefined : (i * 7) % N);
const age = (i: number): number | undefined => (i % 5 === 0 ? undefined : i % 50);
function data(): string {
  const lines: string[] = [];
  for (let i = 0; i < N; i++) {
    lines.push(`:p${i} a :Person .`);
    const k = knows(i);
    if (k !== undefined) lines.push(`:p${i} :knows :p${k} .`);
    const a = age(i);
    if (a !== undefined) lines.push(`:p${i} :age ${a} .`);
  }
  return `@prefix : <http://example.com/> .\n${lines.join('\n')}\n`;
}
const range = (): number[] => Array.from({ length: N }, (_, i) => i);

describe('sparql/anti-join: (NOT) EXISTS, MINUS and OPTIONAL evaluated set-at-a-time', () => {
  const env = useServer('anti-join');
  let ds: DataStoreConnection;
  before(async () => {
    ds = await env.newStore();
    await ds.setPrefix(':', 'http://example.com/');
    await ds.importData('ADD', data());
  });
  async function count(query: string): Promise<number> {
    const a = await ds.evaluateQuery(query);
    if (a.type !== 'bindings') throw new Error('expected bindings');
    return a.rows.length;
  }

  it('FILTER EXISTS and NOT EXISTS on one shared variable', async () => {
    const withKnows = range().filter((i) => knows(i) !== undefined).length;
    expect(await count('SELECT ?x WHERE { ?x a :Person FILTER EXISTS { ?x :knows ?y } }')).to.equal(withKnows);
    expect(await count('SELECT ?x WHERE { ?x a :Person FILTER NOT EXISTS { ?x :knows ?y } }')).to.equal(N - withKnows);
  });

  it('FILTER NOT EXISTS on two shared variables, and on none (the pattern has solutions or not)', async () => {
    // pairs (x, y) of people where y does not know x back
    const pairs = range().filter((i) => knows(i) !== undefined);
    const back = pairs.filter((i) => knows(knows(i)!) === i).length;
    expect(await count('SELECT ?x ?y WHERE { ?x :knows ?y FILTER NOT EXISTS { ?y :knows ?x } }')).to.equal(pairs.length - back);
    expect(await count('SELECT ?x WHERE { ?x a :Person FILTER EXISTS { ?a :knows ?b } }')).to.equal(N);
    expect(await count('SELECT ?x WHERE { ?x a :Person FILTER EXISTS { ?a :hates ?b } }')).to.equal(0);
  });

  it('FILTER EXISTS of one pattern: a variable repeated in it, a constant the store does not hold, a value made by BIND', async () => {
    const selfKnowing = range().filter((i) => knows(i) === i).length;
    expect(selfKnowing).to.be.greaterThan(0);
    expect(await count('SELECT ?x WHERE { ?x a :Person FILTER EXISTS { ?y :knows ?y } }')).to.equal(N);
    expect(await count('SELECT ?x WHERE { ?x a :Person FILTER EXISTS { ?x :knows ?x } }')).to.equal(selfKnowing);
    expect(await count('SELECT ?x WHERE { ?x a :Person FILTER NOT EXISTS { ?x :hates ?y } }')).to.equal(N);
    expect(await count('SELECT ?x WHERE { ?x a :Person BIND(:nobody AS ?y) FILTER NOT EXISTS { ?x :knows ?y } }')).to.equal(N);
  });

  it('FILTER EXISTS where the outer solutions leave a shared variable unbound', async () => {
    // ?a is unbound for people without an age: the pattern then only needs some ?x :age
    const q = 'SELECT ?x WHERE { ?x a :Person OPTIONAL { ?x :age ?a } FILTER EXISTS { ?x :age ?a } }';
    expect(await count(q)).to.equal(range().filter((i) => age(i) !== undefined).length);
  });

  it('MINUS removes solutions compatible on shared variables, and keeps those sharing none', async () => {
    const noKnows = range().filter((i) => knows(i) === undefined).length;
    expect(await count('SELECT ?x WHERE { ?x a :Person MINUS { ?x :knows ?y } }')).to.equal(noKnows);
    // no shared variable: nothing removed
    expect(await count('SELECT ?x WHERE { ?x a :Person MINUS { ?a :knows ?b } }')).to.equal(N);
    // the right side binds ?a only for some: people whose age is 7 removed
    const seven = range().filter((i) => age(i) === 7).length;
    expect(await count('SELECT ?x ?a WHERE { ?x :age ?a MINUS { VALUES ?a { 7 } } }')).to.equal(range().filter((i) => age(i) !== undefined).length - seven);
  });

  it('OPTIONAL with and without a FILTER inside gives one row per match or the left row alone', async () => {
    expect(await count('SELECT ?x ?a WHERE { ?x a :Person OPTIONAL { ?x :age ?a } }')).to.equal(N);
    const a = await ds.evaluateQuery('SELECT ?x ?a WHERE { ?x a :Person OPTIONAL { ?x :age ?a FILTER(?a > 40) } }');
    if (a.type !== 'bindings') throw new Error('expected bindings');
    expect(a.rows.length).to.equal(N);
    expect(a.rows.filter((r) => r[1] !== undefined).length).to.equal(range().filter((i) => (age(i) ?? 0) > 40).length);
    // a chain: the friend's age, when the friend has one
    const b = await ds.evaluateQuery('SELECT ?x ?y ?a WHERE { ?x :knows ?y OPTIONAL { ?y :age ?a } }');
    if (b.type !== 'bindings') throw new Error('expected bindings');
    const friends = range().filter((i) => knows(i) !== undefined);
    expect(b.rows.length).to.equal(friends.length);
    expect(b.rows.filter((r) => r[2] !== undefined).length).to.equal(friends.filter((i) => age(knows(i)!) !== undefined).length);
  });
});
