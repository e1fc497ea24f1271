/**
 * `GET /datastores/<ds>/explanation`: RDFox's JSON shape, the plain-text tree, the parameters
 * and their errors, content negotiation, and privileges.
 */
import { expect } from 'chai';
import type { ExplanationJson } from '../../lib/index.js';
import { expectErrorResponse, useEndpoint } from './helpers.js';

describe('HTTP explanation', () => {
  const env = useEndpoint('explanation');

  async function familyStore(): Promise<string> {
    const store = await env.createStore();
    const ds = env.storeConnection(store);
    await ds.setPrefix(':', 'http://e/');
    await ds.importData('ADD', '@prefix : <http://e/> .\n:a :p :b . :b :p :c .', { mediaType: 'text/turtle' });
    await ds.importData('ADD', '@prefix : <http://e/> .\n[?x, :anc, ?y] :- [?x, :p, ?y] .\n[?x, :anc, ?z] :- [?x, :anc, ?y], [?y, :anc, ?z] .\n:Top[?x] :- [?x, :p, ?y], NOT EXISTS ?z IN [?z, :p, ?x] .', { mediaType: 'application/x.datalog' });
    return store;
  }

  const explain = (store: string, params: Record<string, string>, accept?: string): Promise<Response> =>
    env.fetch(`/datastores/${store}/explanation?${new URLSearchParams(params).toString()}`, accept ? { headers: { accept } } : {});

  it('answers application/x.explanation+json in RDFox’s shape', async () => {
    const store = await familyStore();
    const res = await explain(store, { fact: '[:a, :anc, :c]' });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/x.explanation+json; charset=UTF-8');
    const json = (await res.json()) as ExplanationJson;
    expect(json.prefixes[':']).to.equal('http://e/');
    expect(json.complete).to.equal(true);
    const root = json.facts['0']!;
    expect(root).to.deep.include({ fact: '[:a, :anc, :c]', type: 'derived', 'distance-from-root': 0, 'proof-height': 2, 'rule-instances-complete': true, 'shortest-proof-rule-instance': 0 });
    expect(root['rule-instances']).to.deep.equal([
      { rule: '[?x, :anc, ?z] :- [?x, :anc, ?y], [?y, :anc, ?z] .', 'grounded-rule': '[:a, :anc, :c] :- [:a, :anc, :b], [:b, :anc, :c] .', 'head-atom-index': 0, 'body-facts': ['1', '2'] },
    ]);
    expect(json.facts['1']).to.deep.include({ fact: '[:a, :anc, :b]', type: 'derived', 'distance-from-root': 1, 'proof-height': 1 });
    const explicit = Object.values(json.facts).filter((f) => f.type === 'explicit');
    expect(explicit.map((f) => f.fact).sort()).to.deep.equal(['[:a, :p, :b]', '[:b, :p, :c]']);
    for (const f of explicit) expect(f).to.deep.include({ 'proof-height': 0, 'shortest-proof-rule-instance': null, 'rule-instances': [] });
    // NOT has a null body fact
    const top = (await (await explain(store, { fact: ':Top[:a]' })).json()) as ExplanationJson;
    expect(top.facts['0']!['rule-instances'][0]!['body-facts']).to.deep.equal(['1', null]);
  });

  it('takes type and the limits; complete is false when a limit cut something', async () => {
    const store = await familyStore();
    const all = (await (await explain(store, { fact: '[:a, :anc, :c]', type: 'to-explicit' })).json()) as ExplanationJson;
    expect(all.complete).to.equal(true);
    const cut = (await (await explain(store, { fact: '[:a, :anc, :c]', type: 'to-explicit', 'max-distance-from-root': '0' })).json()) as ExplanationJson;
    expect(cut.complete).to.equal(false);
    expect(Object.keys(cut.facts)).to.deep.equal(['0']);
    expect(cut.facts['0']!['rule-instances-complete']).to.equal(false);
    const few = (await (await explain(store, { fact: '[:a, :anc, :c]', type: 'exhaustive', 'max-rule-instances-per-fact': '5' })).json()) as ExplanationJson;
    expect(few.complete).to.equal(true);
    const none = (await (await explain(store, { fact: '[:c, :anc, :a]' })).json()) as ExplanationJson;
    expect(none.facts['0']!.type).to.equal('false');
  });

  it('answers text/plain with the proof tree', async () => {
    const store = await familyStore();
    const res = await explain(store, { fact: '[:a, :anc, :c]' }, 'text/plain');
    expect(res.headers.get('content-type')).to.equal('text/plain; charset=UTF-8');
    expect(await res.text()).to.equal(
      [
        '[:a, :anc, :c]    [derived, proof height 2]',
        '  <= [:a, :anc, :c] :- [:a, :anc, :b], [:b, :anc, :c] .',
        '    [:a, :anc, :b]    [derived, proof height 1]',
        '      <= [:a, :anc, :b] :- [:a, :p, :b] .',
        '        [:a, :p, :b]    [explicit]',
        '    [:b, :anc, :c]    [derived, proof height 1]',
        '      <= [:b, :anc, :c] :- [:b, :p, :c] .',
        '        [:b, :p, :c]    [explicit]',
        '',
      ].join('\n'),
    );
    await expectErrorResponse(await explain(store, { fact: '[:a, :anc, :c]' }, 'text/csv'), 406);
  });

  it('bad requests: no fact, a fact that does not parse, variables, unknown tables, bad type and limits', async () => {
    const store = await familyStore();
    expect(await expectErrorResponse(await env.fetch(`/datastores/${store}/explanation`), 400, 'BadRequestError')).to.contain("'fact'");
    expect(await expectErrorResponse(await explain(store, { fact: '[:a, :anc' }), 400, 'ParsingError')).to.contain('line 1: column 11');
    expect(await expectErrorResponse(await explain(store, { fact: '[:a, :anc, ?x]' }), 400, 'ParsingError')).to.contain('variable ?x');
    expect(await expectErrorResponse(await explain(store, { fact: 'Nope(:a)' }), 400, 'BadRequestError')).to.contain("tuple table 'Nope' does not exist");
    expect(await expectErrorResponse(await explain(store, { fact: '[:a, :p, :b]', type: 'longest' }), 400, 'BadRequestError')).to.contain("unknown explanation type 'longest'");
    expect(await expectErrorResponse(await explain(store, { fact: '[:a, :p, :b]', 'max-distance-from-root': '-1' }), 400, 'BadRequestError')).to.contain('max-distance-from-root');
    expect(await expectErrorResponse(await explain(store, { fact: '[:a, :p, :b]', 'max-rule-instances-per-fact': 'x' }), 400, 'BadRequestError')).to.contain('max-rule-instances-per-fact');
    await expectErrorResponse(await explain('no-such-store', { fact: '[:a, :p, :b]' }), 404);
  });

  it('needs read access to the store', async () => {
    const store = await familyStore();
    await env.connection.createRole('outsider', 'outsider-secret');
    await expectErrorResponse(await env.fetch(`/datastores/${store}/explanation?fact=${encodeURIComponent('[:a, :p, :b]')}`, { as: { role: 'outsider', password: 'outsider-secret' } }), 403);
    env.connection.grantPrivileges('outsider', `>datastores|${store}`, 'read');
    const res = await env.fetch(`/datastores/${store}/explanation?fact=${encodeURIComponent('[:a, :p, :b]')}`, { as: { role: 'outsider', password: 'outsider-secret' } });
    expect(res.status).to.equal(200);
    expect(((await res.json()) as ExplanationJson).facts['0']!.type).to.equal('explicit');
  });
});
