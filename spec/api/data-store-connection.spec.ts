import { expect } from 'chai';
import {
  BadRequestError,
  DuplicateResourceError,
  InterruptedError,
  InvalidConnectionError,
  type PropertyRow,
  ResourceInUseError,
  TransactionError,
  UnknownResourceError,
  type UpdateType,
} from '../../lib/index.js';
import { bigNTriples, expectError, nquadsOf, useServer } from '../helpers/server.js';
import { importFailure } from '../helpers/imports.js';

const EX = 'http://example.com/';
const DEFAULT_PREFIXES: ReadonlyArray<[string, string]> = [
  ['owl:', 'http://www.w3.org/2002/07/owl#'],
  ['rdf:', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#'],
  ['rdfs:', 'http://www.w3.org/2000/01/rdf-schema#'],
  ['rdfox:', 'https://rdfox.com/vocabulary#'],
  ['sh:', 'http://www.w3.org/ns/shacl#'],
  ['swrl:', 'http://www.w3.org/2003/11/swrl#'],
  ['swrlb:', 'http://www.w3.org/2003/11/swrlb#'],
  ['xsd:', 'http://www.w3.org/2001/XMLSchema#'],
];

function value(rows: readonly PropertyRow[], name: string): string {
  const row = rows.find((r) => r.property === name);
  expect(row, `property ${name}`).to.not.equal(undefined);
  return row!.value;
}

function triple(s: string, p: string, o: string): string {
  return `<${EX}${s}> <${EX}${p}> <${EX}${o}> .\n`;
}

/** RDFox's SHACL tables, built into every new store after SKOLEM (name, type, arities). */
const SHACL_TABLE_ROWS: Array<[string, string, number, number]> = [
  ['SHACL', 'builtin', 5, 6],
  ['SHACL_NN', 'builtin', 5, 6],
  ['SHACL_ND', 'builtin', 4, 5],
  ['SHACL_DN', 'builtin', 4, 5],
  ['SHACL_DD', 'builtin', 3, 4],
];
const SHACL_TABLE_NAMES = SHACL_TABLE_ROWS.map(([name]) => name);

describe('DataStoreConnection', () => {
  const env = useServer('data-store-connection');

  describe('properties', () => {
    it('are exactly the data store properties of the management interface, only base-iri mutable', async () => {
      const ds = await env.newStore(env.uniqueName('props'), 'parallel-nn', { 'by-levels': 'false', 'use-DRed': 'true' });
      const rows = await ds.getDataStoreProperties();
      // the fixed properties of the management interface, in order, with the creation
      // parameters (given ones and defaults) as parameters.<name> rows after data-store-version
      const parameterRows = rows.filter((r) => r.property.startsWith('parameters.'));
      expect(rows.map((r) => [r.property, r.mutable])).to.deep.equal([
        ['name', false],
        ['unique-id', false],
        ['data-store-version', false],
        ...parameterRows.map((r) => [r.property, false]),
        ['concurrent', false],
        ['equality-axiomatization', false],
        ['generation-counter', false],
        ['base-iri', true],
        ['requires-incremental-reasoning', false],
      ]);
      expect(parameterRows.map((r) => r.property)).to.include.members(['parameters.by-levels', 'parameters.use-DRed', 'parameters.equality']);
      expect(value(rows, 'name')).to.equal(ds.dataStoreName);
      expect(value(rows, 'unique-id')).to.equal(ds.uniqueId);
      expect(value(rows, 'parameters.by-levels')).to.equal('false');
      expect(value(rows, 'parameters.use-DRed')).to.equal('true');
      expect(value(rows, 'parameters.equality')).to.equal('off');
      expect(value(rows, 'concurrent')).to.equal('false');
      expect(value(rows, 'equality-axiomatization')).to.equal('off');
      expect(value(rows, 'generation-counter')).to.equal('0');
      expect(value(rows, 'requires-incremental-reasoning')).to.equal('false');
      expect(value(rows, 'base-iri')).to.equal(await ds.getBaseIRI());
    });

    it('unique ids differ between stores', async () => {
      const a = await env.newStore();
      const b = await env.newStore();
      expect(a.uniqueId).to.be.a('string').and.not.equal('');
      expect(a.uniqueId).to.not.equal(b.uniqueId);
    });

    it('data-store-version grows with each committed change, not with reads or failed imports', async () => {
      const ds = await env.newStore();
      const version = async (): Promise<number> => Number(value(await ds.getDataStoreProperties(), 'data-store-version'));
      const v0 = await version();
      await ds.importData('ADD', triple('a', 'p', 'b'));
      const v1 = await version();
      expect(v1).to.be.greaterThan(v0);
      await ds.exportDataToString('application/n-quads');
      await ds.countFacts();
      expect(await version()).to.equal(v1);
      const failed = await importFailure(ds.importData('ADD', `${triple('a', 'p', 'c')}<broken`, { mediaType: 'application/n-triples' }));
      expect(failed.errors).to.be.greaterThan(0);
      expect(await version()).to.equal(v1);
      await ds.importData('ADD', triple('a', 'p', 'c'));
      expect(await version()).to.be.greaterThan(v1);
    });

    it('generation-counter counts clears', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', triple('a', 'p', 'b'));
      await ds.clear();
      expect(value(await ds.getDataStoreProperties(), 'generation-counter')).to.equal('1');
      await ds.clear();
      expect(value(await ds.getDataStoreProperties(), 'generation-counter')).to.equal('2');
    });

    it('concurrent is true for the -nw and -ww types', async () => {
      const nw = await env.newStore(undefined, 'parallel-nw');
      const ww = await env.newStore(undefined, 'par-complex-ww');
      expect(value(await nw.getDataStoreProperties(), 'concurrent')).to.equal('true');
      expect(value(await ww.getDataStoreProperties(), 'concurrent')).to.equal('true');
    });

    it('setDataStoreProperty sets base-iri and refuses the others', async () => {
      const ds = await env.newStore();
      expect(await ds.setDataStoreProperty('base-iri', `${EX}base/`)).to.equal(true);
      expect(value(await ds.getDataStoreProperties(), 'base-iri')).to.equal(`${EX}base/`);
      const immutable = await expectError(ds.setDataStoreProperty('name', 'other'), BadRequestError);
      expect(immutable.message).to.contain("'name'");
      const unknown = await expectError(ds.setDataStoreProperty('colour', 'blue'), BadRequestError);
      expect(unknown.message).to.contain('unknown');
      expect(value(await ds.getDataStoreProperties(), 'name')).to.equal(ds.dataStoreName);
    });
  });

  describe('base IRI', () => {
    it('setBaseIRI reports whether the base IRI changed', async () => {
      const ds = await env.newStore();
      const initial = await ds.getBaseIRI();
      expect(initial).to.match(/^[a-z]+:\/\//);
      expect(await ds.setBaseIRI(initial)).to.equal(false);
      expect(await ds.setBaseIRI(`${EX}one/`)).to.equal(true);
      expect(await ds.setBaseIRI(`${EX}one/`)).to.equal(false);
      expect(await ds.getBaseIRI()).to.equal(`${EX}one/`);
    });

    it('rejects invalid IRIs and keeps the old one', async () => {
      const ds = await env.newStore();
      await ds.setBaseIRI(`${EX}kept/`);
      for (const bad of ['relative/path', '', 'http://example.com/with space', 'http://example.com/<x>']) {
        await expectError(ds.setBaseIRI(bad), BadRequestError);
      }
      expect(await ds.getBaseIRI()).to.equal(`${EX}kept/`);
    });

    it('resolves relative IRIs of Turtle imports', async () => {
      const ds = await env.newStore();
      await ds.setBaseIRI(`${EX}base/`);
      await ds.importData('ADD', '<a> <p> <../b> .', { mediaType: 'text/turtle' });
      expect(await nquadsOf(ds)).to.deep.equal([`<${EX}base/a> <${EX}base/p> <${EX}b> .`]);
    });
  });

  describe('prefixes', () => {
    it('start with owl, rdf, rdfs, rdfox, sh, swrl, swrlb and xsd', async () => {
      const ds = await env.newStore();
      const prefixes = await ds.getPrefixes();
      expect([...prefixes].sort()).to.deep.equal([...DEFAULT_PREFIXES].sort());
    });

    it('setPrefix and unsetPrefix report whether anything changed', async () => {
      const ds = await env.newStore();
      expect(await ds.setPrefix('ex:', EX)).to.equal(true);
      expect(await ds.setPrefix('ex:', EX)).to.equal(false);
      expect(await ds.setPrefix('ex:', `${EX}other#`)).to.equal(true);
      expect((await ds.getPrefixes()).get('ex:')).to.equal(`${EX}other#`);
      expect(await ds.setPrefix(':', `${EX}empty#`)).to.equal(true);
      expect((await ds.getPrefixes()).get(':')).to.equal(`${EX}empty#`);
      expect(await ds.unsetPrefix('ex:')).to.equal(true);
      expect(await ds.unsetPrefix('ex:')).to.equal(false);
      expect((await ds.getPrefixes()).has('ex:')).to.equal(false);
      expect(await ds.unsetPrefix('owl:')).to.equal(true);
      expect((await ds.getPrefixes()).has('owl:')).to.equal(false);
    });

    it('setPrefixes replaces all prefixes (from a Map or a record)', async () => {
      const ds = await env.newStore();
      await ds.setPrefixes(new Map([['a:', `${EX}a#`]]));
      expect([...(await ds.getPrefixes())]).to.deep.equal([['a:', `${EX}a#`]]);
      await ds.setPrefixes({ 'b:': `${EX}b#`, 'c:': `${EX}c#` });
      expect([...(await ds.getPrefixes())]).to.deep.equal([
        ['b:', `${EX}b#`],
        ['c:', `${EX}c#`],
      ]);
      await ds.setPrefixes({});
      expect((await ds.getPrefixes()).size).to.equal(0);
    });

    it('rejects invalid prefix names and IRIs and changes nothing', async () => {
      const ds = await env.newStore();
      for (const bad of ['ex', '1ex:', 'ex.:', '-ex:', 'e x:', 'ex::', '_:', '']) {
        const e = await expectError(ds.setPrefix(bad, EX), BadRequestError);
        expect(e.message).to.contain(`'${bad}'`);
      }
      await expectError(ds.unsetPrefix('rdf'), BadRequestError);
      await expectError(ds.setPrefix('ex:', 'not an iri'), BadRequestError);
      await expectError(ds.setPrefix('ex:', 'relative/'), BadRequestError);
      await expectError(ds.setPrefixes({ 'good:': EX, 'bad name:': EX }), BadRequestError);
      expect([...(await ds.getPrefixes())].sort()).to.deep.equal([...DEFAULT_PREFIXES].sort());
    });

    it('accepts prefix names with dots, dashes, digits and non-ASCII letters', async () => {
      const ds = await env.newStore();
      for (const good of ['a.b:', 'ex-1:', 'é:', 'x_y:']) expect(await ds.setPrefix(good, EX), good).to.equal(true);
    });

    it('apply to Turtle imports that do not declare them', async () => {
      const ds = await env.newStore();
      await ds.setPrefix('ex:', EX);
      const r = await ds.importData('ADD', 'ex:a ex:p ex:b ; rdf:type owl:Thing .', { mediaType: 'text/turtle' });
      expect(r.errors, r.text).to.equal(0);
      expect(r.rows.filter((row) => row.type === 'prefix'), 'store prefixes are not reported as found in the input').to.deep.equal([]);
      expect(await nquadsOf(ds)).to.deep.equal([
        `<${EX}a> <${EX}p> <${EX}b> .`,
        `<${EX}a> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/2002/07/owl#Thing> .`,
      ].sort());
    });

    it('a prefix the input redefines wins inside the input', async () => {
      const ds = await env.newStore();
      await ds.setPrefix('ex:', EX);
      const r = await ds.importData('ADD', '@prefix ex: <http://other.example/> .\nex:a ex:p ex:b .');
      expect(r.errors, r.text).to.equal(0);
      expect(await nquadsOf(ds)).to.deep.equal(['<http://other.example/a> <http://other.example/p> <http://other.example/b> .']);
      expect((await ds.getPrefixes()).get('ex:')).to.equal(EX);
    });

    it('ADDITION_UPDATE_PREFIXES adds the prefixes of the input to the store; ADD does not', async () => {
      const ds = await env.newStore();
      const input = `@prefix ex: <${EX}> .\n@prefix foaf: <http://xmlns.com/foaf/0.1/> .\nex:alice foaf:name "Alice" .`;
      const added = await ds.importData('ADD', input);
      expect(added.errors, added.text).to.equal(0);
      expect([...added.prefixes]).to.deep.equal([
        ['ex:', EX],
        ['foaf:', 'http://xmlns.com/foaf/0.1/'],
      ]);
      expect([...(await ds.getPrefixes())].sort()).to.deep.equal([...DEFAULT_PREFIXES].sort());

      const updated = await ds.importData('ADDITION_UPDATE_PREFIXES', input);
      expect(updated.errors, updated.text).to.equal(0);
      expect(updated.changedFacts).to.equal(0);
      const prefixes = await ds.getPrefixes();
      expect(prefixes.get('ex:')).to.equal(EX);
      expect(prefixes.get('foaf:')).to.equal('http://xmlns.com/foaf/0.1/');
      for (const [name, iri] of DEFAULT_PREFIXES) expect(prefixes.get(name)).to.equal(iri);
    });

    it('ADDITION_UPDATE_PREFIXES with errors changes neither facts nor prefixes', async () => {
      const ds = await env.newStore();
      const r = await importFailure(ds.importData('ADDITION_UPDATE_PREFIXES', `@prefix ex: <${EX}> .\nex:a ex:p ex:b .\nex:a ex:p .`));
      expect(r.errors).to.be.greaterThan(0);
      expect((await ds.getPrefixes()).has('ex:')).to.equal(false);
      expect(await ds.countFacts()).to.equal(0);
    });
  });

  describe('tuple tables', () => {
    it('lists DefaultTriples (arity 3), Quads (arity 4), the built-in SKOLEM (arity 1 and up) and the five SHACL tables in a new store', async () => {
      const ds = await env.newStore();
      expect(await ds.listTupleTables()).to.deep.equal([
        { name: 'DefaultTriples', type: 'memory', id: 1, minArity: 3, maxArity: 3 },
        { name: 'Quads', type: 'memory', id: 2, minArity: 4, maxArity: 4 },
        { name: 'SKOLEM', type: 'builtin', id: 3, minArity: 1, maxArity: 4294967295 },
        { name: 'SHACL', type: 'builtin', id: 4, minArity: 5, maxArity: 6 },
        { name: 'SHACL_NN', type: 'builtin', id: 5, minArity: 5, maxArity: 6 },
        { name: 'SHACL_ND', type: 'builtin', id: 6, minArity: 4, maxArity: 5 },
        { name: 'SHACL_DN', type: 'builtin', id: 7, minArity: 4, maxArity: 5 },
        { name: 'SHACL_DD', type: 'builtin', id: 8, minArity: 3, maxArity: 4 },
      ]);
    });

    it('creates, describes and deletes an in-memory table', async () => {
      const ds = await env.newStore();
      await ds.createTupleTable('Pairs', { arity: '2' });
      await ds.createTupleTable('Wide', { 'min-arity': '5', 'max-arity': '5', type: 'memory' });
      const listed = await ds.listTupleTables();
      expect(listed.map((t) => [t.name, t.type, t.minArity, t.maxArity])).to.deep.equal([
        ['DefaultTriples', 'memory', 3, 3],
        ['Quads', 'memory', 4, 4],
        ['SKOLEM', 'builtin', 1, 4294967295],
        ...SHACL_TABLE_ROWS,
        ['Pairs', 'memory', 2, 2],
        ['Wide', 'memory', 5, 5],
      ]);
      const ids = listed.map((t) => t.id);
      expect(new Set(ids).size, 'ids are unique').to.equal(ids.length);
      const pairs = listed.find((t) => t.name === 'Pairs')!;
      const described = await ds.describeTupleTable('Pairs');
      const get = (p: string): string | undefined => described.find((r) => r.property === p)?.value;
      expect(get('name')).to.equal('Pairs');
      expect(get('type')).to.equal('memory');
      expect(get('ID')).to.equal(String(pairs.id));
      expect(get('min-arity')).to.equal('2');
      expect(get('max-arity')).to.equal('2');
      const builtIn = await ds.describeTupleTable('Quads');
      expect(builtIn.find((r) => r.property === 'max-arity')?.value).to.equal('4');

      await ds.deleteTupleTable('Pairs');
      expect((await ds.listTupleTables()).map((t) => t.name)).to.deep.equal(['DefaultTriples', 'Quads', 'SKOLEM', ...SHACL_TABLE_NAMES, 'Wide']);
      await expectError(ds.describeTupleTable('Pairs'), UnknownResourceError);
    });

    it('the built-in SKOLEM: described, deleted, recreated with no parameters; its name is for nothing else; its facts are not counted', async () => {
      const ds = await env.newStore();
      const described = await ds.describeTupleTable('SKOLEM');
      expect(described).to.deep.equal([
        { property: 'name', value: 'SKOLEM' },
        { property: 'type', value: 'builtin' },
        { property: 'ID', value: '3' },
        { property: 'min-arity', value: '1' },
        { property: 'max-arity', value: '4294967295' },
      ]);
      await expectError(ds.countFacts({ tupleTable: 'SKOLEM' }), BadRequestError);
      await expectError(ds.createTupleTable('SKOLEM', {}), DuplicateResourceError);
      await ds.deleteTupleTable('SKOLEM');
      expect((await ds.listTupleTables()).map((t) => t.name)).to.deep.equal(['DefaultTriples', 'Quads', ...SHACL_TABLE_NAMES]);
      await expectError(ds.describeTupleTable('SKOLEM'), UnknownResourceError);
      const other = await expectError(ds.createTupleTable('SKOLEM', { arity: '2' }), BadRequestError);
      expect(other.message).to.contain("'SKOLEM' is the name of a built-in tuple table");
      await ds.createTupleTable('SKOLEM', {});
      const listed = await ds.listTupleTables();
      expect(listed.map((t) => [t.name, t.type, t.minArity, t.maxArity])).to.deep.equal([
        ['DefaultTriples', 'memory', 3, 3],
        ['Quads', 'memory', 4, 4],
        ...SHACL_TABLE_ROWS,
        ['SKOLEM', 'builtin', 1, 4294967295],
      ]);
      expect(listed.find((t) => t.name === 'SKOLEM')!.id).not.to.equal(3);
      const answer = await ds.evaluateQuery('SELECT ?e WHERE { TT SKOLEM { "x" ?e } }');
      expect(answer.type === 'bindings' && answer.rows.length).to.equal(1);
      // clearing the store leaves it (it holds no facts)
      await ds.clear();
      expect((await ds.listTupleTables()).map((t) => t.name)).to.include('SKOLEM');
    });

    it('is visible to other connections at once (not transactional)', async () => {
      const ds = await env.newStore();
      const other = env.track(ds.duplicate());
      await ds.createTupleTable('Shared', { arity: '1' });
      expect((await other.listTupleTables()).map((t) => t.name)).to.include('Shared');
    });

    it('reports errors: duplicate, unknown, built-in, missing or bad arity, bad parameters', async () => {
      const ds = await env.newStore();
      await ds.createTupleTable('T', { arity: '2' });
      await expectError(ds.createTupleTable('T', { arity: '2' }), DuplicateResourceError);
      await expectError(ds.createTupleTable('DefaultTriples', { arity: '3' }), DuplicateResourceError);
      await expectError(ds.deleteTupleTable('Missing'), UnknownResourceError);
      await expectError(ds.describeTupleTable('Missing'), UnknownResourceError);
      await expectError(ds.deleteTupleTable('DefaultTriples'), ResourceInUseError);
      await expectError(ds.deleteTupleTable('Quads'), ResourceInUseError);
      const missing = await expectError(ds.createTupleTable('U', {}), BadRequestError);
      expect(missing.message).to.contain('arity');
      await expectError(ds.createTupleTable('U', { arity: '0' }), BadRequestError);
      await expectError(ds.createTupleTable('U', { arity: 'two' }), BadRequestError);
      await expectError(ds.createTupleTable('U', { 'min-arity': '2', 'max-arity': '3' }), BadRequestError);
      await expectError(ds.createTupleTable('U', { arity: '2', type: 'postgres' }), BadRequestError);
      await expectError(ds.createTupleTable('U', { arity: '2', colour: 'red' }), BadRequestError);
      await expectError(ds.createTupleTable('bad name', { arity: '2' }), BadRequestError);
      expect((await ds.listTupleTables()).map((t) => t.name)).to.deep.equal(['DefaultTriples', 'Quads', 'SKOLEM', ...SHACL_TABLE_NAMES, 'T']);
    });

    it('cannot be created or deleted inside an open transaction', async () => {
      const ds = await env.newStore();
      await ds.createTupleTable('Existing', { arity: '1' });
      for (const type of ['read-write', 'read-only'] as const) {
        await ds.beginTransaction(type);
        await expectError(ds.createTupleTable('New', { arity: '1' }), TransactionError);
        await expectError(ds.deleteTupleTable('Existing'), TransactionError);
        await ds.rollbackTransaction();
      }
      expect((await ds.listTupleTables()).map((t) => t.name)).to.deep.equal(['DefaultTriples', 'Quads', 'SKOLEM', ...SHACL_TABLE_NAMES, 'Existing']);
    });
  });

  describe('one call at a time', () => {
    const big = bigNTriples(300_000);

    it('a second call while an import runs fails at once with ResourceInUseError; the import completes', async () => {
      const ds = await env.newStore();
      const running = ds.importData('ADD', big);
      let settled = false;
      void running.then(
        () => (settled = true),
        () => (settled = true),
      );
      const error = await expectError(ds.getPrefixes(), ResourceInUseError);
      expect(error.message).to.contain('importData');
      await expectError(ds.countFacts(), ResourceInUseError);
      await expectError(ds.importData('ADD', triple('x', 'y', 'z')), ResourceInUseError);
      await expectError(ds.beginTransaction(), ResourceInUseError);
      expect(settled, 'the import is still running when the other calls fail').to.equal(false);
      const result = await running;
      expect(result.errors, result.text).to.equal(0);
      expect(result.changedFacts).to.equal(300_000);
      expect(await ds.countFacts()).to.equal(300_000);
      // another connection is not blocked by the guard
      const other = env.track(ds.duplicate());
      expect(await other.countFacts()).to.equal(300_000);
    });

    it('interrupt() stops a running import with InterruptedError and leaves the store unchanged', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', triple('kept', 'p', 'o'));
      const before = await nquadsOf(ds);
      const running = ds.importData('ADD', big);
      setImmediate(() => ds.interrupt());
      await expectError(running, InterruptedError);
      expect(await nquadsOf(ds)).to.deep.equal(before);
      expect(await ds.countFacts()).to.equal(1);
      // the connection works again afterwards
      const r = await ds.importData('ADD', triple('after', 'p', 'o'));
      expect(r.changedFacts).to.equal(1);
    });

    it('interrupt() inside an explicit transaction undoes only the interrupted import', async () => {
      const ds = await env.newStore();
      await ds.beginTransaction('read-write');
      await ds.importData('ADD', triple('first', 'p', 'o'));
      const running = ds.importData('ADD', big);
      setTimeout(() => ds.interrupt(), 0);
      await expectError(running, InterruptedError);
      expect(ds.transactionType).to.equal('read-write');
      await ds.commitTransaction();
      expect(await nquadsOf(ds)).to.deep.equal([`<${EX}first> <${EX}p> <${EX}o> .`]);
    });

    it('interrupt() with nothing running does not affect the next call', async () => {
      const ds = await env.newStore();
      ds.interrupt();
      const r = await ds.importData('ADD', triple('a', 'p', 'b'));
      expect(r.changedFacts).to.equal(1);
    });
  });

  describe('connections', () => {
    it('duplicate() gives an independent working connection to the same store', async () => {
      const ds = await env.newStore();
      const copy = env.track(ds.duplicate());
      expect(copy).to.not.equal(ds);
      expect(copy.dataStoreName).to.equal(ds.dataStoreName);
      expect(copy.uniqueId).to.equal(ds.uniqueId);
      expect(copy.roleName).to.equal(ds.roleName);
      await copy.importData('ADD', triple('a', 'p', 'b'));
      expect(await ds.countFacts()).to.equal(1);
      // transactions are per connection
      await ds.beginTransaction('read-write');
      expect(copy.transactionType).to.equal(undefined);
      await ds.importData('ADD', triple('a', 'p', 'c'));
      expect(await copy.countFacts()).to.equal(1);
      await ds.commitTransaction();
      expect(await copy.countFacts()).to.equal(2);
      // closing the copy leaves the original working
      copy.close();
      expect(await ds.countFacts()).to.equal(2);
      await expectError(copy.countFacts(), InvalidConnectionError);
    });

    it('close() rolls back the open transaction and later calls fail', async () => {
      const ds = await env.newStore();
      const conn = ds.duplicate();
      await conn.beginTransaction('read-write');
      await conn.importData('ADD', triple('a', 'p', 'b'));
      conn.close();
      expect(conn.isClosed).to.equal(true);
      await expectError(conn.importData('ADD', triple('a', 'p', 'b')), InvalidConnectionError);
      expect(await ds.countFacts()).to.equal(0);
      // the write lock was released: ds can write
      await ds.importData('ADD', triple('a', 'p', 'c'));
      expect(await ds.countFacts()).to.equal(1);
    });

    it('rejects an unknown update type', async () => {
      const ds = await env.newStore();
      await expectError(ds.importData('REPLACE' as UpdateType, triple('a', 'p', 'b')), BadRequestError);
      expect(await ds.countFacts()).to.equal(0);
    });
  });

  describe('clear, compact and counts', () => {
    it('clear() removes every fact of every table', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', `${triple('a', 'p', 'b')}<${EX}a> <${EX}p> <${EX}b> <${EX}g> .\n`);
      expect(await ds.countFacts()).to.equal(2);
      await ds.clear();
      expect(await ds.countFacts()).to.equal(0);
      expect(await ds.exportDataToString('application/n-quads')).to.equal('');
      // prefixes and base IRI stay
      expect([...(await ds.getPrefixes())].sort()).to.deep.equal([...DEFAULT_PREFIXES].sort());
      // the store is usable afterwards
      await ds.importData('ADD', triple('a', 'p', 'b'));
      expect(await ds.countFacts()).to.equal(1);
    });

    it('clear() inside a transaction is undone by rollback', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', triple('a', 'p', 'b'));
      await ds.beginTransaction();
      await ds.clear();
      expect(await ds.countFacts()).to.equal(0);
      await ds.rollbackTransaction();
      expect(await ds.countFacts()).to.equal(1);
    });

    it('compact() after deletes keeps the content', async () => {
      const ds = await env.newStore();
      let input = '';
      for (let i = 0; i < 2000; i++) input += `<${EX}s${i}> <${EX}p> "${i}" .\n<${EX}s${i}> <${EX}p> <${EX}g${i % 7}> <${EX}graph> .\n`;
      await ds.importData('ADD', input);
      let remove = '';
      for (let i = 0; i < 2000; i += 2) remove += `<${EX}s${i}> <${EX}p> "${i}" .\n<${EX}s${i}> <${EX}p> <${EX}g${i % 7}> <${EX}graph> .\n`;
      const deleted = await ds.importData('DELETE', remove);
      expect(deleted.changedFacts).to.equal(2000);
      const before = await nquadsOf(ds);
      expect(before).to.have.length(2000);
      await ds.compact();
      expect(await nquadsOf(ds)).to.deep.equal(before);
      expect(await ds.countFacts()).to.equal(2000);
      // deleted facts can be added again, existing ones are still recognised
      const again = await ds.importData('ADD', `<${EX}s0> <${EX}p> "0" .\n<${EX}s1> <${EX}p> "1" .\n`);
      expect(again.changedFacts).to.equal(1);
    });

    it('compact() keeps the view of an open read-only transaction', async () => {
      const ds = await env.newStore();
      const reader = env.track(ds.duplicate());
      await ds.importData('ADD', `${triple('a', 'p', 'b')}${triple('a', 'p', 'c')}`);
      await reader.beginTransaction('read-only');
      await ds.importData('DELETE', triple('a', 'p', 'b'));
      await ds.compact();
      expect(await reader.countFacts()).to.equal(2);
      await reader.commitTransaction();
      expect(await reader.countFacts()).to.equal(1);
    });

    it('compact() is refused inside a transaction', async () => {
      const ds = await env.newStore();
      await ds.beginTransaction();
      await expectError(ds.compact(), TransactionError);
      await ds.rollbackTransaction();
    });

    it('countFacts counts the default graph and named graphs, or one table, by fact domain', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', `${triple('a', 'p', 'b')}${triple('a', 'p', 'c')}<${EX}a> <${EX}p> <${EX}b> <${EX}g> .\n`);
      expect(await ds.countFacts()).to.equal(3);
      expect(await ds.countFacts({ tupleTable: 'DefaultTriples' })).to.equal(2);
      expect(await ds.countFacts({ tupleTable: 'Quads' })).to.equal(1);
      expect(await ds.countFacts({ factDomain: 'explicit' })).to.equal(3);
      expect(await ds.countFacts({ factDomain: 'derived' })).to.equal(0);
      await expectError(ds.countFacts({ factDomain: 'implicit' }), BadRequestError);
      await expectError(ds.countFacts({ tupleTable: 'Missing' }), UnknownResourceError);
    });
  });
});
