import { expect } from 'chai';
import { DEFAULT_DATA_STORE_TYPE } from '../../lib/server/data-store-parameters.js';
import { expectEmpty, expectErrorResponse, readCsv, readJson, useEndpoint } from './helpers.js';

for (const variant of ['A', 'B'] as const) {
  describe(`HTTP data stores (variant ${variant})`, () => {
    const env = useEndpoint(`datastores-${variant}`, { variant });

    it('POST creates a store with type and parameters: 201 with Location', async () => {
      const name = env.uniqueName('created');
      const res = await env.fetch(`/datastores/${name}?type=parallel-nn&use-DRed=true`, { method: 'POST' });
      await expectEmpty(res, 201);
      expect(res.headers.get('location')).to.equal(`/datastores/${name}`);
      const props = await readCsv(await env.fetch(`/datastores/${name}`));
      expect(props.records.find((r) => r.Property === 'parameters.use-DRed')?.Value).to.equal('true');
    });

    it('POST takes its parameters from a form body too', async () => {
      const name = env.uniqueName('form');
      const res = await env.fetch(`/datastores/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'type=parallel-nw&by-levels=false',
      });
      await expectEmpty(res, 201);
      expect(res.headers.get('location')).to.equal(`/datastores/${name}`);
      const names = await readCsv(await env.fetch('/datastores'));
      expect(names.records.map((r) => r.Name)).to.include(name);
    });

    it('POST without type creates a store of the default type, as createDataStore does in-process', async () => {
      const typeOf = async (name: string): Promise<string | undefined> =>
        (await readCsv(await env.fetch(`/datastores/${name}?component-info=extended`))).records.find((r) => r.Property === 'Type')?.Value;
      const name = env.uniqueName('untyped');
      const res = await env.fetch(`/datastores/${name}?use-DRed=true`, { method: 'POST' });
      await expectEmpty(res, 201);
      expect(res.headers.get('location')).to.equal(`/datastores/${name}`);
      expect(await typeOf(name)).to.equal(DEFAULT_DATA_STORE_TYPE);
      const props = await readCsv(await env.fetch(`/datastores/${name}`));
      expect(props.records.find((r) => r.Property === 'parameters.use-DRed')?.Value).to.equal('true');
      const empty = env.uniqueName('empty-type');
      await expectEmpty(await env.fetch(`/datastores/${empty}?type=`, { method: 'POST' }), 201);
      expect(await typeOf(empty)).to.equal(DEFAULT_DATA_STORE_TYPE);
      const other = env.uniqueName('other-type');
      await expectEmpty(await env.fetch(`/datastores/${other}?type=parallel-nw`, { method: 'POST' }), 201);
      expect(await typeOf(other)).to.equal('parallel-nw');
    });

    it('POST with a bad type or parameter, or for an existing name fails', async () => {
      const name = env.uniqueName();
      await expectErrorResponse(await env.fetch(`/datastores/${name}?type=nonsense`, { method: 'POST' }), 400);
      await expectErrorResponse(await env.fetch(`/datastores/${name}?type=parallel-nn&colour=red`, { method: 'POST' }), 400);
      const existing = await env.createStore();
      await expectErrorResponse(await env.fetch(`/datastores/${existing}?type=parallel-nn`, { method: 'POST' }), 409, 'DuplicateResourceError');
    });

    it('GET /datastores lists the names (Name), with filter', async () => {
      const a = await env.createStore('list-alpha');
      const b = await env.createStore('list-beta');
      const all = await readCsv(await env.fetch('/datastores'));
      expect(all.columns).to.deep.equal(['Name']);
      expect(all.records.map((r) => r.Name)).to.include.members([a, b]);
      const filtered = await readJson(await env.fetch(`/datastores?filter=${encodeURIComponent('?Name = "list-beta"')}`, { headers: { accept: 'application/sparql-results+json' } }));
      expect(filtered.bindings).to.deep.equal([{ Name: { type: 'literal', value: 'list-beta' } }]);
    });

    it('GET one gives Property, Value, Mutable; component-info gives the component table', async () => {
      const store = await env.createStore();
      const props = await readCsv(await env.fetch(`/datastores/${store}`));
      expect(props.columns).to.deep.equal(['Property', 'Value', 'Mutable']);
      expect(props.records.find((r) => r.Property === 'name')).to.deep.equal({ Property: 'name', Value: store, Mutable: 'false' });
      expect(props.records.find((r) => r.Property === 'base-iri')?.Mutable).to.equal('true');
      const info = await readCsv(await env.fetch(`/datastores/${store}?component-info=extended`));
      expect(info.columns).to.deep.equal(['ComponentID', 'Property', 'Value']);
      expect(info.records[0]).to.include({ ComponentID: '1', Property: 'Component name' });
      await expectErrorResponse(await env.fetch(`/datastores/${store}?component-info=all`), 400, 'BadRequestError');
      await expectErrorResponse(await env.fetch('/datastores/unknown-store'), 404, 'UnknownResourceError');
    });

    it('DELETE deletes the store (204)', async () => {
      const store = await env.createStore();
      await expectEmpty(await env.fetch(`/datastores/${store}`, { method: 'DELETE' }), 204);
      expect(env.connection.listDataStores()).to.not.include(store);
      await expectErrorResponse(await env.fetch(`/datastores/${store}`, { method: 'DELETE' }), 404, 'UnknownResourceError');
    });

    it('PATCH clear, clear-rules-explicate-facts, compact, recompute-materialization answer 204', async () => {
      const store = await env.createStore();
      const c = env.storeConnection(store);
      await c.importData('ADD', '@prefix : <http://e/> . :a :p :b .', { mediaType: 'text/turtle' });
      await c.importData('ADD', '@prefix : <http://e/> . [?x, :q, ?y] :- [?x, :p, ?y] .', { mediaType: 'application/x.datalog' });
      expect(await c.countFacts()).to.equal(2);
      await expectEmpty(await env.fetch(`/datastores/${store}?operation=recompute-materialization`, { method: 'PATCH' }), 204);
      expect(await c.countFacts()).to.equal(2);
      await expectEmpty(await env.fetch(`/datastores/${store}?operation=clear-rules-explicate-facts`, { method: 'PATCH' }), 204);
      expect(await c.countFacts({ factDomain: 'explicit' })).to.equal(2);
      await expectEmpty(await env.fetch(`/datastores/${store}?operation=compact`, { method: 'PATCH' }), 204);
      await expectEmpty(await env.fetch(`/datastores/${store}`, { method: 'PATCH', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'operation=clear' }), 204);
      expect(await c.countFacts()).to.equal(0);
    });

    it('PATCH update-materialization needs a read-write transaction (use connection=)', async () => {
      const store = await env.createStore();
      await expectErrorResponse(await env.fetch(`/datastores/${store}?operation=update-materialization`, { method: 'PATCH' }), 409, 'TransactionError');
      const location = (await env.fetch(`/datastores/${store}/connections`, { method: 'POST' })).headers.get('location')!;
      const id = location.split('/').pop()!;
      await expectEmpty(await env.fetch(`${location}/transaction?operation=begin-read-write`, { method: 'POST' }), 204);
      await expectEmpty(await env.fetch(`/datastores/${store}?operation=update-materialization&connection=${id}`, { method: 'PATCH' }), 204);
      await expectEmpty(await env.fetch(`${location}/transaction?operation=commit`, { method: 'POST' }), 204);
    });

    const own = variant === 'A' ? 'recompile-rules' : 'recompile';
    const foreign = variant === 'A' ? 'recompile' : 'recompile-rules';
    it(`PATCH ${own} answers 204; ${foreign} is a 400 naming the variant`, async () => {
      const store = await env.createStore();
      await expectEmpty(await env.fetch(`/datastores/${store}?operation=${own}`, { method: 'PATCH' }), 204);
      const text = await expectErrorResponse(await env.fetch(`/datastores/${store}?operation=${foreign}`, { method: 'PATCH' }), 400, 'BadRequestError');
      expect(text).to.contain(`variant ${variant}`);
      expect(text).to.contain(`operation=${own}`);
    });

    it(variant === 'A' ? 'PATCH set base-iri answers 204' : 'PATCH set base-iri answers 200 with Changed', async () => {
      const store = await env.createStore();
      const res = await env.fetch(`/datastores/${store}?operation=set&base-iri=${encodeURIComponent('http://example.com/base/')}`, { method: 'PATCH' });
      if (variant === 'A') await expectEmpty(res, 204);
      else expect((await readCsv(res)).records).to.deep.equal([{ Changed: 'true' }]);
      const again = await env.fetch(`/datastores/${store}?operation=set&base-iri=${encodeURIComponent('http://example.com/base/')}`, { method: 'PATCH' });
      if (variant === 'A') await expectEmpty(again, 204);
      else {
        expect(again.status).to.equal(200);
        expect((await readCsv(again)).records).to.deep.equal([{ Changed: 'false' }]);
      }
      const props = await readCsv(await env.fetch(`/datastores/${store}`));
      expect(props.records.find((r) => r.Property === 'base-iri')?.Value).to.equal('http://example.com/base/');
    });

    it('PATCH set of another property, or no operation, or an unknown one, is a 400', async () => {
      const store = await env.createStore();
      expect(await expectErrorResponse(await env.fetch(`/datastores/${store}?operation=set&name=x`, { method: 'PATCH' }), 400, 'BadRequestError')).to.contain("'name' cannot be changed");
      expect(await expectErrorResponse(await env.fetch(`/datastores/${store}?operation=set&colour=x`, { method: 'PATCH' }), 400, 'BadRequestError')).to.contain("unknown data store property 'colour'");
      await expectErrorResponse(await env.fetch(`/datastores/${store}?operation=set`, { method: 'PATCH' }), 400, 'BadRequestError');
      await expectErrorResponse(await env.fetch(`/datastores/${store}`, { method: 'PATCH' }), 400, 'BadRequestError');
      expect(await expectErrorResponse(await env.fetch(`/datastores/${store}?operation=explode`, { method: 'PATCH' }), 400, 'BadRequestError')).to.contain(own);
    });
  });
}
