import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Parser } from 'n3';
import { N_QUADS, type DataStoreConnection } from '../../lib/index.js';
import { ImportReport } from '../../lib/formats/notifications.js';
import { parseRdf, sniffContent, type ParseOptions } from '../../lib/formats/rdf-parse.js';
import { Interrupter } from '../../lib/model/control.js';
import { jsonLdContextLoader } from '../../lib/server/jsonld-contexts.js';
import { readPolicyOf } from '../../lib/server/read-policy.js';
import { importFailure } from '../helpers/imports.js';
import { isomorphic } from '../helpers/isomorphism.js';
import { useServer } from '../helpers/server.js';
import { chunkedText, keyedTermIds } from '../helpers/term-ids.js';

const JSON_LD = 'application/ld+json';
const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** Parses `text` with parseRdf; gives the statements as N-Quads-like key lines, the report and the number of batches. */
async function parse(text: string, extra: Partial<ParseOptions> = {}, chunkSize = 1 << 20): Promise<{ lines: string[]; report: ImportReport; batches: number }> {
  const ids = keyedTermIds();
  const report = new ImportReport();
  let fresh = 0;
  const parsed = parseRdf(await sniffContent(chunkedText(text, chunkSize)), ids, report, {
    mediaType: JSON_LD,
    baseIRI: 'http://base.example/doc',
    prefixes: new Map(),
    freshBlankNode: () => `f${++fresh}`,
    interrupter: new Interrupter(),
    ...extra,
  });
  const lines: string[] = [];
  let batches = 0;
  for await (const batch of parsed) {
    batches++;
    for (let i = 0; i < batch.count; i++) {
      const q = batch.quads;
      lines.push([0, 1, 2].map((k) => ids.keys[q[4 * i + k]!]).join(' ') + (q[4 * i + 3]! >= 0 ? ` ${ids.keys[q[4 * i + 3]!]}` : ''));
    }
  }
  return { lines, report, batches };
}

const errorRow = (report: ImportReport) => report.notifications.find((r) => r.type === 'error');

