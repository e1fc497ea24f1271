/**
 * A FILTER over a basic graph pattern is tested inside the pattern's plan as soon as the
 * variables it reads are bound. The answers must be those of the filter applied to the
 * complete solutions: each query here is compared with the same filter over a subquery (which
 * keeps the filter on top of the pattern), on data where the filter rejects early, late, on
 * errors and on variables the pattern never binds, with outer bindings too.
 */
import { expect } from 'chai';
import type { DataStoreConnection } from '../../lib/index.js';
import { useServer } from '../helpers/server.js';

const EX = 'http://example.com/';

/** The rows of a SELECT answer as sorted lines (order-independent comparison). */
async function rows(ds: DataStoreConnection, text: string): Promise<string[]> {
  const answer = await ds.evaluateQuery(text);
  if (answer.type !== 'bindings') throw new Error('expected bindings');
  return answer.rows.map((r) => r.map((t) => (t === undefined ? '-' : `${t.termType}:${t.value}`)).join(' ')).sort();
}

describe('sparql: a FILTER over a basic graph pattern is tested as soon as its variables are bound', () => {
  const env = useServer('filter-pushdown');
  let ds: DataStoreConnection;

  before(async () => {
    ds = await env.newStore();
    const lines: string[] = [];
    for (let i = 0; i < 40; i++) {
      lines.push(`<${EX}p${i}> <${EX}name> "person ${i}" .`);
      lines.push(`<${EX}p${i}> <${EX}age> ${i % 7 === 0 ? `"unknown"` : String(20 + i)} .`);
      lines.push(`<${EX}p${i}> <${EX}knows> <${EX}p${(i * 3) % 40}> .`);
      if (i % 2 === 0) lines.push(`<${EX}p${i}> <${EX}knows> <${EX}p${(i + 1) % 40}> .`);
    }
    expect((await ds.importData('ADD', lines.join('\n'))).errors).to.equal(0);
  });

  const PATTERN = `?x <${EX}name> ?n ; <${EX}age> ?a ; <${EX}knows> ?y . ?y <${EX}age> ?b`;
  const FILTERS = [
    // the first pattern's variable
    'REGEX(?n, "1$")',
    // variables of two patterns, with type errors on the "unknown" ages (the solution is dropped)
    '?a > ?b',
    '?a + 1 > 30',
    // every variable of the pattern
    'STRLEN(?n) > 8 && ?a < ?b && ?x != ?y',
    // a variable the pattern never binds (unbound: an error, or BOUND false)
    '!BOUND(?z)',
    'BOUND(?z) || ?a = 25',
    '?z = 1',
    // no variable
    '1 < 2',
    'false',
    // errors everywhere but on one side of ||
    '?a / 0 = 1 || ?x = ?y',
  ];

  for (const f of FILTERS) {
    it(`FILTER(${f}) gives the answers of the same filter on the complete solutions`, async () => {
      const pushed = await rows(ds, `SELECT ?x ?y ?n ?a ?b WHERE { ${PATTERN} FILTER(${f}) }`);
      const onTop = await rows(ds, `SELECT ?x ?y ?n ?a ?b WHERE { { SELECT * WHERE { ${PATTERN} } } FILTER(${f}) }`);
      expect(pushed).to.deep.equal(onTop);
    });
  }

  it('with outer bindings (a join feeding the pattern, and VALUES)', async () => {
    const inner = `{ ?x <${EX}name> ?n ; <${EX}knows> ?y FILTER(?y != <${EX}p3> && STRLEN(?n) = 8) }`;
    const pushed = await rows(ds, `SELECT * WHERE { VALUES ?x { <${EX}p1> <${EX}p2> <${EX}p5> } ${inner} }`);
    const onTop = await rows(ds, `SELECT * WHERE { VALUES ?x { <${EX}p1> <${EX}p2> <${EX}p5> } { SELECT * WHERE { ?x <${EX}name> ?n ; <${EX}knows> ?y } } FILTER(?y != <${EX}p3> && STRLEN(?n) = 8) }`);
    expect(pushed).to.deep.equal(onTop);
    // p1 knows only p3; p2 knows p6 and p3; p5 knows p15
    expect(pushed.length).to.equal(2);
    const optional = await rows(ds, `SELECT ?x ?n ?y WHERE { ?x <${EX}age> 25 OPTIONAL ${inner} }`);
    expect(optional).to.deep.equal([`NamedNode:${EX}p5 Literal:person 5 NamedNode:${EX}p15`]);
  });

  it('stops early rejected solutions before the later patterns: the answer of a filter on the first variable is complete', async () => {
    const answer = await rows(ds, `SELECT ?x WHERE { ?x <${EX}name> ?n ; <${EX}knows> ?y . ?y <${EX}knows> ?z FILTER(?n = "person 4") }`);
    // p4 knows p12 and p5; p12 knows p36 and p13; p5 knows p15
    expect(answer).to.deep.equal([`NamedNode:${EX}p4`, `NamedNode:${EX}p4`, `NamedNode:${EX}p4`]);
  });
});
