import { expect } from 'chai';
import type { ComponentInfoRow, DataStoreConnection } from '../../lib/index.js';
import { type Component, componentRows } from '../../lib/server/component-info.js';
import { useServer } from '../helpers/server.js';

/** One component gathered from the rows: its id and its properties in order. */
interface Gathered {
  readonly id: number;
  readonly properties: Array<[string, string | number | boolean]>;
}

function gather(rows: readonly ComponentInfoRow[]): Gathered[] {
  const byId = new Map<number, Gathered>();
  for (const r of rows) {
    let c = byId.get(r.componentId);
    if (!c) {
      c = { id: r.componentId, properties: [] };
      byId.set(r.componentId, c);
    }
    c.properties.push([r.property, r.value]);
  }
  return [...byId.values()];
}

function prop(c: Gathered, name: string): string | number | boolean | undefined {
  return c.properties.find(([p]) => p === name)?.[1];
}

/** Checks the structural rules every component table obeys; returns the components. */
function checkStructure(rows: readonly ComponentInfoRow[]): Gathered[] {
  const components = gather(rows);
  // ids are 1..n, each component's rows contiguous, in increasing order
  expect(components.map((c) => c.id)).to.deep.equal(components.map((_, i) => i + 1));
  const order = rows.map((r) => r.componentId);
  expect(order).to.deep.equal([...order].sort((a, b) => a - b));
  for (const c of components) {
    expect(c.properties[0]![0], `component ${c.id} starts with its name`).to.equal('Component name');
    expect(c.properties.filter(([p]) => p === 'Component name')).to.have.length(1);
    const parents = c.properties.filter(([p]) => p === 'Parent component ID');
    if (c.id === 1) {
      expect(parents, 'the root has no parent').to.have.length(0);
    } else {
      expect(parents, `component ${c.id} has one parent`).to.have.length(1);
      const parent = parents[0]![1];
      expect(parent).to.be.a('number');
      expect(parent).to.be.lessThan(c.id);
      expect(components.some((o) => o.id === parent)).to.equal(true);
    }
  }
  // depth-first: a component's parent is the nearest earlier component that is an ancestor
  // chain member, i.e. the parent of c+1 is c or an ancestor of c
  const parentOf = new Map<number, number>();
  for (const c of components) if (c.id > 1) parentOf.set(c.id, prop(c, 'Parent component ID') as number);
  for (const c of components) {
    if (c.id === 1) continue;
    const p = parentOf.get(c.id)!;
    let a: number | undefined = c.id - 1;
    while (a !== undefined && a !== p) a = parentOf.get(a);
    expect(a, `parent ${p} of component ${c.id} is on the path from the root to component ${c.id - 1}`).to.equal(p);
  }
  return components;
}

