import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { DataFactory as N3, Parser, Store as N3Store } from 'n3';
import type * as RDF from '@rdfjs/types';
import { BadRequestError, type DataStoreConnection, InvalidConnectionError, N_TRIPLES, type QuadStream, TransactionError } from '../../lib/index.js';
import { connectionWith, expectError, useServer } from '../helpers/server.js';
import { comunicaEngine, shaclValidator } from '../helpers/rdfjs-packages.js';
import { LUBM, lubmQuery } from '../helpers/test-data.js';

const EX = 'http://example.com/';
const namedNode = (iri: string): RDF.NamedNode => N3.namedNode(`${EX}${iri}`);
const literal = (value: string, language?: string): RDF.Literal => N3.literal(value, language);
const defaultGraph = (): RDF.DefaultGraph => N3.defaultGraph();
const quad = (s: RDF.Quad_Subject, p: RDF.Quad_Predicate, o: RDF.Quad_Object, g?: RDF.Quad_Graph): RDF.Quad => N3.quad(s, p, o, g);

/** The quads of a stream, as N-Quads-like lines, sorted. */
async function linesOf(stream: AsyncIterable<RDF.Quad>): Promise<string[]> {
  const lines: string[] = [];
  for await (const q of stream) lines.push(text(q));
  return lines.sort();
}

/** A quad as a line (terms in angle brackets, literals quoted, `_:` blank nodes). */
function text(q: RDF.Quad): string {
  const term = (t: RDF.Term): string => (t.termType === 'NamedNode' ? `<${t.value}>` : t.termType === 'BlankNode' ? `_:${t.value}` : t.termType === 'Literal' ? `"${t.value}"${t.language ? `@${t.language}` : ''}` : '');
  return [term(q.subject), term(q.predicate), term(q.object), term(q.graph)].filter((t) => t !== '').join(' ');
}

const DATA = `@prefix ex: <${EX}> .
ex:ann ex:knows ex:bob ; ex:name "Ann"@en .
ex:bob ex:knows ex:cid .
ex:g1 { ex:ann ex:age "42" . }
ex:g2 { ex:bob ex:secret "hidden" . }
`;

