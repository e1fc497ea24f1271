/**
 * CONSTRUCT and DESCRIBE with solution modifiers: OFFSET, LIMIT and ORDER BY apply to the
 * solutions of the WHERE clause, before the template is instantiated (SPARQL 1.1 §16.2).
 */
import { expect } from 'chai';
import type { DataStoreConnection } from '../../lib/index.js';
import { useServer } from '../helpers/server.js';

const EX = 'http://example.com/';

async function triples(ds: DataStoreConnection, text: string): Promise<string[]> {
  const answer = await ds.evaluateQuery(text);
  if (answer.type !== 'quads') throw new Error(`expected triples, got ${answer.type}`);
  return answer.quads.map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.value}`);
}

describe('sparql: CONSTRUCT and DESCRIBE with OFFSET, LIMIT and ORDER BY', () => {
  const env = useServer('construct-modifiers');
  let ds: DataStoreConnection;

  before(async () => {
    ds = await env.newStore();
    const lines: string[] = [];
    for (let i = 0; i < 10; i++) lines.push(`<${EX}n${i}> <${EX}next> <${EX}n${i + 1}> .`, `<${EX}n${i}> <${EX}label> "node ${i}" .`);
    expect((await ds.importData('ADD', lines.join('\n'))).errors).to.equal(0);
  });

  const WHERE = `WHERE { ?a <${EX}next> ?b }`;
  const TEMPLATE = `CONSTRUCT { ?b <${EX}previous> ?a }`;

  it('LIMIT and OFFSET take the solutions in ORDER BY order, each giving its triples', async () => {
    expect(await triples(ds, `${TEMPLATE} ${WHERE} ORDER BY DESC(?a) LIMIT 2`)).to.deep.equal([`${EX}n10 ${EX}previous ${EX}n9`, `${EX}n9 ${EX}previous ${EX}n8`]);
    expect(await triples(ds, `${TEMPLATE} ${WHERE} ORDER BY ?a OFFSET 8`)).to.deep.equal([`${EX}n9 ${EX}previous ${EX}n8`, `${EX}n10 ${EX}previous ${EX}n9`]);
    expect(await triples(ds, `${TEMPLATE} ${WHERE} LIMIT 3`)).to.have.length(3);
    expect(await triples(ds, `${TEMPLATE} ${WHERE} LIMIT 0`)).to.deep.equal([]);
  });

  it('a template of two triples gives both for each solution kept, and CONSTRUCT WHERE takes LIMIT too', async () => {
    const two = await triples(ds, `CONSTRUCT { ?b <${EX}previous> ?a . ?a <${EX}is> "start" } ${WHERE} ORDER BY ?a LIMIT 1`);
    expect(two.sort()).to.deep.equal([`${EX}n0 ${EX}is start`, `${EX}n1 ${EX}previous ${EX}n0`]);
    expect(await triples(ds, `CONSTRUCT WHERE { ?a <${EX}label> ?l } ORDER BY ?l LIMIT 1`)).to.deep.equal([`${EX}n0 ${EX}label node 0`]);
  });

  it('DESCRIBE describes the resources of the solutions kept', async () => {
    const described = await triples(ds, `DESCRIBE ?a WHERE { ?a <${EX}label> ?l } ORDER BY ?l LIMIT 1`);
    expect(described.sort()).to.deep.equal([`${EX}n0 ${EX}label node 0`, `${EX}n0 ${EX}next ${EX}n1`]);
  });
});
