import { expect } from 'chai';
import { expectEmpty, expectErrorResponse, readCsv, readJson, readTsv, useEndpoint } from './helpers.js';

for (const variant of ['A', 'B'] as const) {
  describe(`HTTP server resource / and /health (variant ${variant})`, () => {
    const env = useEndpoint(`server-${variant}`, { variant });

    it('GET / lists Property, Value, Mutable as CSV by default', async () => {
      const res = await env.fetch('/');
      expect(res.status).to.equal(200);
      const table = await readCsv(res);
      expect(table.columns).to.deep.equal(['Property', 'Value', 'Mutable']);
      const byName = new Map(table.records.map((r) => [r.Property, r]));
      expect(byName.get('version')?.Mutable).to.equal('false');
      expect(byName.get('num-threads')?.Mutable).to.equal('true');
      expect(byName.get('max-memory')?.Mutable).to.equal('true');
      expect(byName.has('git-SHA')).to.equal(true);
      expect(byName.has('available-memory')).to.equal(true);
    });

    it('GET / honours Accept (JSON, TSV) and q-values', async () => {
      const json = await readJson(await env.fetch('/', { headers: { accept: 'application/sparql-results+json' } }));
      expect(json.vars).to.deep.equal(['Property', 'Value', 'Mutable']);
      const threads = json.bindings.find((b) => b.Property?.value === 'num-threads')!;
      expect(threads.Mutable).to.deep.equal({ type: 'literal', value: 'true', datatype: 'http://www.w3.org/2001/XMLSchema#boolean' });
      const tsv = await readTsv(await env.fetch('/', { headers: { accept: 'text/csv;q=0.5, text/tab-separated-values' } }));
      expect(tsv.columns).to.deep.equal(['Property', 'Value', 'Mutable']);
      const star = await env.fetch('/', { headers: { accept: '*/*' } });
      expect(star.headers.get('content-type')).to.match(/^text\/csv/);
      await star.text();
    });

    it('GET / answers 406 when no answer format is acceptable', async () => {
      const text = await expectErrorResponse(await env.fetch('/', { headers: { accept: 'text/html' } }), 406, 'NotAcceptableError');
      expect(text).to.contain('text/csv');
    });

    it('GET / applies the filter parameter', async () => {
      const res = await env.fetch(`/?filter=${encodeURIComponent('?Mutable')}`);
      const table = await readCsv(res);
      expect(table.records.map((r) => r.Property).sort()).to.deep.equal(['max-memory', 'num-threads']);
      await expectErrorResponse(await env.fetch(`/?filter=${encodeURIComponent('?Property = ')}`), 400, 'QueryCompilationError');
    });

    it('GET /?component-info=short|extended gives the component table', async () => {
      for (const level of ['short', 'extended']) {
        const table = await readCsv(await env.fetch(`/?component-info=${level}`));
        expect(table.columns).to.deep.equal(['ComponentID', 'Property', 'Value']);
        expect(table.records[0]).to.include({ ComponentID: '1', Property: 'Component name' });
      }
      await expectErrorResponse(await env.fetch('/?component-info=full'), 400, 'BadRequestError');
    });

    it('PATCH /?operation=set sets mutable properties (204)', async () => {
      await expectEmpty(await env.fetch('/?operation=set&num-threads=3', { method: 'PATCH' }), 204);
      const table = await readCsv(await env.fetch('/'));
      expect(table.records.find((r) => r.Property === 'num-threads')?.Value).to.equal('3');
      expect(env.connection.getNumberOfThreads()).to.equal(3);
    });

    it('PATCH / takes parameters from a form body', async () => {
      await expectEmpty(
        await env.fetch('/', { method: 'PATCH', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'operation=set&num-threads=2' }),
        204,
      );
      expect(env.connection.getNumberOfThreads()).to.equal(2);
    });

    it('PATCH / refuses immutable, unknown or missing properties and operations', async () => {
      expect(await expectErrorResponse(await env.fetch('/?operation=set&version=9', { method: 'PATCH' }), 400, 'BadRequestError')).to.contain("'version' cannot be changed");
      expect(await expectErrorResponse(await env.fetch('/?operation=set&colour=red', { method: 'PATCH' }), 400, 'BadRequestError')).to.contain("unknown server property 'colour'");
      await expectErrorResponse(await env.fetch('/?operation=set', { method: 'PATCH' }), 400, 'BadRequestError');
      await expectErrorResponse(await env.fetch('/?num-threads=2', { method: 'PATCH' }), 400, 'BadRequestError');
      await expectErrorResponse(await env.fetch('/?operation=reset', { method: 'PATCH' }), 400, 'BadRequestError');
      await expectErrorResponse(await env.fetch('/?operation=set&num-threads=0', { method: 'PATCH' }), 400, 'BadRequestError');
      // nothing was half-applied
      expect(env.connection.getNumberOfThreads()).to.equal(2);
    });

    it('GET /health answers 204 without authentication', async () => {
      await expectEmpty(await env.fetch('/health', { anonymous: true }), 204);
      await expectEmpty(await env.fetch('/health', { headers: { authorization: 'Basic d3Jvbmc6d3Jvbmc=' } }), 204);
    });
  });
}