describe('quadlog as an RDF/JS source', () => {
  const env = useServer('rdfjs-source');
  let ds: DataStoreConnection;
  beforeEach(async () => {
    ds = await env.newStore();
    await ds.importData('ADD', DATA, { mediaType: 'application/trig' });
  });

  describe('match()', () => {
    it('streams the quads matching a pattern, every graph when none is given', async () => {
      expect(await linesOf(ds.match())).to.deep.equal([
        `<${EX}ann> <${EX}age> "42" <${EX}g1>`,
        `<${EX}ann> <${EX}knows> <${EX}bob>`,
        `<${EX}ann> <${EX}name> "Ann"@en`,
        `<${EX}bob> <${EX}knows> <${EX}cid>`,
        `<${EX}bob> <${EX}secret> "hidden" <${EX}g2>`,
      ]);
      expect(await linesOf(ds.match(namedNode('ann')))).to.have.length(3);
      expect(await linesOf(ds.match(null, namedNode('knows')))).to.deep.equal([`<${EX}ann> <${EX}knows> <${EX}bob>`, `<${EX}bob> <${EX}knows> <${EX}cid>`]);
      expect(await linesOf(ds.match(undefined, undefined, literal('Ann', 'EN')))).to.deep.equal([`<${EX}ann> <${EX}name> "Ann"@en`]);
      expect(await linesOf(ds.match(namedNode('ann'), null, null, defaultGraph()))).to.have.length(2);
      expect(await linesOf(ds.match(null, null, null, namedNode('g1')))).to.deep.equal([`<${EX}ann> <${EX}age> "42" <${EX}g1>`]);
      // variables match anything; terms the store lacks, and literals as subjects, match nothing
      expect(await linesOf(ds.match(N3.variable('s'), namedNode('knows'), N3.variable('o')))).to.have.length(2);
      expect(await linesOf(ds.match(namedNode('nobody')))).to.deep.equal([]);
      expect(await linesOf(ds.match(literal('Ann')))).to.deep.equal([]);
    });

    it('is an RDF/JS Stream: data and end events, read(), and derived quads included', async () => {
      await ds.importData('ADD', `[?y, <${EX}knownBy>, ?x] :- [?x, <${EX}knows>, ?y] .`);
      const stream = ds.match(null, namedNode('knownBy'));
      const seen: RDF.Quad[] = [];
      stream.on('data', (q: RDF.Quad) => seen.push(q));
      await once(stream as unknown as NodeJS.EventEmitter, 'end');
      expect(seen.map(text).sort()).to.deep.equal([`<${EX}bob> <${EX}knownBy> <${EX}ann>`, `<${EX}cid> <${EX}knownBy> <${EX}bob>`]);
      expect(seen[0]!.graph.equals(defaultGraph())).to.equal(true);
      const pulled = ds.match(namedNode('bob'), namedNode('knows'));
      await once(pulled as unknown as NodeJS.EventEmitter, 'readable');
      expect(text(pulled.read()!)).to.equal(`<${EX}bob> <${EX}knows> <${EX}cid>`);
    });

    it('reads one snapshot, taken when it is called: later commits do not show', async () => {
      const stream = ds.match(null, namedNode('knows'));
      await ds.importData('ADD', `<${EX}cid> <${EX}knows> <${EX}dan> .`, { mediaType: N_TRIPLES });
      await ds.importData('DELETE', `<${EX}ann> <${EX}knows> <${EX}bob> .`, { mediaType: N_TRIPLES });
      expect(await linesOf(stream)).to.deep.equal([`<${EX}ann> <${EX}knows> <${EX}bob>`, `<${EX}bob> <${EX}knows> <${EX}cid>`]);
      expect(await linesOf(ds.match(null, namedNode('knows')))).to.deep.equal([`<${EX}bob> <${EX}knows> <${EX}cid>`, `<${EX}cid> <${EX}knows> <${EX}dan>`]);
    });

    it('reads lazily: the quads are made as the stream is read, and destroying it early is fine', async () => {
      const many = Array.from({ length: 20_000 }, (_, i) => quad(namedNode(`s${i}`), namedNode('p'), literal(String(i))));
      await ds.importData('ADD', many);
      const stream = ds.match(null, namedNode('p'));
      await once(stream as unknown as NodeJS.EventEmitter, 'readable');
      const buffered = (stream as unknown as { readableLength: number }).readableLength;
      expect(buffered).to.be.greaterThan(0).and.lessThan(2000);
      let n = 0;
      for await (const q of stream) if (q.termType === 'Quad' && ++n === 10) break;
      expect(n).to.equal(10);
      expect(await ds.countQuads(null, namedNode('p'))).to.equal(20_000);
    });

    it('inside a read/write transaction, gives the transaction’s quads', async () => {
      await ds.beginTransaction('read-write');
      await ds.importData('ADD', `<${EX}dan> <${EX}knows> <${EX}eve> .`, { mediaType: N_TRIPLES });
      expect(await linesOf(ds.match(namedNode('dan')))).to.deep.equal([`<${EX}dan> <${EX}knows> <${EX}eve>`]);
      expect(await ds.countQuads(namedNode('dan'))).to.equal(1);
      await ds.rollbackTransaction();
      expect(await linesOf(ds.match(namedNode('dan')))).to.deep.equal([]);
    });

    it('fails through the stream’s error event on a closed connection', async () => {
      const other = ds.duplicate();
      other.close();
      const stream: QuadStream = other.match();
      const [error] = (await once(stream as unknown as NodeJS.EventEmitter, 'error')) as [Error];
      expect(error).to.be.instanceOf(InvalidConnectionError);
    });

    it('counts quads by pattern', async () => {
      expect(await ds.countQuads()).to.equal(5);
      expect(await ds.countQuads(null, null, null, defaultGraph())).to.equal(3);
      expect(await ds.countQuads(namedNode('ann'))).to.equal(3);
      expect(await ds.countQuads(null, namedNode('knows'), namedNode('cid'))).to.equal(1);
      expect(await ds.countQuads(namedNode('nobody'))).to.equal(0);
    });
  });

  describe('privileges', () => {
    it('hides the named graphs the role may not read from match(), countQuads() and dataset views', async () => {
      const reader = await connectionWith(env, ds.dataStoreName, [
        ['|tupletables|DefaultTriples', 'read'],
        ['|tupletables|Quads', 'read'],
        [`|namedgraphs|<${EX}g1>`, 'read'],
      ]);
      const lines = await linesOf(reader.match());
      expect(lines).to.have.length(4);
      expect(lines.join('\n')).not.to.contain('hidden');
      expect(await linesOf(reader.match(null, null, null, namedNode('g2')))).to.deep.equal([]);
      expect(await reader.countQuads()).to.equal(4);
      await using view = await reader.dataset();
      expect(view.size).to.equal(4);
      expect(view.has(quad(namedNode('bob'), namedNode('secret'), literal('hidden'), namedNode('g2')))).to.equal(false);
      expect([...view.match(namedNode('bob'))].map(text)).to.deep.equal([`<${EX}bob> <${EX}knows> <${EX}cid>`]);
    });
  });

  describe('dataset(): a read-only DatasetCore view of a snapshot', () => {
    it('has size, has, match and iteration, on the snapshot taken when it was made', async () => {
      const view = await ds.dataset();
      try {
        await ds.importData('ADD', `<${EX}dan> <${EX}knows> <${EX}eve> .`, { mediaType: N_TRIPLES });
        expect(view.size).to.equal(5);
        expect([...view].map(text).sort()).to.deep.equal(await linesOf(ds.match(null, null, null, null)).then((all) => all.filter((l) => !l.includes('dan'))));
        expect(view.has(quad(namedNode('ann'), namedNode('name'), literal('Ann', 'en')))).to.equal(true);
        expect(view.has(quad(namedNode('ann'), namedNode('name'), literal('Ann', 'en'), namedNode('g1')))).to.equal(false);
        expect(view.has(quad(namedNode('dan'), namedNode('knows'), namedNode('eve')))).to.equal(false);
        const ann = view.match(namedNode('ann'));
        expect(ann.size).to.equal(3);
        expect(ann.match(null, namedNode('knows')).size).to.equal(1);
        expect(ann.match(namedNode('bob')).size).to.equal(0);
        expect(ann.has(quad(namedNode('bob'), namedNode('knows'), namedNode('cid')))).to.equal(false);
        expect([...view.match(null, null, null, namedNode('g1'))].map(text)).to.deep.equal([`<${EX}ann> <${EX}age> "42" <${EX}g1>`]);
        expect((await expectError(() => view.add(quad(namedNode('x'), namedNode('y'), namedNode('z'))), BadRequestError)).message).to.contain('read-only');
        expect((await expectError(() => view.delete(quad(namedNode('x'), namedNode('y'), namedNode('z'))), BadRequestError)).message).to.contain('read-only');
      } finally {
        view.close();
      }
      expect((await expectError(() => view.size, InvalidConnectionError)).message).to.contain('closed');
    });

    it('is closed by await using, and by closing its connection', async () => {
      let kept: Awaited<ReturnType<DataStoreConnection['dataset']>> | undefined;
      {
        await using view = await ds.dataset();
        kept = view;
        expect(view.size).to.equal(5);
      }
      await expectError(() => kept.size, InvalidConnectionError);
      const other = ds.duplicate();
      const view = await other.dataset();
      const sub = view.match(namedNode('ann'));
      other.close();
      await expectError(() => [...sub], InvalidConnectionError);
    });

    it('is refused inside a read/write transaction', async () => {
      await ds.beginTransaction('read-write');
      await expectError(ds.dataset(), TransactionError);
      await ds.rollbackTransaction();
    });

    it('is validated by shacl-engine', async () => {
      await ds.importData('ADD', `<${EX}eve> a <${EX}Person> ; <${EX}name> "Eve" .\n<${EX}ann> a <${EX}Person> .\n<${EX}ann> <${EX}knows> "not a node" .`, { mediaType: 'text/turtle' });
      const shapes = new N3Store(
        new Parser().parse(`@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix ex: <${EX}> .
          ex:PersonShape a sh:NodeShape ; sh:targetClass ex:Person ;
            sh:property [ sh:path ex:name ; sh:minCount 1 ] ;
            sh:property [ sh:path ex:knows ; sh:nodeKind sh:IRI ] .`),
      );
      const validator = await shaclValidator(shapes, N3);
      await using view = await ds.dataset();
      const report = await validator.validate({ dataset: view });
      expect(report.conforms).to.equal(false);
      // ann: no name is not a violation (she has one); "not a node" is
      const violations = report.results.map((r) => `${r.focusNode?.term.value} ${r.path?.[0]?.predicates[0]?.value}`);
      expect(violations).to.deep.equal([`${EX}ann ${EX}knows`]);
      await ds.importData('DELETE', `<${EX}ann> <${EX}knows> "not a node" .`, { mediaType: N_TRIPLES });
      await using after = await ds.dataset();
      expect((await validator.validate({ dataset: after })).conforms).to.equal(true);
      // the first view still reads its snapshot
      expect((await validator.validate({ dataset: view })).conforms).to.equal(false);
    });
  });

  describe('Comunica (@comunica/query-sparql-rdfjs) over match()', () => {
    it('answers every LUBM query on LUBM(1) as the published counts say (without reasoning)', async () => {
      const lubm = await env.newStore();
      await lubm.importData('ADD', gunzipSync(readFileSync(LUBM.lubm1)), { mediaType: N_TRIPLES });
      const rows = readFileSync(LUBM.answers, 'utf8').trim().split('\n').slice(1).map((r) => r.split('\t'));
      const engine = await comunicaEngine();
      for (const row of rows) {
        const n = Number(row[0]!.slice(1));
        const bindings = await engine.queryBindings(readFileSync(lubmQuery(n), 'utf8'), { sources: [lubm] });
        let count = 0;
        for await (const solution of bindings) count += solution.size >= 0 ? 1 : 0;
        expect(count, `Q${n}`).to.equal(Number(row[3]));
      }
    });
  });
});
