/**
 * Delta queries over HTTP: register (body or parameter, RDFox's parameters), describe, list,
 * read the kept answers (in the query's format-name or the negotiated format), deregister; the
 * errors (404, 409, 400, 403); and the registering role's named-graph privileges in answers.
 */
import { expect } from 'chai';
import { expectErrorResponse, readCsv, readJson, useEndpoint } from './helpers.js';

const EX = 'http://example.com/';
const Q = `SELECT ?b ?o WHERE { ?b <${EX}owner> ?o }`;

function rowsOf(table: { columns: readonly string[]; rows: readonly (readonly string[])[] }): Record<string, string>[] {
  return table.rows.map((r) => Object.fromEntries(table.columns.map((c, i) => [c, r[i] ?? ''])));
}

describe('delta queries over HTTP', () => {
  const env = useEndpoint('delta-queries');

  async function register(store: string, name: string, parameters = '', init: RequestInit = {}): Promise<Response> {
    return env.fetch(`/datastores/${store}/deltaqueries/${name}${parameters}`, { method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: Q, ...init });
  }

  it('registers, describes, lists and deregisters a query with RDFox’s parameters', async () => {
    const store = await env.createStore();
    const res = await register(store, 'alerts', '?format-name=application/sparql-results%2Bjson&additions-max-size=5&deletions-max-size=4&evaluation-mode=snapshot&snapshots-max-size=2&fact-domain=explicit');
    expect(res.status, await res.text()).to.equal(201);
    expect(res.headers.get('location')).to.equal(`/datastores/${store}/deltaqueries/alerts`);

    const described = Object.fromEntries((await readCsv(await env.fetch(`/datastores/${store}/deltaqueries/alerts`))).rows.map((r): [string, string] => [r[0]!, r[1]!]));
    expect(described).to.include({
      name: 'alerts',
      query: Q,
      'format-name': 'application/sparql-results+json',
      'additions-max-size': '5',
      'deletions-max-size': '4',
      'snapshots-max-size': '2',
      'evaluation-mode': 'snapshot',
      'fact-domain': 'explicit',
      computation: 'incremental',
    });

    // the text as a parameter (a form body here), defaults for the rest
    const byForm = await env.fetch(`/datastores/${store}/deltaqueries/second`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ query: Q }).toString() });
    expect(byForm.status, await byForm.text()).to.equal(201);
    const second = Object.fromEntries((await readJson(await env.fetch(`/datastores/${store}/deltaqueries/second`, { headers: { accept: 'application/sparql-results+json' } }))).bindings.map((b) => [b['Property']!.value, b['Value']!.value]));
    expect(second).to.include({ 'format-name': 'text/csv', 'additions-max-size': '1', 'evaluation-mode': 'delta', 'fact-domain': 'all' });

    const listed = rowsOf(await readCsv(await env.fetch(`/datastores/${store}/deltaqueries`)));
    expect(listed.map((r) => r['Name']).sort()).to.deep.equal(['alerts', 'second']);
    expect(listed.find((r) => r['Name'] === 'alerts')).to.include({ Query: Q, Computation: 'incremental' });

    const gone = await env.fetch(`/datastores/${store}/deltaqueries/alerts`, { method: 'DELETE' });
    expect(gone.status).to.equal(204);
    await expectErrorResponse(await env.fetch(`/datastores/${store}/deltaqueries/alerts`), 404);
    expect(rowsOf(await readCsv(await env.fetch(`/datastores/${store}/deltaqueries`))).map((r) => r['Name'])).to.deep.equal(['second']);
  });

  it('answers 404, 409 and 400 as the other routes do', async () => {
    const store = await env.createStore();
    await expectErrorResponse(await env.fetch(`/datastores/${store}/deltaqueries/none`), 404);
    await expectErrorResponse(await env.fetch(`/datastores/${store}/deltaqueries/none`, { method: 'DELETE' }), 404);
    await expectErrorResponse(await env.fetch(`/datastores/${store}/deltaqueryanswers/none`), 404);
    expect((await register(store, 'q')).status).to.equal(201);
    await expectErrorResponse(await register(store, 'q'), 409);
    await expectErrorResponse(await register(store, 'bad1', '?additions-max-size=many'), 400);
    await expectErrorResponse(await register(store, 'bad2', '?format-name=text/turtle'), 400);
    await expectErrorResponse(await register(store, 'bad3', '?evaluation-mode=eager'), 400);
    await expectErrorResponse(await register(store, 'bad4', '?no-such-parameter=1'), 400);
    await expectErrorResponse(await register(store, 'bad5', '', { body: `ASK { ?s ?p ?o }` }), 400);
    await expectErrorResponse(await register(store, 'bad6', '', { body: 'SELECT * WHERE {' }), 400);
    await expectErrorResponse(await env.fetch(`/datastores/${store}/deltaqueries/bad7`, { method: 'POST' }), 400);
    await expectErrorResponse(await env.fetch(`/datastores/${store}/deltaqueryanswers/q/1/sideways`), 400);
    expect(rowsOf(await readCsv(await env.fetch(`/datastores/${store}/deltaqueries`))).map((r) => r['Name'])).to.deep.equal(['q']);
  });

  it('lists the kept answers per version and reads their content in format-name or the Accept format', async () => {
    const store = await env.createStore();
    expect((await register(store, 'owners', '?format-name=application/sparql-results%2Bjson&additions-max-size=10&deletions-max-size=10')).status).to.equal(201);
    const ds = env.storeConnection(store);
    await ds.importData('ADD', `<${EX}b1> <${EX}owner> "ann" .`);
    await ds.importData('ADD', `<${EX}b2> <${EX}owner> "bob" .`);
    await ds.importData('DELETE', `<${EX}b1> <${EX}owner> "ann" .`);

    const listed = rowsOf(await readCsv(await env.fetch(`/datastores/${store}/deltaqueryanswers/owners`)));
    expect(listed.map((r) => [r['Type'], r['NumberOfAnswers']])).to.deep.equal([
      ['additions', '1'], ['deletions', '0'],
      ['additions', '1'], ['deletions', '0'],
      ['additions', '0'], ['deletions', '1'],
    ]);
    const versions = listed.map((r) => Number(r['Version']));
    expect(versions[0]).to.be.below(versions[2]!);
    expect(versions[2]).to.be.below(versions[4]!);
    expect(rowsOf(await readCsv(await env.fetch(`/datastores/${store}/deltaqueryanswers`))).filter((r) => r['QueryName'] === 'owners')).to.have.length(6);

    // format-name when Accept is absent
    const first = await env.fetch(`/datastores/${store}/deltaqueryanswers/owners/${versions[0]}/additions`);
    expect(first.headers.get('content-type')).to.match(/^application\/sparql-results\+json/);
    const json = (await first.json()) as { head: { vars: string[] }; results: { bindings: Array<Record<string, { value: string }>> } };
    expect(json.head.vars).to.deep.equal(['b', 'o']);
    expect(json.results.bindings.map((b) => [b['b']!.value, b['o']!.value])).to.deep.equal([[`${EX}b1`, 'ann']]);
    // the Accept format otherwise
    const removed = await readCsv(await env.fetch(`/datastores/${store}/deltaqueryanswers/owners/${versions[4]}/deletions`, { headers: { accept: 'text/csv' } }));
    expect(removed.rows).to.deep.equal([[`${EX}b1`, 'ann']]);
    await expectErrorResponse(await env.fetch(`/datastores/${store}/deltaqueryanswers/owners/${versions[4]! + 100}/additions`), 404);
  });

  describe('privileges', () => {
    const S = '|datastores|%s';
    async function role(store: string, name: string, needs: ReadonlyArray<readonly [string, string]>): Promise<{ role: string; password: string }> {
      await env.connection.createRole(name, 'pw');
      for (const [spec, access] of needs) env.connection.grantPrivileges(name, spec.replace(/%s/g, store), access);
      return { role: name, password: 'pw' };
    }

    it('needs read on the query to describe it, read its answers or watch it; the listing shows only its name', async () => {
      const store = await env.createStore();
      expect((await register(store, 'secret')).status).to.equal(201);
      const as = await role(store, env.uniqueName('lister'), [[S, 'read'], [`${S}|deltaqueries`, 'read']]);
      await expectErrorResponse(await env.fetch(`/datastores/${store}/deltaqueries/secret`, { as }), 403);
      await expectErrorResponse(await env.fetch(`/datastores/${store}/deltaqueryanswers/secret`, { as }), 403);
      await expectErrorResponse(await env.fetch(`/datastores/${store}/deltaqueries/secret`, { as, headers: { accept: 'text/event-stream' } }), 403);
      await expectErrorResponse(await env.fetch(`/datastores/${store}/deltaqueries/secret`, { as, method: 'DELETE' }), 403);
      await expectErrorResponse(await env.fetch(`/datastores/${store}/deltaqueries/other`, { as, method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: Q }), 403);
      const listed = rowsOf(await readCsv(await env.fetch(`/datastores/${store}/deltaqueries`, { as })));
      expect(listed.find((r) => r['Name'] === 'secret')).to.deep.equal({ Name: 'secret', Query: '', Computation: '', Version: '' });
      expect(rowsOf(await readCsv(await env.fetch(`/datastores/${store}/deltaqueryanswers`, { as })))).to.deep.equal([]);
      const noList = await role(store, env.uniqueName('none'), [[S, 'read']]);
      await expectErrorResponse(await env.fetch(`/datastores/${store}/deltaqueries`, { as: noList }), 403);
    });

    it('keeps answers as the registering role sees the store: named graphs it may not read are invisible', async () => {
      const store = await env.createStore();
      const as = await role(store, env.uniqueName('graphs'), [
        [S, 'read'],
        [`${S}|deltaqueries|visible`, 'read,write'],
        [`${S}|tupletables|Quads`, 'read'],
        [`${S}|namedgraphs|<${EX}g1>`, 'read'],
      ]);
      const res = await env.fetch(`/datastores/${store}/deltaqueries/visible?additions-max-size=5`, {
        as,
        method: 'POST',
        headers: { 'content-type': 'application/sparql-query' },
        body: 'SELECT ?s ?g WHERE { GRAPH ?g { ?s ?p ?o } }',
      });
      expect(res.status, await res.text()).to.equal(201);
      const ds = env.storeConnection(store);
      await ds.evaluateUpdate(`INSERT DATA { GRAPH <${EX}g1> { <${EX}a> <${EX}p> <${EX}o> } GRAPH <${EX}g2> { <${EX}b> <${EX}p> <${EX}o> } }`);
      const listed = rowsOf(await readCsv(await env.fetch(`/datastores/${store}/deltaqueryanswers/visible`)));
      const additions = listed.find((r) => r['Type'] === 'additions')!;
      const content = await readCsv(await env.fetch(`/datastores/${store}/deltaqueryanswers/visible/${additions['Version']}/additions`));
      expect(content.rows).to.deep.equal([[`${EX}a`, `${EX}g1`]]);
    });
  });
});
