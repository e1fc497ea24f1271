import { expect } from 'chai';
import { expectEmpty, expectErrorResponse, readCsv, useEndpoint } from './helpers.js';

describe('HTTP catalogue: data sources, tuple tables, statistics', () => {
  const env = useEndpoint('catalog');
  let store: string;

  before(async () => {
    store = await env.createStore();
  });

  async function transactionConnection(): Promise<{ id: string; location: string }> {
    const location = (await env.fetch(`/datastores/${store}/connections`, { method: 'POST' })).headers.get('location')!;
    await expectEmpty(await env.fetch(`${location}/transaction?operation=begin-read-write`, { method: 'POST' }), 204);
    return { id: location.split('/').pop()!, location };
  }

  describe('data sources', () => {
    it('GET lists Name, Type, Parameters, NumberOfTables', async () => {
      const table = await readCsv(await env.fetch(`/datastores/${store}/datasources`));
      expect(table.columns).to.deep.equal(['Name', 'Type', 'Parameters', 'NumberOfTables']);
      expect(table.rows).to.deep.equal([]);
    });

    it('POST needs a type (400) and a known one (400 naming it)', async () => {
      expect(await expectErrorResponse(await env.fetch(`/datastores/${store}/datasources/src`, { method: 'POST' }), 400, 'BadRequestError')).to.contain("'type'");
      const text = await expectErrorResponse(await env.fetch(`/datastores/${store}/datasources/src?type=DelimitedFile&file=x.csv`, { method: 'POST' }), 400, 'BadRequestError');
      expect(text).to.contain('DelimitedFile');
    });

    it('unknown sources and tables are 404 for every resource', async () => {
      for (const path of ['datasources/none', 'datasources/none/tables', 'datasources/none/tables/t', 'datasources/none/tables/t/data?limit=5']) {
        await expectErrorResponse(await env.fetch(`/datastores/${store}/${path}`), 404, 'UnknownResourceError');
      }
      await expectErrorResponse(await env.fetch(`/datastores/${store}/datasources/none`, { method: 'DELETE' }), 404, 'UnknownResourceError');
    });

    it('a bad limit is a 400', async () => {
      await expectErrorResponse(await env.fetch(`/datastores/${store}/datasources/none/tables/t/data?limit=ten`), 400, 'BadRequestError');
    });

    it('registering or deregistering is not possible on a connection with a transaction (409)', async () => {
      const { id, location } = await transactionConnection();
      await expectErrorResponse(await env.fetch(`/datastores/${store}/datasources/src?type=DelimitedFile&connection=${id}`, { method: 'POST' }), 409, 'TransactionError');
      await expectErrorResponse(await env.fetch(`/datastores/${store}/datasources/src?connection=${id}`, { method: 'DELETE' }), 409, 'TransactionError');
      await expectEmpty(await env.fetch(`${location}/transaction?operation=rollback`, { method: 'POST' }), 204);
    });
  });

  describe('tuple tables', () => {
    it('GET lists Name, Type, ID, MinArity, MaxArity', async () => {
      const table = await readCsv(await env.fetch(`/datastores/${store}/tupletables`));
      expect(table.columns).to.deep.equal(['Name', 'Type', 'ID', 'MinArity', 'MaxArity']);
      expect(table.records).to.deep.include({ Name: 'DefaultTriples', Type: 'memory', ID: '1', MinArity: '3', MaxArity: '3' });
      expect(table.records).to.deep.include({ Name: 'Quads', Type: 'memory', ID: '2', MinArity: '4', MaxArity: '4' });
    });

    it('POST creates one (201, Location), GET describes it, DELETE deletes it (204)', async () => {
      const res = await env.fetch(`/datastores/${store}/tupletables/pairs?arity=2`, { method: 'POST' });
      await expectEmpty(res, 201);
      expect(res.headers.get('location')).to.equal(`/datastores/${store}/tupletables/pairs`);
      const described = await readCsv(await env.fetch(`/datastores/${store}/tupletables/pairs`));
      expect(described.columns).to.deep.equal(['Property', 'Value']);
      expect(described.records).to.deep.include({ Property: 'min-arity', Value: '2' });
      expect(described.records).to.deep.include({ Property: 'name', Value: 'pairs' });
      await expectErrorResponse(await env.fetch(`/datastores/${store}/tupletables/pairs?arity=2`, { method: 'POST' }), 409, 'DuplicateResourceError');
      await expectEmpty(await env.fetch(`/datastores/${store}/tupletables/pairs`, { method: 'DELETE' }), 204);
      await expectErrorResponse(await env.fetch(`/datastores/${store}/tupletables/pairs`), 404, 'UnknownResourceError');
    });

    it('create and delete are refused on a connection with a transaction (409)', async () => {
      const { id, location } = await transactionConnection();
      await expectErrorResponse(await env.fetch(`/datastores/${store}/tupletables/t2?arity=2&connection=${id}`, { method: 'POST' }), 409, 'TransactionError');
      await expectErrorResponse(await env.fetch(`/datastores/${store}/tupletables/Quads?connection=${id}`, { method: 'DELETE' }), 409, 'TransactionError');
      await expectEmpty(await env.fetch(`${location}/transaction?operation=rollback`, { method: 'POST' }), 204);
    });

    it('bad parameters are a 400', async () => {
      await expectErrorResponse(await env.fetch(`/datastores/${store}/tupletables/bad?arity=zero`, { method: 'POST' }), 400);
    });

    it('the built-in SKOLEM is listed (type builtin, arity 1 and up), described, deleted and recreated with no parameters', async () => {
      const listed = await readCsv(await env.fetch(`/datastores/${store}/tupletables`));
      expect(listed.records).to.deep.include({ Name: 'SKOLEM', Type: 'builtin', ID: '3', MinArity: '1', MaxArity: '4294967295' });
      const described = await readCsv(await env.fetch(`/datastores/${store}/tupletables/SKOLEM`));
      expect(described.records).to.deep.include({ Property: 'type', Value: 'builtin' });
      expect(described.records.map((r) => r.Property)).not.to.include('facts');
      await expectErrorResponse(await env.fetch(`/datastores/${store}/tupletables/SKOLEM`, { method: 'POST' }), 409, 'DuplicateResourceError');
      await expectEmpty(await env.fetch(`/datastores/${store}/tupletables/SKOLEM`, { method: 'DELETE' }), 204);
      await expectErrorResponse(await env.fetch(`/datastores/${store}/tupletables/SKOLEM`), 404, 'UnknownResourceError');
      const refused = await expectErrorResponse(await env.fetch(`/datastores/${store}/tupletables/SKOLEM?arity=2`, { method: 'POST' }), 400, 'BadRequestError');
      expect(refused).to.contain('built-in tuple table');
      await expectEmpty(await env.fetch(`/datastores/${store}/tupletables/SKOLEM`, { method: 'POST' }), 201);
      const again = await readCsv(await env.fetch(`/datastores/${store}/tupletables`));
      expect(again.records.filter((r) => r.Name === 'SKOLEM').map((r) => [r.Type, r.MinArity, r.MaxArity])).to.deep.equal([['builtin', '1', '4294967295']]);
    });

    it('TT SKOLEM through the SPARQL endpoint', async () => {
      const query = encodeURIComponent('SELECT ?e WHERE { TT SKOLEM { "a" <http://ex/b> ?e } }');
      const table = await readCsv(await env.fetch(`/datastores/${store}/sparql?query=${query}`, { headers: { accept: 'text/csv' } }));
      expect(table.records).to.have.length(1);
      expect(table.records[0]!.e).to.match(/^_:sk_[0-9a-f]{32}$/);
    });
  });

  describe('statistics', () => {
    it('GET lists Name, Parameters; GET one gives Property, Value', async () => {
      const table = await readCsv(await env.fetch(`/datastores/${store}/stats`));
      expect(table.columns).to.deep.equal(['Name', 'Parameters']);
      expect(table.records).to.deep.equal([{ Name: 'column-counts', Parameters: '' }]);
      const one = await readCsv(await env.fetch(`/datastores/${store}/stats/column-counts`));
      expect(one.records).to.deep.equal([{ Property: 'name', Value: 'column-counts' }]);
      await expectErrorResponse(await env.fetch(`/datastores/${store}/stats/other`), 404, 'UnknownResourceError');
    });

    it('PUT brings statistics up to date (204)', async () => {
      await expectEmpty(await env.fetch(`/datastores/${store}/stats`, { method: 'PUT' }), 204);
      await expectEmpty(await env.fetch(`/datastores/${store}/stats/column-counts`, { method: 'PUT' }), 204);
      await expectErrorResponse(await env.fetch(`/datastores/${store}/stats/other`, { method: 'PUT' }), 404, 'UnknownResourceError');
    });

    it('DELETE removes (204) and POST creates (201, Location)', async () => {
      const own = await env.createStore();
      await expectEmpty(await env.fetch(`/datastores/${own}/stats/column-counts`, { method: 'DELETE' }), 204);
      expect((await readCsv(await env.fetch(`/datastores/${own}/stats`))).rows).to.deep.equal([]);
      const res = await env.fetch(`/datastores/${own}/stats/column-counts`, { method: 'POST' });
      await expectEmpty(res, 201);
      expect(res.headers.get('location')).to.equal(`/datastores/${own}/stats/column-counts`);
      await expectErrorResponse(await env.fetch(`/datastores/${own}/stats/column-counts`, { method: 'POST' }), 409, 'DuplicateResourceError');
      await expectErrorResponse(await env.fetch(`/datastores/${own}/stats/histograms`, { method: 'POST' }), 400, 'BadRequestError');
      await expectErrorResponse(await env.fetch(`/datastores/${own}/stats/nothing`, { method: 'DELETE' }), 404, 'UnknownResourceError');
    });
  });
});
