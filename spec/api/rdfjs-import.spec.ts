import { Readable } from 'node:stream';
import { expect } from 'chai';
import { DataFactory as N3, StreamParser } from 'n3';
import { DataFactory as ComunicaFactory } from 'rdf-data-factory';
import type * as RDF from '@rdfjs/types';
import { N_TRIPLES, type DataStoreConnection } from '../../lib/index.js';
import { nquadsOf, useServer } from '../helpers/server.js';
import { rdfjsDataModel } from '../helpers/rdfjs-packages.js';
import { importFailure } from '../helpers/imports.js';

const EX = 'http://example.com/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const namedNode = (iri: string): RDF.NamedNode => N3.namedNode(iri);
const blankNode = (label: string): RDF.BlankNode => N3.blankNode(label);
const literal = (value: string): RDF.Literal => N3.literal(value);
const variable = (name: string): RDF.Variable => N3.variable(name);
const defaultGraph = (): RDF.DefaultGraph => N3.defaultGraph();
const quad = (s: RDF.Quad_Subject, p: RDF.Quad_Predicate, o: RDF.Quad_Object, g?: RDF.Quad_Graph): RDF.Quad => N3.quad(s, p, o, g);

/** The same quads from a DataFactory: an IRI subject, a language-tagged literal, a typed literal in a named graph. */
function sample(f: RDF.DataFactory): RDF.Quad[] {
  return [
    f.quad(f.namedNode(`${EX}ann`), f.namedNode(`${EX}name`), f.literal('Ann', 'EN-gb')),
    f.quad(f.namedNode(`${EX}ann`), f.namedNode(`${EX}age`), f.literal('42', f.namedNode(`${XSD}integer`)), f.namedNode(`${EX}g`)),
    f.quad(f.namedNode(`${EX}ann`), f.namedNode(`${EX}note`), f.literal('plain "quoted" é 😀', f.namedNode(`${XSD}string`))),
  ];
}

const SAMPLE_NQUADS = [
  `<${EX}ann> <${EX}age> "42"^^<${XSD}integer> <${EX}g> .`,
  `<${EX}ann> <${EX}name> "Ann"@en-gb .`,
  `<${EX}ann> <${EX}note> "plain \\"quoted\\" é 😀" .`,
];

/** The blank node labels of an export. */
function labels(lines: readonly string[]): Set<string> {
  return new Set(lines.flatMap((l) => l.match(/_:\S+/g) ?? []));
}

