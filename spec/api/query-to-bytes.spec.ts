/**
 * `evaluateQueryToBytes`: the answer of `evaluateQueryTo` as UTF-8 bytes, byte for byte, in
 * every answer format; TSV written from the rows' term ids (stored terms copied from the
 * dictionary), also after a rolled-back transaction gave ids to other terms.
 */
import { expect } from 'chai';
import { BadRequestError, type DataStoreConnection } from '../../lib/index.js';
import { expectError, useServer } from '../helpers/server.js';

const EX = 'http://example.com/';

/** The text answer and the byte answer of a query in a media type, with their counts. */
async function both(ds: DataStoreConnection, query: string, mediaType: string): Promise<{ text: string; bytes: string; counts: [number, number] }> {
  let text = '';
  const chunks: Uint8Array[] = [];
  const n = await ds.evaluateQueryTo(query, mediaType, (chunk) => void (text += chunk));
  const m = await ds.evaluateQueryToBytes(query, mediaType, (chunk) => void chunks.push(chunk));
  return { text, bytes: Buffer.concat(chunks).toString('utf8'), counts: [n, m] };
}

describe('api: evaluateQueryToBytes', () => {
  const env = useServer('query-to-bytes');
  let ds: DataStoreConnection;

  before(async () => {
    ds = await env.newStore();
    const lines: string[] = [];
    for (let i = 0; i < 4000; i++) {
      lines.push(`<${EX}s${i}> <${EX}name> "name ${i}\\twith a tab and \\"quotes\\" and é ${i % 7 === 0 ? '\\n' : ''}" .`);
      lines.push(`<${EX}s${i}> <${EX}age> "${i % 90}"^^<http://www.w3.org/2001/XMLSchema#integer> .`);
      if (i % 3 === 0) lines.push(`<${EX}s${i}> <${EX}label> "l${i}"@en-gb .`);
      if (i % 5 === 0) lines.push(`_:b${i} <${EX}knows> <${EX}s${i}> .`);
    }
    expect((await ds.importData('ADD', lines.join('\n'))).errors).to.equal(0);
    await ds.importData('ADD', `@prefix ex: <${EX}> .`, { mediaType: 'text/turtle' });
  });

  const QUERIES = [
    'SELECT * WHERE { ?s ?p ?o }',
    `SELECT ?s ?l ?n (STRLEN(?n) AS ?len) (CONCAT(?n, "!") AS ?made) WHERE { ?s <${EX}name> ?n OPTIONAL { ?s <${EX}label> ?l } }`,
    `SELECT ?age (COUNT(?s) AS ?c) WHERE { ?s <${EX}age> ?age } GROUP BY ?age ORDER BY ?age`,
    `SELECT ?b WHERE { ?b <${EX}knows> ?s } LIMIT 0`,
  ];
  const TYPES = ['text/tab-separated-values', 'text/x.tab-separated-values-abbrev', 'application/sparql-results+json', 'application/sparql-results+xml', 'text/csv', 'application/x.sparql-results+turtle'];
  for (const mediaType of TYPES) {
    it(`gives the text of evaluateQueryTo, byte for byte (${mediaType})`, async () => {
      for (const query of QUERIES) {
        const { text, bytes, counts } = await both(ds, query, mediaType);
        expect(bytes, query).to.equal(text);
        expect(counts[1], query).to.equal(counts[0]);
      }
    });
  }

  it('gives ASK and CONSTRUCT answers as bytes too, and refuses a format that does not fit', async () => {
    for (const [query, type] of [
      [`ASK { <${EX}s1> ?p ?o }`, 'application/sparql-results+json'],
      [`CONSTRUCT { ?s <${EX}named> ?n } WHERE { ?s <${EX}name> ?n } LIMIT 50`, 'text/turtle'],
      [`CONSTRUCT { ?s <${EX}named> ?n } WHERE { ?s <${EX}name> ?n } LIMIT 50`, 'application/n-triples'],
    ] as const) {
      const { text, bytes } = await both(ds, query, type);
      expect(bytes, `${query} as ${type}`).to.equal(text);
    }
    await expectError(ds.evaluateQueryToBytes(`ASK { ?s ?p ?o }`, 'text/tab-separated-values', () => undefined), BadRequestError);
    await expectError(ds.evaluateQueryToBytes(`CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }`, 'text/tab-separated-values', () => undefined), BadRequestError);
  });

  it('answers with the terms of the latest state after a rolled-back transaction gave their ids to other terms', async () => {
    const store = await env.newStore();
    const query = `SELECT ?o WHERE { <${EX}a> <${EX}p> ?o } ORDER BY ?o`;
    await store.importData('ADD', `<${EX}a> <${EX}p> <${EX}one> .`);
    expect((await both(store, query, 'text/tab-separated-values')).bytes).to.equal(`?o\n<${EX}one>\n`);
    await store.beginTransaction('read-write');
    await store.importData('ADD', `<${EX}a> <${EX}p> "2"^^<http://www.w3.org/2001/XMLSchema#integer> .`);
    expect((await both(store, query, 'text/tab-separated-values')).bytes).to.equal(`?o\n<${EX}one>\n2\n`);
    await store.rollbackTransaction();
    await store.importData('ADD', `<${EX}a> <${EX}p> "two" .`);
    const { text, bytes } = await both(store, query, 'text/tab-separated-values');
    expect(bytes).to.equal(text);
    expect(bytes).to.equal(`?o\n<${EX}one>\n"two"\n`);
  });
});
