import { expect } from 'chai';
import { type ComponentInfoRow, ConnectionFactory } from '../../lib/index.js';
import { useServer } from '../helpers/server.js';

/** The components of some rows, each as its name and a map of its properties. */
function components(rows: readonly ComponentInfoRow[]): Array<{ id: number; name: string; props: Map<string, string | number | boolean> }> {
  const byId = new Map<number, { id: number; name: string; props: Map<string, string | number | boolean> }>();
  for (const r of rows) {
    let c = byId.get(r.componentId);
    if (!c) byId.set(r.componentId, (c = { id: r.componentId, name: '', props: new Map() }));
    if (r.property === 'Component name') c.name = String(r.value);
    else c.props.set(r.property, r.value);
  }
  return [...byId.values()];
}

/** The tuple table components by table name. */
function tables(rows: readonly ComponentInfoRow[], parent?: number): Map<string, Map<string, string | number | boolean>> {
  return new Map(components(rows).filter((c) => c.name === 'Tuple table' && (parent === undefined || c.props.get('Parent component ID') === parent)).map((c) => [String(c.props.get('Name')), c.props]));
}

const DATA = `<http://example.com/a> <http://example.com/p> <http://example.com/b> .
<http://example.com/a> <http://example.com/p> <http://example.com/c> .
<http://example.com/a> <http://example.com/q> <http://example.com/b> <http://example.com/g1> .
<http://example.com/a> <http://example.com/q> <http://example.com/c> <http://example.com/g2> .
<http://example.com/a> <http://example.com/q> <http://example.com/d> <http://example.com/g2> .
<http://example.com/a> <http://example.com/q> <http://example.com/e> <http://example.com/g2> .
`;

describe('api: component information shows only what the role may read', () => {
  const env = useServer('component-info-access');
  let counter = 0;

  /** A store with 2 default-graph facts, 1 fact in g1 and 3 in g2, an empty table T, and a role with the privileges `privileges(store)`. */
  async function prepare(privileges: (store: string) => ReadonlyArray<readonly [string, string]>): Promise<{ store: string; role: string }> {
    const store = `ci-${++counter}`;
    const admin = env.connection;
    admin.createDataStore(store);
    const ds = env.track(admin.newDataStoreConnection(store));
    await ds.importData('ADD', DATA, { mediaType: 'application/n-quads' });
    // a rule, so that the store has a last reasoning run to report
    await ds.importData('ADD', '[?x, <http://example.com/r>, ?y] :- [?x, <http://example.com/p>, ?y] .', { mediaType: 'application/x.datalog' });
    await ds.createTupleTable('T', { arity: '2' });
    const role = `${store}-reader`;
    await admin.createRole(role, 'pw');
    for (const [resource, access] of privileges(store)) admin.grantPrivileges(role, resource, access);
    return { store, role };
  }

  it('counts only the named graphs the role may read, and only the tables it may read', async () => {
    const { store, role } = await prepare((store) => [
      ['|datastores', 'read'],
      [`|datastores|${store}`, 'read'],
      [`|datastores|${store}|tupletables|Quads`, 'read'],
      [`|datastores|${store}|namedgraphs|<http://example.com/g1>`, 'read'],
    ]);
    const admin = env.track(env.connection.newDataStoreConnection(store));
    const full = await admin.getComponentInfo(true);
    const all = tables(full);
    expect(all.get('Quads')!.get('Number of facts')).to.equal(4);
    expect(all.get('DefaultTriples')!.get('Number of facts')).to.equal(4);
    expect(components(full).find((c) => c.name === 'Last reasoning run')!.props.get('Facts derived anew')).to.equal(2);

    const sc = env.track(await ConnectionFactory.newServerConnection(env.url, role, 'pw'));
    const ds = env.track(sc.newDataStoreConnection(store));
    for (const extended of [false, true]) {
      const rows = await ds.getComponentInfo(extended);
      const seen = tables(rows);
      // Quads: only the fact of g1
      expect(seen.get('Quads')!.get('Number of facts')).to.equal(1);
      expect(seen.get('Quads')!.get('Number of explicit facts')).to.equal(1);
      expect(seen.get('Quads')!.has('Rows (including deleted, not yet compacted)')).to.equal(false);
      // tables it may not read: their names only
      expect([...seen.get('DefaultTriples')!.keys()]).to.deep.equal(['Parent component ID', 'Name']);
      expect([...seen.get('T')!.keys()]).to.deep.equal(['Parent component ID', 'Name']);
      const root = components(rows).find((c) => c.id === 1)!;
      expect(root.props.get('Number of facts')).to.equal(1);
      expect(root.props.has('Bytes')).to.equal(false);
      const dictionary = components(rows).find((c) => c.name === 'Dictionary')!;
      expect(dictionary.props.has('Number of terms')).to.equal(false);
      // what reasoning derived counts facts of tables it may not read
      expect(components(rows).some((c) => c.name === 'Last reasoning run')).to.equal(false);
    }
  });

  it('a role that may read everything sees every figure', async () => {
    const { store, role } = await prepare(() => [['>datastores', 'read']]);
    const admin = env.track(env.connection.newDataStoreConnection(store));
    const sc = env.track(await ConnectionFactory.newServerConnection(env.url, role, 'pw'));
    const ds = env.track(sc.newDataStoreConnection(store));
    const strip = (rows: readonly ComponentInfoRow[]) => rows.filter((r) => r.property !== 'Bytes');
    expect(strip(await ds.getComponentInfo(true))).to.deep.equal(strip(await admin.getComponentInfo(true)));
  });

  it('the server’s component information: a store the role may not read by name only, the others as the role sees them', async () => {
    const { store, role } = await prepare((store) => [
      ['|', 'read'],
      ['|datastores', 'read'],
      [`|datastores|${store}`, 'read'],
      [`|datastores|${store}|tupletables|DefaultTriples`, 'read'],
    ]);
    const { store: hiddenStore } = await prepare(() => []);
    const sc = env.track(await ConnectionFactory.newServerConnection(env.url, role, 'pw'));
    const rows = sc.getComponentInfo();
    const stores = components(rows).filter((c) => c.name === 'Data store');
    const mine = stores.find((c) => c.props.get('Name') === store)!;
    const hidden = stores.find((c) => c.props.get('Name') === hiddenStore)!;
    expect([...hidden.props.keys()]).to.deep.equal(['Parent component ID', 'Name']);
    expect(components(rows).filter((c) => c.props.get('Parent component ID') === hidden.id)).to.deep.equal([]);
    // the default graph: its two facts and the two the rule derives from them
    expect(mine.props.get('Number of facts')).to.equal(4);
    const seen = tables(rows, mine.id);
    expect(seen.get('DefaultTriples')!.get('Number of facts')).to.equal(4);
    expect([...seen.get('Quads')!.keys()]).to.deep.equal(['Parent component ID', 'Name']);
    // the first role sees every store whole
    const whole = components(env.connection.getComponentInfo()).find((c) => c.name === 'Data store' && c.props.get('Name') === hiddenStore)!;
    expect(whole.props.get('Number of facts')).to.be.greaterThan(4);
  });
});
