import { expect } from 'chai';
import { ConnectionFactory, type DataStoreConnection, type DeltaQueryEvent, type DeltaQueryWatch } from '../../lib/index.js';
import { useServer } from '../helpers/server.js';

const E = 'http://example.com/';
const LIMIT_MS = 1000;

/** Facts `:a<i> :p :b<i>` for i < n, as N-Triples. */
function pFacts(n: number): string {
  let text = '';
  for (let i = 0; i < n; i++) text += `<${E}a${i}> <${E}p> <${E}b${i}> .\n`;
  return text;
}

/** The events of a watch until it ends, and the error it ends with. */
async function drain(watch: DeltaQueryWatch, until: (events: DeltaQueryEvent[]) => boolean = () => false): Promise<{ events: DeltaQueryEvent[]; error: Error | undefined }> {
  const events: DeltaQueryEvent[] = [];
  try {
    for await (const event of watch) {
      events.push(event);
      if (until(events)) return { events, error: undefined };
    }
  } catch (e) {
    return { events, error: e as Error };
  }
  return { events, error: undefined };
}

/** The first watch event, once it has come. */
async function firstEvent(watch: DeltaQueryWatch): Promise<DeltaQueryEvent> {
  const next = await watch.next();
  if (next.done) throw new Error('the watch ended before its first event');
  return next.value;
}

describe('server: the time limit of delta query evaluations', function () {
  this.timeout(120_000);
  const env = useServer('delta-query-limits', { 'query-time-limit': String(LIMIT_MS) });

  async function store(): Promise<DataStoreConnection> {
    const ds = await env.newStore();
    await ds.setPrefix(':', E);
    await ds.importData('ADD', pFacts(300), { mediaType: 'application/n-triples' });
    await ds.registerDeltaQuery('small', 'SELECT * WHERE { ?x :q ?y }');
    return ds;
  }

  it('fails a query whose first answer runs past query-time-limit, naming it and the limit; the other queries go on', async () => {
    const ds = await store();
    // a re-run query over a cross product of 300^4 solutions
    await ds.registerDeltaQuery('cross', 'SELECT (COUNT(*) AS ?n) WHERE { ?a :p ?b . ?c :p ?d . ?e :p ?f . ?g :p ?h }');
    await ds.importData('ADD', `<${E}x> <${E}q> <${E}y> .`);
    const answers = await ds.getDeltaQueryAnswers('small');
    expect(answers.find((a) => a.type === 'additions')?.rows.map((r) => r.map((t) => t?.value))).to.deep.equal([[`${E}x`, `${E}y`]]);
    const described = await ds.describeDeltaQuery('cross');
    expect(described.error).to.match(new RegExp(`delta query 'cross' was stopped at version \\d+: .*query-time-limit of ${LIMIT_MS} ms`));
    expect((await ds.describeDeltaQuery('small')).error).to.equal(undefined);
    const { events, error } = await drain(ds.watch('cross'));
    expect(events).to.deep.equal([]);
    expect(error?.message).to.equal(described.error);
  });

  it("fails a query whose changes at a commit run past query-time-limit; its watches end with the error, the other queries and later commits go on", async () => {
    const ds = await store();
    // incremental: empty until an :r fact comes, whose seed then joins a cross product of 300^3 (the filter holds for none)
    await ds.registerDeltaQuery('seeded', 'SELECT * WHERE { ?s :r ?t . ?a :p ?b . ?c :p ?d . ?e :p ?f FILTER(CONCAT(STR(?b), STR(?d), STR(?f)) = "never") }');
    expect((await ds.describeDeltaQuery('seeded')).computation).to.equal('incremental');
    const watch = ds.watch('seeded');
    const smallWatch = ds.watch('small');
    expect(await firstEvent(watch)).to.include({ kind: 'answer' });
    expect(await firstEvent(smallWatch)).to.include({ kind: 'answer' });

    await ds.importData('ADD', `<${E}s> <${E}r> <${E}t> . <${E}x> <${E}q> <${E}y> .`);
    // waits until the changes of the commit are computed
    const version = (await ds.getDeltaQueryAnswers('small'))[0]!.version;
    const { error } = await drain(watch);
    expect(error?.message).to.match(new RegExp(`delta query 'seeded' was stopped at version ${version}: .*query-time-limit of ${LIMIT_MS} ms`));
    expect((await ds.describeDeltaQuery('seeded')).error).to.equal(error?.message);

    await ds.importData('ADD', `<${E}x2> <${E}q> <${E}y2> .`);
    const small = await drain(smallWatch, (events) => events.length === 2);
    expect(small.events.map((e) => (e.kind === 'change' ? e.additions.map((r) => r.map((t) => t?.value)) : e.kind))).to.deep.equal([
      [[`${E}x`, `${E}y`]],
      [[`${E}x2`, `${E}y2`]],
    ]);
    smallWatch.close();
    // the failed query stays failed: later commits skip it
    expect((await ds.describeDeltaQuery('seeded')).version).to.equal(version - 1);
  });

  it('ends a new watch of a registered query with the error when its first answer cannot be computed', async () => {
    const ds = await env.newStore();
    await ds.setPrefix(':', E);
    await ds.importData('ADD', `<${E}x> <${E}q> <${E}y> .`);
    await env.connection.createRole('visitor', 'pw');
    env.connection.grantPrivileges('visitor', `>datastores|${ds.dataStoreName}`, ['read', 'write']);
    const visitor = await ConnectionFactory.newDataStoreConnection(env.url, ds.dataStoreName, 'visitor', 'pw');
    await visitor.registerDeltaQuery('theirs', 'SELECT * WHERE { ?x :q ?y }');
    await visitor.getDeltaQueryAnswers('theirs');
    visitor.close();
    // the role the answers obey is gone: a watch started now cannot compute the whole answer
    env.connection.deleteRole('visitor');
    const { events, error } = await drain(ds.watch('theirs'));
    expect(events).to.deep.equal([]);
    expect(error?.message).to.include('visitor');
  });
});