describe('component information', () => {
  describe('componentRows', () => {
    const leaf = (name: string, properties: Array<[string, string | number | boolean]> = []): Component => ({ name, properties, children: [] });

    it('numbers components depth-first from 1 and links children to parents', () => {
      const tree: Component = {
        name: 'root',
        properties: [['size', 3]],
        children: [{ name: 'a', properties: [['flag', true]], children: [leaf('a1'), leaf('a2', [['x', 'y']])] }, leaf('b')],
      };
      expect(componentRows(tree)).to.deep.equal([
        { componentId: 1, property: 'Component name', value: 'root' },
        { componentId: 1, property: 'size', value: 3 },
        { componentId: 2, property: 'Component name', value: 'a' },
        { componentId: 2, property: 'Parent component ID', value: 1 },
        { componentId: 2, property: 'flag', value: true },
        { componentId: 3, property: 'Component name', value: 'a1' },
        { componentId: 3, property: 'Parent component ID', value: 2 },
        { componentId: 4, property: 'Component name', value: 'a2' },
        { componentId: 4, property: 'Parent component ID', value: 2 },
        { componentId: 4, property: 'x', value: 'y' },
        { componentId: 5, property: 'Component name', value: 'b' },
        { componentId: 5, property: 'Parent component ID', value: 1 },
      ]);
    });

    it('gives a lone root one row and no parent', () => {
      expect(componentRows(leaf('only'))).to.deep.equal([{ componentId: 1, property: 'Component name', value: 'only' }]);
    });
  });

  describe('of a data store', () => {
    const env = useServer('component-info');
    let ds: DataStoreConnection;

    before(async () => {
      ds = await env.newStore('ci-store', 'parallel-nn', { 'by-levels': 'false' });
      await ds.createTupleTable('Pairs', { arity: '2' });
      const r = await ds.importData(
        'ADD',
        [
          '<http://example.com/a> <http://example.com/p> <http://example.com/b> .',
          '<http://example.com/b> <http://example.com/p> <http://example.com/c> .',
          '<http://example.com/c> <http://example.com/p> "x" .',
          '<http://example.com/a> <http://example.com/p> <http://example.com/b> <http://example.com/g1> .',
          '<http://example.com/a> <http://example.com/p> <http://example.com/b> <http://example.com/g2> .',
        ].join('\n'),
      );
      expect(r.errors, r.text).to.equal(0);
    });

    function tables(components: readonly Gathered[]): Map<string, Gathered> {
      return new Map(components.filter((c) => prop(c, 'Component name') === 'Tuple table').map((c) => [String(prop(c, 'Name')), c]));
    }

    it('short: the store is the root, with parameters and every tuple table as children', async () => {
      const components = checkStructure(await ds.getComponentInfo());
      const root = components[0]!;
      expect(prop(root, 'Component name')).to.equal('Data store');
      expect(prop(root, 'Name')).to.equal('ci-store');
      expect(prop(root, 'Unique ID')).to.equal(ds.uniqueId);
      expect(prop(root, 'Number of facts')).to.equal(5);
      const parameters = components.find((c) => prop(c, 'Component name') === 'Parameters')!;
      expect(prop(parameters, 'Parent component ID')).to.equal(1);
      expect(prop(parameters, 'by-levels')).to.equal('false');
      const t = tables(components);
      expect([...t.keys()]).to.deep.equal(['DefaultTriples', 'Quads', 'Pairs']);
      for (const table of t.values()) expect(prop(table, 'Parent component ID')).to.equal(1);
    });

    it('counts facts per tuple table', async () => {
      const t = tables(checkStructure(await ds.getComponentInfo()));
      expect(prop(t.get('DefaultTriples')!, 'Number of facts')).to.equal(3);
      expect(prop(t.get('DefaultTriples')!, 'Number of explicit facts')).to.equal(3);
      expect(prop(t.get('DefaultTriples')!, 'Number of derived facts')).to.equal(0);
      expect(prop(t.get('DefaultTriples')!, 'Arity')).to.equal(3);
      expect(prop(t.get('Quads')!, 'Number of facts')).to.equal(2);
      expect(prop(t.get('Quads')!, 'Arity')).to.equal(4);
      expect(prop(t.get('Pairs')!, 'Number of facts')).to.equal(0);
      expect(prop(t.get('Pairs')!, 'Arity')).to.equal(2);
    });

    it('extended adds detail but keeps the short rows and the structure', async () => {
      const short = await ds.getComponentInfo(false);
      const extended = await ds.getComponentInfo(true);
      expect(extended.length).to.be.greaterThan(short.length);
      checkStructure(extended);
      // every short row is in the extended answer for the same component
      for (const r of short) expect(extended).to.deep.include(r);
      const t = tables(gather(extended));
      expect(prop(t.get('DefaultTriples')!, 'Bytes')).to.be.a('number');
    });

    it('follows deletions', async () => {
      const other = await env.newStore();
      await other.importData('ADD', '<http://example.com/a> <http://example.com/p> <http://example.com/b> .\n<http://example.com/a> <http://example.com/p> <http://example.com/c> .');
      await other.importData('DELETE', '<http://example.com/a> <http://example.com/p> <http://example.com/b> .');
      const t = tables(checkStructure(await other.getComponentInfo()));
      expect(prop(t.get('DefaultTriples')!, 'Number of facts')).to.equal(1);
    });

    it('reports what the last reasoning run did: facts derived anew, derivations, and derivations per new fact', async () => {
      const store = await env.newStore();
      const before = checkStructure(await store.getComponentInfo());
      expect(before.some((c) => prop(c, 'Component name') === 'Last reasoning run'), 'no run yet').to.equal(false);
      // a chain a→b→c→d: the closure derives 3 new facts; [a,c] has two derivations (a→b→c and a→c via anc∘par)
      await store.importData('ADD', ['a b', 'b c', 'c d'].map((e) => `<http://e/${e[0]}> <http://e/par> <http://e/${e[2]}> .`).join('\n'));
      await store.importData('ADD', '[?x, <http://e/anc>, ?y] :- [?x, <http://e/par>, ?y] .\n[?x, <http://e/anc>, ?z] :- [?x, <http://e/anc>, ?y], [?y, <http://e/par>, ?z] .\n', { mediaType: 'application/x.datalog' });
      const run = checkStructure(await store.getComponentInfo()).find((c) => prop(c, 'Component name') === 'Last reasoning run')!;
      expect(prop(run, 'Parent component ID')).to.equal(1);
      expect(prop(run, 'Facts derived anew')).to.equal(6);
      expect(prop(run, 'Facts deleted')).to.equal(0);
      // anc: 3 from par, then 3 by the recursive rule (a→c, b→d, a→d), each found once
      expect(prop(run, 'Derivations')).to.equal(6);
      expect(prop(run, 'Derivations per new fact')).to.equal(1);
      expect(prop(run, 'Seconds')).to.be.a('number');
      await store.importData('DELETE', '<http://e/b> <http://e/par> <http://e/c> .');
      const after = gather(await store.getComponentInfo()).find((c) => prop(c, 'Component name') === 'Last reasoning run')!;
      // the fact itself, and anc(b,c), anc(a,c), anc(b,d), anc(a,d), go
      expect(prop(after, 'Facts deleted')).to.equal(5);
      expect(prop(after, 'Facts derived anew')).to.equal(0);
    });

    it('of the server: the server is the root and each store is a subtree', () => {
      const rows = env.connection.getComponentInfo();
      const components = checkStructure(rows);
      expect(prop(components[0]!, 'Component name')).to.equal('Server');
      const stores = components.filter((c) => prop(c, 'Component name') === 'Data store');
      expect(stores.map((c) => prop(c, 'Name'))).to.deep.equal(env.connection.listDataStores());
      expect(prop(components[0]!, 'Number of data stores')).to.equal(stores.length);
      for (const s of stores) expect(prop(s, 'Parent component ID')).to.equal(1);
      checkStructure(env.connection.getComponentInfo(true));
    });
  });
});
