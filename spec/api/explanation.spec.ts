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

  it('never shows a fact of a graph the role may not read in the proof of a fact it may read', async () => {
    const { name, ds: admin } = await store();
    await admin.importData('ADD', '@prefix : <http://e/> .\n[?x, :vis, ?y] :- [?x, :q, ?y] :g .\n[?x, :vis, ?y] :- [?x, :p, ?y] .', { mediaType: 'application/x.datalog' });
    const sc = env.connection;
    await sc.createRole(`${name}-partial`, 'pw');
    for (const r of ['', '|tupletables|DefaultTriples', '|tupletables|Quads']) sc.grantPrivileges(`${name}-partial`, `|datastores|${name}${r}`, 'read');
    const partial = env.track(await ConnectionFactory.newServerConnection(env.url, `${name}-partial`, 'pw'));
    const ds = env.track(partial.newDataStoreConnection(name));
    // :a :vis :c holds only through the fact of :g; :a :vis :b through a readable fact
    for (const type of ['shortest', 'to-explicit', 'exhaustive'] as const) {
      const only = await ds.explain('[:a, :vis, :c]', { type });
      expect(only.root.type, type).to.equal('derived');
      expect(only.root.ruleInstances, type).to.deep.equal([]);
      expect(only.root.ruleInstancesComplete, type).to.equal(false);
      expect(JSON.stringify(explanationToJson(only)), type).not.to.contain(':g');
      const shown = await ds.explain('[:a, :vis, :b]', { type });
      expect(shown.root.ruleInstances.length, type).to.be.greaterThan(0);
      expect(JSON.stringify(explanationToJson(shown)), type).not.to.contain(':g');
    }
    // the administrator sees the proof through :g
    expect(JSON.stringify(explanationToJson(await admin.explain('[:a, :vis, :c]')))).to.contain(':g');
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
    // a fact of a graph the role may not read is explained exactly as one that does not hold
    const hidden = explanationToJson(await ds.explain('[:a, :seen, :c] :g'));
    const admin = env.track(sc.newDataStoreConnection(name));
    await admin.importData('DELETE', '@prefix : <http://e/> .\n:g { :a :q :c }', { mediaType: 'application/trig' });
    const absent = explanationToJson(await ds.explain('[:a, :seen, :c] :g'));
    await admin.importData('ADD', '@prefix : <http://e/> .\n:g { :a :q :c }', { mediaType: 'application/trig' });
    expect(hidden).to.deep.equal(absent);
    expect((await ds.explain('[:a, :seen, :c] :g')).root.type).to.equal('false');
    sc.grantPrivileges(`${name}-reader`, `|datastores|${name}|namedgraphs|<http://e/g>`, 'read');
    expect((await ds.explain('[:a, :seen, :c] :g')).root.type).to.equal('derived');
    await sc.createRole(`${name}-nobody`, 'pw');
    const nobody = env.track(await ConnectionFactory.newServerConnection(env.url, `${name}-nobody`, 'pw'));
    await expectError(async () => nobody.newDataStoreConnection(name).explain('[:a, :p, :b]'), AccessDeniedError);
  });
});
