/**
 * `DataStoreConnection.explain`: inside transactions (a read/write transaction's own changes,
 * reasoned first), privileges (read access to the store, the tables and the named graphs an
 * explanation shows), and the renderings exported by the package.
 */
import { expect } from 'chai';
import { AccessDeniedError, ConnectionFactory, EXPLANATION_JSON, explanationToJson, renderExplanation } from '../../lib/index.js';
import { checkExplanation } from '../helpers/explanation-checker.js';
import { expectError, useServer } from '../helpers/server.js';

const RULES = '@prefix : <http://e/> .\n[?x, :anc, ?y] :- [?x, :p, ?y] .\n[?x, :anc, ?z] :- [?x, :anc, ?y], [?y, :anc, ?z] .\n[?x, :seen, ?y] :g :- [?x, :anc, ?y], [?x, :q, ?y] :g .';

describe('DataStoreConnection.explain', () => {
  const env = useServer('explanation-api');

  async function store(): Promise<{ name: string; ds: Awaited<ReturnType<typeof env.newStore>> }> {
    const name = env.uniqueName('expl');
    const ds = await env.newStore(name);
    await ds.setPrefix(':', 'http://e/');
    await ds.importData('ADD', '@prefix : <http://e/> .\n:a :p :b . :b :p :c .\n:g { :a :q :c }', { mediaType: 'application/trig' });
    await ds.importData('ADD', RULES, { mediaType: 'application/x.datalog' });
    return { name, ds };
  }

  it('inside a read/write transaction explains its own changes, reasoned first', async () => {
    const { ds } = await store();
    await ds.beginTransaction('read-write');
    await ds.importData('ADD', '@prefix : <http://e/> .\n:c :p :d .', { mediaType: 'text/turtle' });
    const e = await ds.explain('[:a, :anc, :d]');
    expect(e.root.type).to.equal('derived');
    // a–d is three :p steps: height 3 whichever way it splits
    expect(e.root.proofHeight).to.equal(3);
    await ds.rollbackTransaction();
    expect((await ds.explain('[:a, :anc, :d]')).root.type).to.equal('false');
  });

  it('explains facts of named graphs with their rule instances', async () => {
    const { name, ds } = await store();
    const e = await ds.explain('[:a, :seen, :c] :g', { type: 'to-explicit' });
    checkExplanation(env.server, name, e);
    expect(e.root.ruleInstances[0]!.groundedRule).to.equal('[:a, :seen, :c] :g :- [:a, :anc, :c], [:a, :q, :c] :g .');
  });

  it('the JSON value and the text rendering are exported with the media type', async () => {
    const { ds } = await store();
    const e = await ds.explain('[:a, :anc, :b]');
    expect(EXPLANATION_JSON).to.equal('application/x.explanation+json');
    const json = explanationToJson(e);
    expect(JSON.parse(JSON.stringify(json))).to.deep.equal(json);
    expect(Object.keys(json.facts)).to.deep.equal(['0', '1']);
    expect(renderExplanation(e)).to.equal('[:a, :anc, :b]    [derived, proof height 1]\n  <= [:a, :anc, :b] :- [:a, :p, :b] .\n    [:a, :p, :b]    [explicit]\n');
  });

  it('needs read access to the store, and to every table and named graph the explanation shows', async () => {
    const { name } = await store();
    const sc = env.connection;
    await sc.createRole(`${name}-reader`, 'pw');
    sc.grantPrivileges(`${name}-reader`, `|datastores|${name}`, 'read');
    sc.grantPrivileges(`${name}-reader`, `|datastores|${name}|tupletables|DefaultTriples`, 'read');
    const reader = env.track(await ConnectionFactory.newServerConnection(env.url, `${name}-reader`, 'pw'));
    const ds = env.track(reader.newDataStoreConnection(name));
    expect((await ds.explain('[:a, :anc, :c]')).root.type).to.equal('derived');
    await expectError(ds.explain('[:a, :seen, :c] :g'), AccessDeniedError);
    sc.grantPrivileges(`${name}-reader`, `|datastores|${name}|tupletables|Quads`, 'read');
    await expectError(ds.explain('[:a, :seen, :c] :g'), AccessDeniedError);
    sc.grantPrivileges(`${name}-reader`, `|datastores|${name}|namedgraphs|<http://e/g>`, 'read');
    expect((await ds.explain('[:a, :seen, :c] :g')).root.type).to.equal('derived');
    await sc.createRole(`${name}-nobody`, 'pw');
    const nobody = env.track(await ConnectionFactory.newServerConnection(env.url, `${name}-nobody`, 'pw'));
    await expectError(async () => nobody.newDataStoreConnection(name).explain('[:a, :p, :b]'), AccessDeniedError);
  });
});
