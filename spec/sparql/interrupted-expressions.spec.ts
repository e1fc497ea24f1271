/**
 * Interruption inside expressions: a time limit or an interrupt that strikes while FILTER
 * EXISTS (or NOT EXISTS) evaluates its pattern stops the query with InterruptedError instead of
 * being taken for an expression error (false, unbound).
 */
import { expect } from 'chai';
import { type DataStoreConnection, InterruptedError } from '../../lib/index.js';
import { expectError, useServer } from '../helpers/server.js';

const EX = 'http://example.com/';

/**
 * A pattern over every combination of three edges (27 million here) that never matches: the
 * filter reads a variable of each edge, so it can only be tested once all three are matched.
 */
const HOPELESS = `?a <${EX}e> ?b . ?c <${EX}e> ?d . ?f <${EX}e> ?g . FILTER(?a = <${EX}none> && ?d != ?b && ?g != ?b)`;

describe('sparql: interruption inside expressions', () => {
  const env = useServer('sparql-interrupted-expressions');
  let ds: DataStoreConnection;

  before(async () => {
    ds = await env.newStore();
    const lines: string[] = [];
    for (let i = 0; i < 300; i++) lines.push(`<${EX}n${i}> <${EX}e> <${EX}n${(i * 7) % 300}> .`);
    expect((await ds.importData('ADD', lines.join('\n'))).errors).to.equal(0);
  });

  it('a time limit reached inside FILTER EXISTS stops the query (not a false filter)', async () => {
    const e = await expectError(ds.evaluateQuery(`ASK { FILTER EXISTS { ${HOPELESS} } }`, { timeLimitMs: 20 }), InterruptedError);
    expect(e.message).to.match(/time limit/);
  });

  it('a time limit reached inside FILTER NOT EXISTS stops the query (not a true filter)', async () => {
    await expectError(ds.evaluateQuery(`SELECT * WHERE { FILTER NOT EXISTS { ${HOPELESS} } }`, { timeLimitMs: 20 }), InterruptedError);
  });

  it('a time limit reached inside BIND(EXISTS …) stops the query (not an unbound variable)', async () => {
    await expectError(ds.evaluateQuery(`SELECT ?x WHERE { BIND(EXISTS { ${HOPELESS} } AS ?x) }`, { timeLimitMs: 20 }), InterruptedError);
  });

  it('expression errors still drop the solution (FILTER) or leave the variable unbound (BIND)', async () => {
    const answer = await ds.evaluateQuery(`SELECT ?x WHERE { <${EX}n1> <${EX}e> ?o . BIND(1/0 AS ?x) FILTER(!BOUND(?x) || ?o / 0) }`);
    expect(answer.type === 'bindings' && answer.rows).to.deep.equal([[undefined]]);
    const dropped = await ds.evaluateQuery(`SELECT ?o WHERE { <${EX}n1> <${EX}e> ?o . FILTER(?o / 0) }`);
    expect(dropped.type === 'bindings' && dropped.rows).to.deep.equal([]);
  });
});
