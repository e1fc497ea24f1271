import { expect } from 'chai';
import { N_TRIPLES, type DataStoreConnection } from '../../lib/index.js';
import { ImportReport } from '../../lib/formats/notifications.js';
import { parseRdf, sniffContent } from '../../lib/formats/rdf-parse.js';
import { Interrupter } from '../../lib/model/control.js';
import { importFailure } from '../helpers/imports.js';
import { useServer } from '../helpers/server.js';
import { chunkedText, keyedTermIds } from '../helpers/term-ids.js';

const EX = 'http://example.org/';
const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const HEAD = `<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="${RDF_NS}" xmlns:ex="${EX}">\n`;
const xml = (body: string): string => `${HEAD}${body}\n</rdf:RDF>\n`;

describe('RDF/XML import', () => {
  const env = useServer('rdfxml-parse');
  const store = (): Promise<DataStoreConnection> => env.newStore();
  const sorted = async (ds: DataStoreConnection): Promise<string[]> => (await ds.exportDataToString(N_TRIPLES)).split('\n').filter((l) => l !== '').sort();

  it('reads nodes, properties, literals, nested and typed nodes, collections and relative IRIs, detected without a stated type', async () => {
    const ds = await store();
    const r = await ds.importData(
      'ADD',
      xml(`  <ex:Person rdf:about="alice" ex:name="Alice">
    <ex:knows><rdf:Description rdf:about="http://example.org/bob"><ex:age rdf:datatype="http://www.w3.org/2001/XMLSchema#integer">42</ex:age></rdf:Description></ex:knows>
    <ex:motto xml:lang="EN-gb">carpe diem</ex:motto>
    <ex:pets rdf:parseType="Collection"><rdf:Description rdf:about="http://example.org/rex"/></ex:pets>
  </ex:Person>`),
      { baseIRI: 'http://example.org/people/' },
    );
    expect(r.errors, r.text).to.equal(0);
    const lines = await sorted(ds);
    expect(lines).to.include.members([
      `<http://example.org/people/alice> <${RDF_NS}type> <${EX}Person> .`,
      `<http://example.org/people/alice> <${EX}name> "Alice" .`,
      `<http://example.org/people/alice> <${EX}knows> <${EX}bob> .`,
      `<${EX}bob> <${EX}age> "42"^^<http://www.w3.org/2001/XMLSchema#integer> .`,
      `<http://example.org/people/alice> <${EX}motto> "carpe diem"@en-gb .`,
    ]);
    // the collection: a list node with rdf:first ex:rex and rdf:rest rdf:nil
    expect(lines.filter((l) => l.includes(`<${RDF_NS}first> <${EX}rex>`))).to.have.length(1);
    expect(lines.filter((l) => l.endsWith(`<${RDF_NS}rest> <${RDF_NS}nil> .`))).to.have.length(1);
    expect(lines).to.have.length(8);
  });

  it('reports the root element namespaces as prefixes, and ADDITION_UPDATE_PREFIXES adds them to the store', async () => {
    const ds = await store();
    const r = await ds.importData('ADDITION_UPDATE_PREFIXES', xml(`<rdf:Description rdf:about="${EX}a" ex:p="x"/>`), { mediaType: 'application/rdf+xml' });
    expect([...r.prefixes]).to.deep.equal([
      ['rdf:', RDF_NS],
      ['ex:', EX],
    ]);
    expect((await ds.getPrefixes()).get('ex:')).to.equal(EX);
  });

  it('keeps rdf:nodeID labels (the same node across imports) and gives unnamed nodes fresh labels', async () => {
    const ds = await store();
    const doc = xml(`<rdf:Description rdf:nodeID="n1"><ex:p><rdf:Description ex:q="v"/></ex:p></rdf:Description>`);
    await ds.importData('ADD', doc, { mediaType: 'application/rdf+xml' });
    await ds.importData('ADD', doc, { mediaType: 'application/rdf+xml' });
    const lines = await sorted(ds);
    // _:n1 is one node; the two unnamed nodes are two
    expect(lines.filter((l) => l.startsWith(`_:n1 <${EX}p> _:`))).to.have.length(2);
    expect(lines.filter((l) => l.endsWith(`<${EX}q> "v" .`))).to.have.length(2);
    expect(new Set(lines.map((l) => l.split(' ')[0])).size).to.equal(3);
  });

  it('fails on malformed XML with the line and column, changing nothing', async () => {
    const ds = await store();
    const r = await importFailure(ds.importData('ADD', xml(`  <rdf:Description rdf:about="${EX}a">\n    <ex:p>x</ex:q>\n  </rdf:Description>`), { mediaType: 'application/rdf+xml' }));
    const error = r.rows.find((row) => row.type === 'error')!;
    expect(error).to.include({ line: 4 });
    expect(error.column).to.be.a('number');
    expect(error.description).to.match(/close tag/);
    expect(await ds.countFacts()).to.equal(0);
  });

  it('fails on XML that is not RDF/XML, with the position', async () => {
    const ds = await store();
    const r = await importFailure(ds.importData('ADD', xml(`<rdf:Description rdf:about="${EX}a" rdf:nodeID="b"/>`), { mediaType: 'application/rdf+xml' }));
    const error = r.rows.find((row) => row.type === 'error')!;
    expect(error.line).to.equal(3);
    expect(error.description).to.match(/Only one of rdf:about, rdf:nodeID and rdf:ID/);
  });

  it('refuses RDF 1.2 triple terms and base directions instead of dropping them', async () => {
    const ds = await store();
    const tripleTerm = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="${RDF_NS}" xmlns:ex="${EX}" rdf:version="1.2">
  <rdf:Description rdf:about="${EX}s"><ex:p rdf:parseType="Triple"><rdf:Description rdf:about="${EX}a"><ex:b rdf:resource="${EX}c"/></rdf:Description></ex:p></rdf:Description>
</rdf:RDF>`;
    const r = await importFailure(ds.importData('ADD', tripleTerm, { mediaType: 'application/rdf+xml' }));
    expect(r.text).to.contain('triple terms (RDF 1.2');
    const direction = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="${RDF_NS}" xmlns:ex="${EX}" xmlns:its="http://www.w3.org/2005/11/its" its:version="2.0" rdf:version="1.2">
  <rdf:Description rdf:about="${EX}s"><ex:p xml:lang="ar" its:dir="rtl">x</ex:p></rdf:Description>
</rdf:RDF>`;
    const d = await importFailure(ds.importData('ADD', direction, { mediaType: 'application/rdf+xml' }));
    expect(d.text).to.contain('base direction (RDF 1.2)');
    expect(await ds.countFacts()).to.equal(0);
  });

  it('reads input split anywhere, even inside a character, in bounded batches', async () => {
    const body = Array.from({ length: 5000 }, (_, i) => `<rdf:Description rdf:about="${EX}s${i}"><ex:label>é${i}✓</ex:label></rdf:Description>`).join('\n');
    const ids = keyedTermIds();
    let fresh = 0;
    const parsed = parseRdf(await sniffContent(chunkedText(xml(body), 7)), ids, new ImportReport(), {
      baseIRI: EX,
      prefixes: new Map(),
      freshBlankNode: () => `f${++fresh}`,
      interrupter: new Interrupter(),
    });
    expect(parsed.mediaType).to.equal('application/rdf+xml');
    const labels: string[] = [];
    let batches = 0;
    for await (const batch of parsed) {
      batches++;
      for (let i = 0; i < batch.count; i++) labels.push(ids.keys[batch.quads[4 * i + 2]!]!);
    }
    expect(batches).to.be.above(1);
    expect(labels).to.deep.equal(Array.from({ length: 5000 }, (_, i) => `"é${i}✓"`));
  });

  it('quotes nothing of content that is not shown', async () => {
    const report = new ImportReport();
    const parsed = parseRdf(await sniffContent(chunkedText(xml('<ex:Secret rdf:about="http://secret/" rdf:nodeID="x"/>'), 1000)), keyedTermIds(), report, {
      mediaType: 'application/rdf+xml',
      baseIRI: EX,
      prefixes: new Map(),
      freshBlankNode: () => 'f',
      interrupter: new Interrupter(),
      showContent: false,
    });
    for await (const batch of parsed) void batch;
    expect(report.errors).to.equal(1);
    const row = report.notifications.find((r) => r.type === 'error')!;
    expect(row.description).to.not.contain('secret');
    expect(row.description).to.contain('not valid RDF/XML');
    expect(row.line).to.equal(3);
    expect(report.notifications.filter((r) => r.type === 'prefix')).to.have.length(0);
  });
});