describe('JSON-LD import', () => {
  const env = useServer('jsonld-parse');
  const store = (): Promise<DataStoreConnection> => env.newStore();
  /** Imports `doc` into a fresh store and checks that the store holds exactly `expected` (N-Quads, blank nodes up to renaming). */
  async function expectImport(doc: string, expected: string, options: { mediaType?: string; baseIRI?: string } = { mediaType: JSON_LD }): Promise<DataStoreConnection> {
    const ds = await store();
    const r = await ds.importData('ADD', doc, options);
    expect(r.errors, r.text).to.equal(0);
    const exported = await ds.exportDataToString(N_QUADS);
    const actual = new Parser({ format: 'N-Quads' }).parse(exported);
    if (!isomorphic(actual, new Parser({ format: 'N-Quads' }).parse(expected))) expect.fail(`expected:\n${expected}\nactual:\n${exported}`);
    return ds;
  }

  describe('what a document says', () => {
    it('applies contexts: terms, @vocab, @base and relative IRIs, compact IRIs, nested and array contexts', async () => {
      await expectImport(
        JSON.stringify({
          '@context': [{ '@vocab': 'http://vocab.example/', '@base': 'http://people.example/' }, { foaf: 'http://xmlns.com/foaf/0.1/', nick: 'foaf:nick' }],
          '@id': 'alice',
          nick: 'al',
          age: 30,
          'foaf:knows': { '@context': { '@vocab': 'http://other.example/' }, '@id': 'bob', since: 2001 },
        }),
        `<http://people.example/alice> <http://xmlns.com/foaf/0.1/nick> "al" .
<http://people.example/alice> <http://vocab.example/age> "30"^^<${XSD}integer> .
<http://people.example/alice> <http://xmlns.com/foaf/0.1/knows> <http://people.example/bob> .
<http://people.example/bob> <http://other.example/since> "2001"^^<${XSD}integer> .
`,
      );
    });

    it("uses the store's prefixes as the root context, unless the document redefines them", async () => {
      const ds = await store();
      await ds.setPrefix('ex:', 'http://store.example/');
      const r = await ds.importData('ADD', JSON.stringify([{ '@id': 'ex:a', 'ex:p': { '@id': 'ex:b' } }, { '@context': { ex: 'http://doc.example/' }, '@id': 'ex:c', 'ex:p': 'x' }]), { mediaType: JSON_LD });
      expect(r.errors, r.text).to.equal(0);
      expect((await ds.exportDataToString(N_QUADS)).split('\n').filter((l) => l).sort()).to.deep.equal([
        '<http://doc.example/c> <http://doc.example/p> "x" .',
        '<http://store.example/a> <http://store.example/p> <http://store.example/b> .',
      ]);
    });

    it('puts @graph with an @id into that named graph, and a top-level @graph into the default graph', async () => {
      await expectImport(
        JSON.stringify({
          '@context': { '@vocab': 'http://ex/' },
          '@graph': [
            { '@id': 'http://ex/g1', '@graph': [{ '@id': 'http://ex/a', p: 'in g1' }], label: 'about g1' },
            { '@id': 'http://ex/b', p: 'in default' },
          ],
        }),
        `<http://ex/a> <http://ex/p> "in g1" <http://ex/g1> .
<http://ex/g1> <http://ex/label> "about g1" .
<http://ex/b> <http://ex/p> "in default" .
`,
      );
    });

    it('writes lists as rdf:first/rdf:rest chains, the empty list as rdf:nil', async () => {
      await expectImport(
        JSON.stringify({ '@id': 'http://ex/a', 'http://ex/l': { '@list': ['x', { '@id': 'http://ex/y' }] }, 'http://ex/e': { '@list': [] } }),
        `<http://ex/a> <http://ex/l> _:l1 .
_:l1 <${RDF_NS}first> "x" .
_:l1 <${RDF_NS}rest> _:l2 .
_:l2 <${RDF_NS}first> <http://ex/y> .
_:l2 <${RDF_NS}rest> <${RDF_NS}nil> .
<http://ex/a> <http://ex/e> <${RDF_NS}nil> .
`,
      );
    });

    it('reads languages (lower-cased), default languages, and base directions as i18n datatypes', async () => {
      await expectImport(
        JSON.stringify({
          '@context': { '@language': 'en-GB', name: 'http://ex/name' },
          '@id': 'http://ex/a',
          name: ['colour', { '@value': 'Farbe', '@language': 'DE' }, { '@value': 'لون', '@language': 'ar', '@direction': 'rtl' }, { '@value': 'plain', '@language': null }],
        }),
        `<http://ex/a> <http://ex/name> "colour"@en-gb .
<http://ex/a> <http://ex/name> "Farbe"@de .
<http://ex/a> <http://ex/name> "لون"^^<https://www.w3.org/ns/i18n#ar_rtl> .
<http://ex/a> <http://ex/name> "plain" .
`,
      );
    });

    it('coerces types: @type @id and datatypes in term definitions, native numbers and booleans, @type of nodes', async () => {
      await expectImport(
        JSON.stringify({
          '@context': { xsd: XSD, ex: 'http://ex/', link: { '@id': 'ex:link', '@type': '@id' }, born: { '@id': 'ex:born', '@type': 'xsd:date' } },
          '@id': 'ex:a',
          '@type': ['ex:Person', 'ex:Agent'],
          link: 'ex:b',
          born: '1990-01-01',
          'ex:n': 3,
          'ex:d': 2.5,
          'ex:t': true,
          'ex:typed': { '@value': '7', '@type': 'xsd:byte' },
        }),
        `<http://ex/a> <${RDF_NS}type> <http://ex/Person> .
<http://ex/a> <${RDF_NS}type> <http://ex/Agent> .
<http://ex/a> <http://ex/link> <http://ex/b> .
<http://ex/a> <http://ex/born> "1990-01-01"^^<${XSD}date> .
<http://ex/a> <http://ex/n> "3"^^<${XSD}integer> .
<http://ex/a> <http://ex/d> "2.5E0"^^<${XSD}double> .
<http://ex/a> <http://ex/t> "true"^^<${XSD}boolean> .
<http://ex/a> <http://ex/typed> "7"^^<${XSD}byte> .
`,
      );
    });

    it('keeps blank node labels (the same node across imports) and gives nodes without @id fresh labels', async () => {
      const ds = await store();
      const doc = JSON.stringify({ '@id': '_:b1', 'http://ex/p': { 'http://ex/q': 'v' } });
      await ds.importData('ADD', doc, { mediaType: JSON_LD });
      await ds.importData('ADD', doc, { mediaType: JSON_LD });
      const lines = (await ds.exportDataToString(N_QUADS)).split('\n').filter((l) => l);
      expect(lines.filter((l) => l.startsWith('_:b1 <http://ex/p> _:'))).to.have.length(2);
      expect(new Set(lines.map((l) => l.split(' ')[0])).size).to.equal(3);
    });

    it('renames an input label that equals a fresh label given earlier in the same input', async () => {
      const { lines } = await parse(JSON.stringify([{ 'http://ex/p': 'anonymous' }, { '@id': '_:f1', 'http://ex/p': 'labelled' }]));
      const subjects = lines.map((l) => l.split(' ')[0]);
      expect(subjects[0]).to.equal('_:f1');
      expect(subjects[1]).to.not.equal('_:f1');
    });

    it('is detected from its content without a stated type', async () => {
      await expectImport(JSON.stringify({ '@id': 'http://ex/a', 'http://ex/p': 'v' }), '<http://ex/a> <http://ex/p> "v" .\n', {});
    });

    it('reads a large document given in many chunks', async () => {
      const doc = JSON.stringify({ '@context': { ex: 'http://ex/' }, '@graph': Array.from({ length: 20_000 }, (_, i) => ({ '@id': `ex:s${i}`, 'ex:p': i })) });
      const { lines, report } = await parse(doc, {}, 1 << 12);
      expect(report.errors).to.equal(0);
      expect(lines).to.have.length(20_000);
      expect(lines[19_999]).to.equal(`<http://ex/s19999> <http://ex/p> "19999"^^<${XSD}integer>`);
    });
  });

  describe('streaming order', () => {
    /** A document whose top-level @context comes after the @graph it governs (valid JSON-LD, not in streaming order). */
    const CONTEXT_LAST = '{\n  "@graph": [{ "@id": "ex:a", "ex:p": "v" }],\n  "@context": { "ex": "http://ex/" }\n}';
    /** A node whose @type brings a type-scoped context after the property it governs. */
    const TYPE_SCOPED_LAST = JSON.stringify({
      '@context': { ex: 'http://ex/', Person: { '@id': 'ex:Person', '@context': { name: 'ex:fullName' } }, name: 'ex:name' },
      '@id': 'ex:a',
      name: 'Ann',
      '@type': 'Person',
    });

    it('hands the statements of a top-level array on while the input is still being read', async () => {
      const doc = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ '@context': { ex: 'http://ex/' }, '@id': `ex:s${i}`, 'ex:p': i })));
      let chunksRead = 0;
      async function* counted(): AsyncGenerator<Uint8Array> {
        for await (const chunk of chunkedText(doc, 1 << 12)) {
          chunksRead++;
          yield chunk;
        }
      }
      const total = Math.ceil(new TextEncoder().encode(doc).length / (1 << 12));
      const ids = keyedTermIds();
      const parsed = parseRdf(await sniffContent(counted()), ids, new ImportReport(), {
        mediaType: JSON_LD,
        baseIRI: 'http://base.example/doc',
        prefixes: new Map(),
        freshBlankNode: () => 'f',
        interrupter: new Interrupter(),
      });
      let readAtFirstBatch: number | undefined;
      let statements = 0;
      for await (const batch of parsed) {
        readAtFirstBatch ??= chunksRead;
        statements += batch.count;
      }
      expect(statements).to.equal(20_000);
      expect(readAtFirstBatch).to.be.below(total / 2);
    });

    it('reads a document out of streaming order again, buffered, when it is given as text, bytes or a file', async () => {
      await expectImport(CONTEXT_LAST, '<http://ex/a> <http://ex/p> "v" .');
      await expectImport(TYPE_SCOPED_LAST, '<http://ex/a> <http://ex/fullName> "Ann" .\n<http://ex/a> <' + RDF_NS + 'type> <http://ex/Person> .');
      const ds = await store();
      const r = await ds.importData('ADD', new TextEncoder().encode(CONTEXT_LAST), { mediaType: JSON_LD });
      expect([r.errors, r.changedFacts]).to.deep.equal([0, 1]);
    });

    it('keeps the earlier changes of an open transaction when it reads a document again', async () => {
      const ds = await store();
      await ds.beginTransaction('read-write');
      await ds.importData('ADD', '<http://ex/b> <http://ex/p> "w" .');
      const r = await ds.importData('ADD', CONTEXT_LAST, { mediaType: JSON_LD });
      expect([r.errors, r.changedFacts, r.processedFacts]).to.deep.equal([0, 1, 1]);
      await ds.commitTransaction();
      expect(await ds.countFacts()).to.equal(2);
    });

    it('refuses a document out of streaming order read from a stream, at the entry out of order, and changes nothing', async () => {
      const ds = await store();
      const r = await importFailure(ds.importData('ADD', chunkedText(CONTEXT_LAST, 7), { mediaType: JSON_LD }));
      const row = r.rows.find((x) => x.type === 'error')!;
      expect(row.description).to.match(/^the JSON-LD document puts an @context after other entries of its object, which a stream cannot be read with/);
      expect(row.line).to.equal(3);
      const typed = await importFailure(ds.importData('ADD', chunkedText(TYPE_SCOPED_LAST, 7), { mediaType: JSON_LD }));
      expect(typed.rows.find((x) => x.type === 'error')!.description).to.match(/^the JSON-LD document puts an @type with a type-scoped context after other entries/);
      expect(await ds.countFacts()).to.equal(0);
    });
  });

  describe('errors', () => {
    it('gives the line and column of a JSON syntax error, wherever the chunks are cut, and changes nothing', async () => {
      const doc = '{\n  "@id": "http://ex/a",\n  "http://ex/p": "v",\n  "http://ex/q": tru\n}';
      for (const size of [1, 5, 1000]) {
        const { report } = await parse(doc, {}, size);
        expect(report.errors).to.equal(1);
        expect(errorRow(report), `chunks of ${size}`).to.include({ line: 4, column: 21 });
        expect(errorRow(report)!.description).to.match(/^invalid JSON: unexpected character/);
      }
      const ds = await store();
      const r = await importFailure(ds.importData('ADD', doc, { mediaType: JSON_LD }));
      expect(r.rows.find((row) => row.type === 'error')).to.include({ line: 4, column: 21 });
      expect(await ds.countFacts()).to.equal(0);
    });

    it('gives the position of a token out of place, and says when the document is not closed', async () => {
      const misplaced = await parse('{"@id": "http://ex/a",\n "http://ex/p" "v"}');
      expect(errorRow(misplaced.report)).to.include({ line: 2 });
      expect(errorRow(misplaced.report)!.column).to.be.within(14, 18);
      const unclosed = await parse('{"@id": "http://ex/a", "http://ex/p": "v"');
      expect(errorRow(unclosed.report)!.description).to.equal('invalid JSON: the JSON document is not closed');
    });

    it('names the JSON-LD error code of a document that is JSON but not JSON-LD', async () => {
      const { report } = await parse('[{"@id": 5}]');
      expect(errorRow(report)!.description).to.equal("Found illegal @id '5' (JSON-LD error: invalid @id value)");
    });

    it('quotes nothing of content that is not shown', async () => {
      const secret = 'SECRET-VALUE';
      const syntax = await parse(`{"@id": "${secret}",, }`, { showContent: false });
      expect(errorRow(syntax.report)!.description).to.not.contain(secret);
      expect(errorRow(syntax.report)!.line).to.equal(1);
      const semantic = await parse(`{"@id": "http://ex/a", "@type": {"${secret}": 1}}`, { showContent: false });
      expect(errorRow(semantic.report)!.description).to.match(/^the content is not valid JSON-LD: /);
      expect(errorRow(semantic.report)!.description).to.not.contain(secret);
    });
  });

  describe('remote contexts', () => {
    let http: HttpServer;
    let base: string;
    let requests = 0;
    const CONTEXT = { '@context': { name: 'http://schema.example/name' } };

    before(async () => {
      http = createServer((req, res) => {
        requests++;
        if (req.url === '/ctx.jsonld') {
          res.writeHead(200, { 'Content-Type': 'application/ld+json' });
          res.end(JSON.stringify(CONTEXT));
        } else {
          res.writeHead(200, { 'Content-Type': 'text/html' });
          res.end('<html>PRIVATE-PAGE</html>');
        }
      });
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => http.close(() => resolve())));

    const doc = (iri: string): string => JSON.stringify({ '@context': iri, '@id': 'http://ex/a', name: 'Alice' });

    it('are refused when no loader is given (and by an import), naming the context', async () => {
      const before = requests;
      const { report, lines } = await parse(doc(`${base}/ctx.jsonld`));
      expect(lines).to.deep.equal([]);
      expect(errorRow(report)!.description).to.contain(`${base}/ctx.jsonld`).and.contain('remote contexts are read only by a server, under its read policy');
      const ds = await store();
      const r = await importFailure(ds.importData('ADD', doc(`${base}/ctx.jsonld`), { mediaType: JSON_LD }));
      expect(r.errors).to.equal(1);
      expect(requests).to.equal(before);
    });

    it('are refused by the default read policy (https only) without being fetched, with the rule in the error', async () => {
      const before = requests;
      const { report } = await parse(doc(`${base}/ctx.jsonld`), { loadContext: jsonLdContextLoader(readPolicyOf({})) });
      expect(errorRow(report)!.description).to.contain("the scheme 'http' is not allowed on import (allowed-url-schemes-on-import is 'https')");
      expect(requests).to.equal(before);
    });

    it('are read when the read policy allows them', async () => {
      const { report, lines } = await parse(doc(`${base}/ctx.jsonld`), { loadContext: jsonLdContextLoader(readPolicyOf({ 'allowed-url-schemes-on-import': 'http' })) });
      expect(report.errors).to.equal(0);
      expect(lines).to.deep.equal(['<http://ex/a> <http://schema.example/name> "Alice"']);
    });

    it('that are not JSON fail without their content in the error', async () => {
      const { report } = await parse(doc(`${base}/page.html`), { loadContext: jsonLdContextLoader(readPolicyOf({ 'allowed-url-schemes-on-import': 'http' })) });
      const description = errorRow(report)!.description;
      expect(description).to.contain(`the JSON-LD context at '${base}/page.html' is not valid JSON`);
      expect(description).to.not.contain('PRIVATE');
    });
  });
});
