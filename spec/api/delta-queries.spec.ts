import { expect } from 'chai';
import { ConnectionFactory, type DeltaQueryEvent } from '../../lib/index.js';
import { rejectionOf, useServer } from '../helpers/server.js';

const PREFIXES = '@prefix : <http://e/> .\n';
const show = (rows: ReadonlyArray<ReadonlyArray<{ value: string } | undefined>>): string[] => rows.map((r) => r.map((t) => t?.value ?? '-').join(' ')).sort();

describe('api: delta queries', function () {
  this.timeout(60_000);
  const env = useServer('delta-queries');

  it('registers a query, computes the changes of each commit (reasoning included), and deregisters it', async () => {
    const ds = await env.newStore();
    await ds.setPrefix(':', 'http://e/');
    await ds.importData('ADD', `${PREFIXES}:a :parent :b .`);
    await ds.importData('ADD', '[?x, :ancestor, ?y] :- [?x, :parent, ?y] . [?x, :ancestor, ?z] :- [?x, :parent, ?y], [?y, :ancestor, ?z] .', { mediaType: 'application/x.datalog' });
    const description = await ds.registerDeltaQuery('anc', 'SELECT * WHERE { ?x :ancestor ?y }');
    expect(description.computation).to.equal('incremental');
    expect(await ds.listDeltaQueries()).to.deep.equal(['anc']);
    await ds.importData('ADD', `${PREFIXES}:b :parent :c .`);
    const version = (await ds.describeDeltaQuery('anc')).version;
    let answers = await ds.getDeltaQueryAnswers('anc');
    expect(answers.map((a) => [a.type, show(a.rows)])).to.deep.equal([
      ['additions', ['http://e/a http://e/c', 'http://e/b http://e/c']],
      ['deletions', []],
    ]);
    await ds.importData('DELETE', `${PREFIXES}:a :parent :b .`);
    answers = await ds.getDeltaQueryAnswers('anc');
    expect(answers.map((a) => [a.type, show(a.rows)])).to.deep.equal([
      ['additions', []],
      ['deletions', ['http://e/a http://e/b', 'http://e/a http://e/c']],
    ]);
    expect((await ds.describeDeltaQuery('anc')).version).to.be.greaterThan(version!);
    await ds.deregisterDeltaQuery('anc');
    expect(await ds.listDeltaQueries()).to.deep.equal([]);
    expect((await rejectionOf(ds.describeDeltaQuery('anc'))).message).to.match(/does not exist/);
  });

  it('re-runs a query that projects fewer variables and keeps its bag answer exactly', async () => {
    const ds = await env.newStore();
    await ds.setPrefix(':', 'http://e/');
    const description = await ds.registerDeltaQuery('p', 'SELECT ?x WHERE { ?x :p ?y }', { evaluationMode: 'snapshot' });
    expect(description.computation).to.equal('rerun');
    expect(description.rerunReason).to.match(/\?y is not projected/);
    await ds.importData('ADD', `${PREFIXES}:a :p :b , :c .`);
    const answers = await ds.getDeltaQueryAnswers('p');
    expect(answers.find((a) => a.type === 'snapshot')!.rows).to.have.length(2);
    expect(show(answers.find((a) => a.type === 'additions')!.rows)).to.deep.equal(['http://e/a', 'http://e/a']);
  });

  it('refuses to register without write on the delta query and hides named graphs the role may not read', async () => {
    const ds = await env.newStore();
    const name = ds.dataStoreName;
    const admin = env.connection;
    await admin.createRole('watcher', 'pw');
    admin.grantPrivileges('watcher', `|datastores|${name}`, ['read']);
    admin.grantPrivileges('watcher', `|datastores|${name}|tupletables|*`, ['read']);
    admin.grantPrivileges('watcher', `|datastores|${name}|namedgraphs|<http://e/open>`, ['read']);
    const sc = env.track(await ConnectionFactory.newServerConnection(env.url, 'watcher', 'pw'));
    const mine = env.track(sc.newDataStoreConnection(name));
    expect((await rejectionOf(mine.registerDeltaQuery('q', 'SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }'))).message).to.match(/no write access to '\|datastores\|.*\|deltaqueries\|q'/);
    admin.grantPrivileges('watcher', `|datastores|${name}|deltaqueries|q`, ['read', 'write']);
    await mine.registerDeltaQuery('q', 'SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }');
    await ds.importData('ADD', '<http://e/open> { <http://e/a> <http://e/p> <http://e/b> } <http://e/closed> { <http://e/a> <http://e/p> <http://e/c> }', { mediaType: 'application/trig' });
    const answers = await mine.getDeltaQueryAnswers('q');
    const added = answers.find((a) => a.type === 'additions')!.rows;
    expect(added.map((r) => r.map((t) => t!.value).sort().join(' '))).to.deep.equal(['http://e/a http://e/b http://e/open http://e/p']);
  });

  it('watches a query: the whole answer first, then each change; a slow consumer is resynchronised, commits never wait', async () => {
    const ds = await env.newStore();
    await ds.setPrefix(':', 'http://e/');
    await ds.importData('ADD', `${PREFIXES}:a :p 0 .`);
    const watch = ds.watch('SELECT * WHERE { ?s :p ?o }', { highWaterMark: 2 });
    const first = (await watch.next()).value as DeltaQueryEvent;
    expect(first.kind).to.equal('answer');
    expect(first.kind === 'answer' && first.missedFrom).to.equal(undefined);
    expect(first.kind === 'answer' && first.rows).to.have.length(1);
    const writer = ds.duplicate();
    await writer.importData('ADD', `${PREFIXES}:a :p 1 .`);
    const second = (await watch.next()).value as DeltaQueryEvent;
    expect(second.kind).to.equal('change');
    expect(second.kind === 'change' && show(second.additions)).to.deep.equal(['http://e/a 1']);
    // the consumer stops reading: ten commits go through, the buffer of two overflows
    for (let i = 2; i < 12; i++) await writer.importData('ADD', `${PREFIXES}:a :p ${i} .`);
    // reading again: the whole answer (with the first version missed), then the changes after it
    let answer = new Set<string>(['http://e/a 0', 'http://e/a 1']);
    let resynchronised: number | undefined;
    for await (const event of watch) {
      if (event.kind === 'answer') {
        resynchronised = event.missedFrom;
        answer = new Set(show(event.rows));
      } else {
        for (const row of show(event.deletions)) answer.delete(row);
        for (const row of show(event.additions)) answer.add(row);
      }
      if (answer.size === 12) break;
    }
    expect(resynchronised, 'the version from which changes were missed').to.be.a('number');
    expect(answer.size).to.equal(12);
    writer.close();
  });
});