describe('importing RDF/JS quads', () => {
  const env = useServer('rdfjs-import');
  let ds: DataStoreConnection;
  beforeEach(async () => {
    ds = await env.newStore();
  });

  const factories: ReadonlyArray<readonly [string, () => RDF.DataFactory | Promise<RDF.DataFactory>]> = [
    ['N3.js', () => N3],
    ['@rdfjs/data-model', rdfjsDataModel],
    ['rdf-data-factory (Comunica)', () => new ComunicaFactory()],
  ];
  for (const [name, factory] of factories) {
    it(`adds an array of quads made by ${name}, terms as the text path stores them`, async () => {
      const result = await ds.importData('ADD', sample(await factory()));
      expect(result.processedFacts).to.equal(3);
      expect(result.changedFacts).to.equal(3);
      expect(await nquadsOf(ds)).to.deep.equal(SAMPLE_NQUADS);
      // the same facts as text: nothing new
      expect((await ds.importData('ADD', SAMPLE_NQUADS.join('\n'), { mediaType: 'application/n-quads' })).changedFacts).to.equal(0);
    });
  }

  it('takes sync iterables, async iterables, object-mode streams and N3.js stream parsers', async () => {
    const [a, b, c] = sample(N3);
    await ds.importData('ADD', new Set([a!]));
    await ds.importData('ADD', (function* () {
      yield b!;
    })());
    await ds.importData('ADD', (async function* () {
      await Promise.resolve();
      yield c!;
    })());
    expect(await nquadsOf(ds)).to.deep.equal(SAMPLE_NQUADS);
    await ds.importData('ADD', Readable.from([quad(namedNode(`${EX}s`), namedNode(`${EX}p`), namedNode(`${EX}o`))]));
    const parser = Readable.from([`<${EX}t> <${EX}p> "from a parser" .\n`]).pipe(new StreamParser({ format: 'N-Triples' }));
    const r = await ds.importData('ADD', parser);
    expect(r.changedFacts).to.equal(1);
    const lines = await nquadsOf(ds);
    expect(lines).to.include(`<${EX}s> <${EX}p> <${EX}o> .`);
    expect(lines).to.include(`<${EX}t> <${EX}p> "from a parser" .`);
  });

  it('still reads streams of text and bytes as content', async () => {
    await ds.importData('ADD', Readable.from([Buffer.from(`<${EX}a> <${EX}p> `), `"text" .\n`]), { mediaType: N_TRIPLES });
    expect(await nquadsOf(ds)).to.deep.equal([`<${EX}a> <${EX}p> "text" .`]);
  });

  it('adds many quads in batches, and deletes them again', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => quad(namedNode(`${EX}s${i % 100}`), namedNode(`${EX}p${i % 7}`), literal(String(i))));
    expect((await ds.importData('ADD', many)).changedFacts).to.equal(10_000);
    expect(await ds.countFacts()).to.equal(10_000);
    const r = await ds.importData('DELETE', many.slice(0, 6000));
    expect(r.changedFacts).to.equal(6000);
    expect(await ds.countFacts()).to.equal(4000);
  });

  it('scopes the blank nodes of an addition to the call: one node per label within it, new nodes in the next', async () => {
    const knows = namedNode(`${EX}knows`);
    await ds.importData('ADD', [quad(blankNode('b'), knows, blankNode('c')), quad(blankNode('c'), knows, blankNode('b'))]);
    await ds.importData('ADD', [quad(blankNode('b'), knows, blankNode('c'))]);
    const lines = await nquadsOf(ds);
    expect(lines).to.have.length(3);
    expect(labels(lines).size).to.equal(4);
    // within the first call, b and c are one node each: a cycle of two
    const first = lines.map((l) => l.split(' ')).filter(([s, , o]) => lines.some((m) => m.startsWith(`${o} <${EX}knows> ${s} `)));
    expect(first).to.have.length(2);
  });

  it('deletes the stored blank node a quad names (as the store exports it)', async () => {
    await ds.importData('ADD', `_:x <${EX}p> "1" .\n_:y <${EX}p> "2" .\n`, { mediaType: N_TRIPLES });
    const r = await ds.importData('DELETE', [quad(blankNode('x'), namedNode(`${EX}p`), literal('1'))]);
    expect(r.changedFacts).to.equal(1);
    expect(await nquadsOf(ds)).to.deep.equal([`_:y <${EX}p> "2" .`]);
  });

  it('deleting a quad whose terms the store lacks changes nothing', async () => {
    await ds.importData('ADD', [quad(namedNode(`${EX}a`), namedNode(`${EX}p`), namedNode(`${EX}b`))]);
    const r = await ds.importData('DELETE', [quad(namedNode(`${EX}never`), namedNode(`${EX}p`), namedNode(`${EX}b`))]);
    expect(r.processedFacts).to.equal(1);
    expect(r.changedFacts).to.equal(0);
    expect(await ds.countFacts()).to.equal(1);
  });

  it('puts default-graph quads into the defaultGraph option', async () => {
    await ds.importData('ADD', [quad(namedNode(`${EX}a`), namedNode(`${EX}p`), namedNode(`${EX}b`), defaultGraph())], { defaultGraph: `${EX}target` });
    expect(await nquadsOf(ds)).to.deep.equal([`<${EX}a> <${EX}p> <${EX}b> <${EX}target> .`]);
  });

  it('refuses quads that cannot be stored, naming the problem and the index, and changes nothing', async () => {
    const p = namedNode(`${EX}p`);
    const good = quad(namedNode(`${EX}a`), p, namedNode(`${EX}b`));
    const bad: unknown[] = [
      good,
      quad(literal('lit') as unknown as RDF.Quad_Subject, p, namedNode(`${EX}b`)),
      quad(namedNode(`${EX}a`), p, variable('v')),
      'not a quad',
      { subject: namedNode(`${EX}a`) },
      quad(namedNode(`${EX}a`), blankNode('q') as unknown as RDF.Quad_Predicate, namedNode(`${EX}b`)),
      quad(namedNode(`${EX}a`), p, namedNode(`${EX}b`), literal('g') as unknown as RDF.Quad_Graph),
    ];
    const result = await importFailure(ds.importData('ADD', bad as RDF.Quad[]));
    const errors = result.rows.filter((r) => r.type === 'error').map((r) => r.description);
    expect(errors).to.deep.equal([
      'the quad at index 1: a literal ("lit") cannot be the subject',
      'the quad at index 2: a variable (?v) cannot be stored: a quad to import has no variables (its object is one)',
      'the quad at index 3: a string is not an RDF/JS quad',
      'the quad at index 4: an object without subject, predicate and object is not an RDF/JS quad',
      'the quad at index 5: a blank node (_:q) cannot be a predicate',
      'the quad at index 6: a literal ("g") cannot be the graph',
    ]);
    expect(result.changedFacts).to.equal(0);
    expect(await ds.countFacts()).to.equal(0);
  });

  it('adds and deletes within a transaction: rolled back, nothing remains; committed, the quads stay', async () => {
    const q = quad(namedNode(`${EX}a`), namedNode(`${EX}p`), literal('in a transaction'));
    await ds.beginTransaction('read-write');
    await ds.importData('ADD', [q]);
    expect(await ds.countFacts()).to.equal(1);
    await ds.rollbackTransaction();
    expect(await ds.countFacts()).to.equal(0);
    await ds.beginTransaction('read-write');
    await ds.importData('ADD', [q]);
    await ds.commitTransaction();
    expect(await ds.countFacts()).to.equal(1);
    await ds.beginTransaction('read-write');
    await ds.importData('DELETE', [q]);
    await ds.commitTransaction();
    expect(await ds.countFacts()).to.equal(0);
  });

  it('rules given as text stay as they are', async () => {
    await ds.importData('ADD', `[?x, <${EX}q>, ?y] :- [?x, <${EX}p>, ?y] .`);
    await ds.importData('ADD', [quad(namedNode(`${EX}a`), namedNode(`${EX}p`), namedNode(`${EX}b`))]);
    const answer = await ds.evaluateQuery(`ASK { <${EX}a> <${EX}q> <${EX}b> }`);
    expect(answer).to.deep.equal({ type: 'boolean', value: true });
  });
});
