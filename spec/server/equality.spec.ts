import { expect } from 'chai';
import { RuleCompilationError } from '../../lib/index.js';
import { useServer } from '../helpers/server.js';
import { importFailure } from '../helpers/imports.js';

describe('server: equality (owl:sameAs)', () => {
  const env = useServer('equality');

  async function ask(ds: Awaited<ReturnType<typeof env.newStore>>, q: string): Promise<boolean> {
    const a = await ds.evaluateQuery(`PREFIX : <http://example.com/> PREFIX owl: <http://www.w3.org/2002/07/owl#> ASK { ${q} }`);
    return a.type === 'boolean' && a.value;
  }

  it('is off by default: owl:sameAs is an ordinary property', async () => {
    const ds = await env.newStore();
    await ds.importData('ADD', '@prefix : <http://example.com/> . :a owl:sameAs :b . :a :p :c .');
    expect(await ask(ds, ':b :p :c')).to.equal(false);
    const props = await ds.getDataStoreProperties();
    expect(props.find((r) => r.property === 'equality-axiomatization')!.value).to.equal('off');
  });

  it('noUNA: reflexive, symmetric, transitive and substitutive in every position; retracted when the sameAs goes', async () => {
    const ds = await env.newStore(undefined, undefined, { equality: 'noUNA' });
    expect((await ds.getDataStoreProperties()).find((r) => r.property === 'equality-axiomatization')!.value).to.equal('noUNA');
    const r = await ds.importData('ADD', '@prefix : <http://example.com/> . :a owl:sameAs :b . :b owl:sameAs :c . :a :p :x . :q owl:sameAs :p . :g { :a :r :y }');
    expect(r.errors, r.text).to.equal(0);
    expect(await ask(ds, ':c :p :x')).to.equal(true);
    expect(await ask(ds, ':c owl:sameAs :a')).to.equal(true);
    expect(await ask(ds, ':x owl:sameAs :x')).to.equal(true);
    expect(await ask(ds, ':a :q :x')).to.equal(true);
    expect(await ask(ds, 'GRAPH :g { :c :r :y }')).to.equal(true);
    await ds.importData('DELETE', '@prefix : <http://example.com/> . :b owl:sameAs :c .');
    expect(await ask(ds, ':c :p :x')).to.equal(false);
    expect(await ask(ds, ':b :p :x')).to.equal(true);
  });

  it('UNA: two distinct IRIs that are the same are a clash, visible to queries', async () => {
    const ds = await env.newStore(undefined, undefined, { equality: 'UNA' });
    await ds.importData('ADD', '@prefix : <http://example.com/> . :a owl:sameAs :b . :a :p :x .');
    expect(await ask(ds, ':a a owl:Nothing . :b a owl:Nothing')).to.equal(true);
    expect(await ask(ds, ':b :p :x')).to.equal(true);
  });

  it('rejects rules with NOT or AGGREGATE when equality is on, adding nothing', async () => {
    const ds = await env.newStore(undefined, undefined, { equality: 'noUNA' });
    const r = await importFailure(ds.importData('ADD', '@prefix : <http://example.com/> . [?x, :q, ?y] :- [?x, :p, ?y], NOT [?x, :r, ?y] .'));
    expect(r.errors).to.equal(1);
    expect(r.rows.find((x) => x.type === 'error')!.description).to.match(/NOT or AGGREGATE.*equality/);
    expect(r.changedRules).to.equal(0);
    void RuleCompilationError;
  });
});
