import { expect } from 'chai';
import { type DataStoreConnection, InterruptedError } from '../../lib/index.js';
import { expectError, useServer } from '../helpers/server.js';

const EX = 'http://example.com/';
const SH = 'http://www.w3.org/ns/shacl#';

/** A chain of `n` nodes, every one a target whose values are all the nodes after it: quadratic work to validate. */
async function chainStore(ds: DataStoreConnection, n: number): Promise<void> {
  let data = '';
  for (let i = 0; i < n; i++) data += `<${EX}n${i}> a <${EX}Node> ; <${EX}next> <${EX}n${i + 1}> .\n`;
  await ds.importData('ADD', data, { mediaType: 'text/turtle' });
  await ds.importData('ADD', `@prefix sh: <${SH}> . @prefix : <${EX}> . :S sh:targetClass :Node ; sh:property [ sh:path [ sh:oneOrMorePath :next ] ; sh:maxCount 1 ] .`, { defaultGraph: `${EX}shapes` });
}

describe('SHACL validation under time limits', function () {
  this.timeout(120_000);

  describe('a query reading a SHACL table', () => {
    const env = useServer('shacl-time-limits');

    it('stops at the time limit of the query, while the report is computed', async function () {
      // validating 100,000 nodes this way takes minutes: the test's own timeout fails a validation that does not stop
      this.timeout(60_000);
      const ds = await env.newStore();
      await chainStore(ds, 100_000);
      const e = await expectError(ds.evaluateQuery(`SELECT (COUNT(*) AS ?n) WHERE { TT SHACL_DN { <${EX}shapes> ?s ?p ?o } }`, { timeLimitMs: 5 }), InterruptedError);
      expect(e.message).to.contain('time limit');
      // the same validation on a small chain completes under the same limit's absence
      const small = await env.newStore();
      await chainStore(small, 3);
      const answer = await small.evaluateQuery(`ASK { TT SHACL_DN { <${EX}shapes> ?r <${SH}conforms> false } }`);
      expect(answer).to.deep.include({ type: 'boolean', value: true });
    });
  });

  describe('DataStoreConnection.validate', () => {
    const env = useServer('shacl-validate-time-limit', { 'query-time-limit': '5' });

    it("stops at the server's query-time-limit, naming it", async () => {
      const ds = await env.newStore();
      await chainStore(ds, 3000);
      const e = await expectError(ds.validate({ shapesGraph: `${EX}shapes` }), InterruptedError);
      expect(e.message).to.contain('query-time-limit');
    });
  });
});
