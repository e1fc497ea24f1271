import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import {
  AccessDeniedError,
  BadRequestError,
  DATALOG,
  type DataStoreConnection,
  N_QUADS,
  N_TRIPLES,
  type NotificationRow,
  ParsingError,
  QuadlogError,
  TRIG,
  TURTLE,
} from '../../lib/index.js';
import { expectError, nquadsOf, sortedLines, useServer } from '../helpers/server.js';
import { importError, importFailure } from '../helpers/imports.js';

const EX = 'http://example.com/';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const GOOD_LINE = `<${EX}a> <${EX}p> <${EX}o> .\n`;

function rowsOf(rows: readonly NotificationRow[], type: NotificationRow['type']): NotificationRow[] {
  return rows.filter((r) => r.type === type);
}

function info(rows: readonly NotificationRow[], name: string): string | undefined {
  return rows.find((r) => r.type === 'information' && r.description === name)?.value;
}

/** A dataset exercising blank nodes, lists, escapes, unicode, languages, datatypes and graphs. */
const RICH_TRIG = String.raw`@prefix ex: <http://example.com/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:alice ex:knows _:bob , [ ex:name "Anonymous" ; ex:age 7 ] ;
  ex:list ( 1 2.5 "three" ( ex:nested ) ) ;
  ex:empty () ;
  ex:text "line1\nline2\ttab \"quoted\" back\\slash \r cr" , """long
string with "quotes" inside""" , 'single quoted' ;
  ex:unicode "é ü 日本語 😀 \u00e9 \U0001F600" , "control\u0001\u001F" ;
  ex:lang "colour"@en-GB , "couleur"@fr , "chat"@fr ;
  ex:typed 42 , -0.5 , 1.0e3 , true , "2020-01-01"^^xsd:date , "x"^^<http://example.com/datatype> , "plain"^^xsd:string .
_:bob ex:name "Bob" ; ex:knows [] .
<http://example.com/é#x> ex:p <http://example.com/a%20b> .
ex:g1 { ex:s ex:p ex:o . _:bob ex:in ex:g1 . [] ex:q [ ex:r ( ex:x ) ] . }
_:graph { ex:s ex:p "in a blank-node graph"@en }
ex:g2 { ex:s ex:p ex:o }
`;

describe('import and export', () => {
  // files are imported through file IRIs too: the server's sandbox is their directory (made
  // before the server, whose parameters useServer takes when it is called)
  const dir = mkdtempSync(join(tmpdir(), 'quadlog-import-export-'));
  const env = useServer('import-export', { 'allowed-url-schemes-on-import': 'file,https', 'sandbox-directory': dir });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  function file(name: string, content: string | Uint8Array): string {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  }

  it('deletes without adding terms: statements with terms the store lacks are processed, not stored', async () => {
    const ds = await env.newStore();
    await ds.importData('ADD', '<http://e/a> <http://e/p> "1" .\n<http://e/b> <http://e/p> "2" <http://e/g> .', { mediaType: 'application/n-quads' });
    const terms = async (): Promise<string | number | boolean | undefined> => (await ds.getComponentInfo()).find((r) => r.property === 'Number of terms')?.value;
    const before = await terms();
    for (const [text, mediaType] of [
      ['<http://e/a> <http://e/p> "1" .\n<http://e/new> <http://e/p> "1" .\n<http://e/b> <http://e/p> "2" <http://e/other> .', 'application/n-quads'],
      ['@prefix e: <http://e/> . e:b e:p "2" . e:x e:y e:z .', 'text/turtle'],
    ] as const) {
      const r = await ds.importData('DELETE', text, { mediaType });
      expect(r.errors).to.equal(0);
      expect(r.processedFacts).to.be.greaterThan(1);
    }
    expect(await terms()).to.equal(before);
    const gone = await ds.importData('DELETE', '<http://e/b> <http://e/p> "2" .', { mediaType: 'application/n-triples', defaultGraph: 'http://e/g' });
    expect(gone.changedFacts).to.equal(1);
    const none = await ds.importData('DELETE', '<http://e/b> <http://e/p> "2" .', { mediaType: 'application/n-triples', defaultGraph: 'http://e/nowhere' });
    expect(none.changedFacts).to.equal(0);
    expect(await terms()).to.equal(before);
    expect(await nquadsOf(ds)).to.deep.equal([]);
  });

  describe('format detection and stated types', () => {
    it('detects N-Triples when no type is given', async () => {
      const ds = await env.newStore();
      const r = await ds.importData('ADD', `<${EX}a> <${EX}p> "x"@en .\n# a comment\n<${EX}a> <${EX}p> _:b .\n`);
      expect(r.errors, r.text).to.equal(0);
      expect(r.changedFacts).to.equal(2);
      expect(await nquadsOf(ds)).to.deep.equal([`<${EX}a> <${EX}p> "x"@en .`, `<${EX}a> <${EX}p> _:b .`].sort());
    });

    it('detects N-Quads when no type is given', async () => {
      const ds = await env.newStore();
      const r = await ds.importData('ADD', `<${EX}a> <${EX}p> <${EX}o> <${EX}g> .\n<${EX}a> <${EX}p> <${EX}o> .\n`);
      expect(r.errors, r.text).to.equal(0);
      expect(await nquadsOf(ds)).to.deep.equal([`<${EX}a> <${EX}p> <${EX}o> <${EX}g> .`, `<${EX}a> <${EX}p> <${EX}o> .`].sort());
    });

    it('detects Turtle when no type is given', async () => {
      const ds = await env.newStore();
      const r = await ds.importData('ADD', `@prefix ex: <${EX}> .\nex:a ex:p ex:b , ex:c ; a ex:T .`);
      expect(r.errors, r.text).to.equal(0);
      expect(r.changedFacts).to.equal(3);
      expect(rowsOf(r.rows, 'prefix')).to.deep.equal([{ type: 'prefix', description: 'ex:', value: EX }]);
    });

    it('detects TriG when no type is given', async () => {
      const ds = await env.newStore();
      const r = await ds.importData('ADD', `@prefix ex: <${EX}> .\nex:a ex:p ex:b .\nex:g { ex:a ex:p ex:c }\nGRAPH ex:h { ex:a ex:p ex:d }`);
      expect(r.errors, r.text).to.equal(0);
      expect(await nquadsOf(ds)).to.deep.equal(
        [`<${EX}a> <${EX}p> <${EX}b> .`, `<${EX}a> <${EX}p> <${EX}c> <${EX}g> .`, `<${EX}a> <${EX}p> <${EX}d> <${EX}h> .`].sort(),
      );
    });

    it('accepts stated types, with parameters and aliases', async () => {
      const ds = await env.newStore();
      const nt = `<${EX}a> <${EX}p> <${EX}o> .\n`;
      for (const type of [N_TRIPLES, 'application/n-triples; charset=utf-8', 'nt', N_QUADS, TURTLE, 'text/turtle;charset=UTF-8', TRIG, 'TEXT/TURTLE']) {
        const r = await ds.importData('ADD', nt, { mediaType: type });
        expect(r.errors, `${type}: ${r.text}`).to.equal(0);
      }
      expect(await ds.countFacts()).to.equal(1);
    });

    it('reads content guessed to be N-Triples as Turtle when only Turtle parses it (relative IRIs)', async () => {
      const ds = await env.newStore();
      await ds.setBaseIRI(`${EX}base/`);
      const r = await ds.importData('ADD', '<a> <b> <c> .\n<a> <b> "x" .\n');
      expect(r.errors, r.text).to.equal(0);
      expect(await nquadsOf(ds)).to.deep.equal([`<${EX}base/a> <${EX}base/b> <${EX}base/c> .`, `<${EX}base/a> <${EX}base/b> "x" .`].sort());
      // the same from a stream and a file without extension, and from a .ttl file
      for (const source of [Readable.from([Buffer.from('<d> <b> <c> .\n')]), { path: file('relative', '<e> <b> <c> .\n') }, { path: file('relative.ttl', '<f> <b> <c> .\n') }]) {
        const more = await ds.importData('ADD', source);
        expect(more.changedFacts, more.text).to.equal(1);
      }
      expect(await ds.countFacts()).to.equal(5);
      // content longer than the 64 KB looked at, cut inside a line there
      const long = Array.from({ length: 5000 }, (_, i) => `<s${i}> <p> "${'x'.repeat(i % 7)}" .\n`).join('');
      expect(long.length).to.be.greaterThan(64 * 1024);
      const big = await ds.importData('ADD', Readable.from([Buffer.from(long)]));
      expect(big.changedFacts, big.text).to.equal(5000);
    });

    it('keeps a guess that Turtle cannot parse either, reporting the N-Triples errors', async () => {
      const ds = await env.newStore();
      const r = await importFailure(ds.importData('ADD', `<${EX}a> <${EX}p> "bad \\q escape" .\n<a> <b> <c> .\n`));
      expect(rowsOf(r.rows, 'error').map((e) => [e.line, e.description])).to.deep.equal([
        [1, "invalid escape sequence '\\q'"],
        [2, "relative IRI 'a' is not allowed in N-Triples"],
      ]);
    });

    it('never second-guesses a stated type or an .nt extension', async () => {
      const ds = await env.newStore();
      await ds.setBaseIRI(`${EX}base/`);
      const stated = await importFailure(ds.importData('ADD', '<a> <b> <c> .\n', { mediaType: N_TRIPLES }));
      expect(rowsOf(stated.rows, 'error')[0]!.description).to.equal("relative IRI 'a' is not allowed in N-Triples");
      const named = await importFailure(ds.importData('ADD', { path: file('relative.nt', '<a> <b> <c> .\n') }));
      expect(rowsOf(named.rows, 'error')[0]!.description).to.equal("relative IRI 'a' is not allowed in N-Triples");
      expect(await ds.countFacts()).to.equal(0);
      // stated Turtle reads it, as always
      expect((await ds.importData('ADD', '<a> <b> <c> .\n', { mediaType: TURTLE })).changedFacts).to.equal(1);
    });

    it('rejects an unknown stated type with BadRequestError', async () => {
      const ds = await env.newStore();
      await expectError(ds.importData('ADD', `<${EX}a> <${EX}p> <${EX}o> .`, { mediaType: 'text/csv' }), BadRequestError);
      expect(await ds.countFacts()).to.equal(0);
    });

    it('reads a short text of a stated N-Triples or N-Quads type as it reads a long one: the same facts, counts and error rows', async () => {
      // texts up to 65,536 characters are parsed in one go, longer ones streamed in slices
      const good = `<${EX}a> <${EX}p> "x\\ty"@en .\n_:b <${EX}p> <${EX}o> .\n`;
      const filler = (n: number) => Array.from({ length: n }, (_, i) => `<${EX}s${i}> <${EX}p> "${'z'.repeat(40)}" .`).join('\n') + '\n';
      const long = filler(1200);
      expect(long.length).to.be.greaterThan(1 << 16);
      for (const [text, type] of [[good, N_TRIPLES], [`${good}<${EX}a> <${EX}p> <${EX}o> <${EX}g> .\n`, N_QUADS]] as const) {
        const short = await env.newStore();
        const streamed = await env.newStore();
        const a = await short.importData('ADD', text, { mediaType: type });
        const b = await streamed.importData('ADD', text + long, { mediaType: type });
        expect([a.errors, a.changedFacts, a.processedFacts]).to.deep.equal([0, text.split('\n').length - 1, text.split('\n').length - 1]);
        expect([b.errors, b.changedFacts - 1200]).to.deep.equal([0, a.changedFacts]);
        const ask = `ASK { <${EX}a> <${EX}p> "x\\ty"@en }`;
        expect(await short.evaluateQuery(ask)).to.deep.equal({ type: 'boolean', value: true });
      }
      // errors: the same rows, with the same positions and the type the content looks like
      const bad = `<${EX}a> <${EX}p> <${EX}o> .\n<${EX}a> <${EX}p> <${EX}o> <${EX}g> .\n<${EX}a> <${EX}p> "bad \\q" .\n`;
      const shortStore = await env.newStore();
      const longStore = await env.newStore();
      const shortErrors = rowsOf((await importFailure(shortStore.importData('ADD', bad, { mediaType: N_TRIPLES }))).rows, 'error');
      const longErrors = rowsOf((await importFailure(longStore.importData('ADD', bad + long, { mediaType: N_TRIPLES }))).rows, 'error');
      expect(shortErrors.map((e) => [e.line, e.column, e.description])).to.deep.equal(longErrors.map((e) => [e.line, e.column, e.description]));
      expect(shortErrors.map((e) => e.line)).to.include.members([2, 3]);
      expect(await shortStore.countFacts()).to.equal(0);
    });

    it('rejects N-Quads content stated as N-Triples, with error rows, changing nothing', async () => {
      const ds = await env.newStore();
      const r = await importFailure(ds.importData('ADD', `<${EX}a> <${EX}p> <${EX}o> .\n<${EX}a> <${EX}p> <${EX}o> <${EX}g> .\n`, { mediaType: N_TRIPLES }));
      expect(r.errors).to.be.at.least(1);
      expect(r.changedFacts).to.equal(0);
      const errors = rowsOf(r.rows, 'error');
      expect(errors[0]!.line).to.equal(2);
      expect(errors.some((e) => e.description.includes('does not match the stated type application/n-triples'))).to.equal(true);
      expect(await ds.countFacts()).to.equal(0);
    });

    it('rejects TriG content stated as Turtle, with error rows, changing nothing', async () => {
      const ds = await env.newStore();
      const r = await importFailure(ds.importData('ADD', `@prefix ex: <${EX}> .\nex:a ex:p ex:b .\nex:g { ex:a ex:p ex:c }\n`, { mediaType: TURTLE }));
      expect(r.errors).to.be.at.least(1);
      expect(r.changedFacts).to.equal(0);
      expect(rowsOf(r.rows, 'error').some((e) => e.description.includes('does not match the stated type text/turtle: it looks like application/trig'))).to.equal(true);
      expect(await ds.countFacts()).to.equal(0);
    });

    it('rejects Turtle content stated as N-Triples', async () => {
      const ds = await env.newStore();
      const r = await importFailure(ds.importData('ADD', `@prefix ex: <${EX}> .\nex:a ex:p ex:b .\n`, { mediaType: N_TRIPLES }));
      expect(r.errors).to.be.at.least(1);
      expect(await ds.countFacts()).to.equal(0);
    });

    it('N-Triples content is valid as N-Quads, Turtle and TriG', async () => {
      for (const type of [N_QUADS, TURTLE, TRIG]) {
        const ds = await env.newStore();
        const r = await ds.importData('ADD', `<${EX}a> <${EX}p> "x" .\n`, { mediaType: type });
        expect(r.errors, r.text).to.equal(0);
        expect(r.changedFacts).to.equal(1);
      }
    });
  });

  describe('failed imports reject', () => {
    const GOOD = `<${EX}a> <${EX}p> <${EX}o> .\n`;

    it('rejects with ImportError carrying the whole result, its message naming the first error and its position', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', GOOD);
      const seen: NotificationRow[] = [];
      const error = await importError(
        ds.importData('ADD', `@prefix ex: <${EX}> .\nex:b ex:p ex:c .\nex:b ex:p  nope:c .\n`, { mediaType: TURTLE, onNotification: (row) => seen.push(row) }),
      );
      expect(error).to.be.instanceOf(QuadlogError);
      expect(error.message).to.equal("import failed, nothing was changed: line 3: column 12: unknown prefix 'nope:': declare it in the input or add it to the store's prefixes");
      const r = error.result;
      expect(r.errors).to.equal(1);
      expect(r.processedFacts).to.equal(1);
      expect(r.changedFacts).to.equal(0);
      expect(r.prefixes).to.deep.equal(new Map([['ex:', EX]]));
      expect(rowsOf(r.rows, 'error')).to.deep.equal([
        { type: 'error', line: 3, column: 12, description: "unknown prefix 'nope:': declare it in the input or add it to the store's prefixes", value: '' },
      ]);
      expect(error.firstError).to.equal(rowsOf(r.rows, 'error')[0]);
      expect(info(r.rows, '#errors')).to.equal('1');
      expect(r.text).to.contain("error: line 3: column 12: unknown prefix 'nope:'");
      expect(seen.filter((row) => row.type === 'error')).to.deep.equal(rowsOf(r.rows, 'error'));
      expect(await nquadsOf(ds)).to.deep.equal([GOOD.trim()]);
    });

    it('counts the errors in the message when there are several', async () => {
      const ds = await env.newStore();
      const error = await importError(ds.importData('ADD', `${GOOD}<${EX}a> <${EX}p> bad .\n<${EX}a> <${EX}p> "open .\n`, { mediaType: N_TRIPLES }));
      expect(error.result.errors).to.equal(2);
      expect(error.message).to.match(/^import failed with 2 errors, nothing was changed; the first: line 2: column 47: /);
      expect(await ds.countFacts()).to.equal(0);
    });

    it('with rejectOnError: false resolves with the result, still changing nothing', async () => {
      const ds = await env.newStore();
      const r = await ds.importData('ADD', `${GOOD}<${EX}a> <${EX}p> bad .\n`, { mediaType: N_TRIPLES, rejectOnError: false });
      expect(r.errors).to.equal(1);
      expect(r.changedFacts).to.equal(0);
      expect(rowsOf(r.rows, 'error').map((e) => [e.line, e.column])).to.deep.equal([[2, 47]]);
      expect(await ds.countFacts()).to.equal(0);
      // and a good import with the option resolves as usual
      expect((await ds.importData('ADD', GOOD, { rejectOnError: false })).changedFacts).to.equal(1);
    });

    it('rejects failed Datalog imports and failed deletions the same way', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', GOOD);
      const rules = await importFailure(ds.importData('ADD', `[?x, <${EX}q>, ?z] :- [?x, <${EX}p>, ?y] .`, { mediaType: 'application/x.datalog' }));
      expect(rules.changedRules).to.equal(0);
      const deletion = await importFailure(ds.importData('DELETE', `${GOOD}oops\n`, { mediaType: N_TRIPLES }));
      expect(deletion.changedFacts).to.equal(0);
      expect(await nquadsOf(ds)).to.deep.equal([GOOD.trim()]);
    });
  });

  describe('one wording per mistake', () => {
    const ADVICE = "declare it in the input or add it to the store's prefixes";

    it('an unknown prefix reads the same in Turtle, TriG and Datalog, with its position in the row', async () => {
      const ds = await env.newStore();
      const cases: Array<[string, string]> = [
        [TURTLE, `<${EX}a> <${EX}p> <${EX}b> .\n  <${EX}a> ex:p <${EX}c> .`],
        [TRIG, `<${EX}g> {\n  <${EX}a> ex:p <${EX}c> }`],
        ['application/x.datalog', `[<${EX}a>, <${EX}p>, <${EX}b>] .\n  [<${EX}a>, ex:p, <${EX}c>] .`],
      ];
      for (const [mediaType, text] of cases) {
        const column = text.split('\n')[1]!.indexOf('ex:') + 1;
        const r = await importFailure(ds.importData('ADD', text, { mediaType }));
        expect(rowsOf(r.rows, 'error').map((e) => [e.line, e.column, e.description]), mediaType).to.deep.equal([[2, column, `unknown prefix 'ex:': ${ADVICE}`]]);
      }
      // the same without a stated type (detected as Turtle) and through a file
      const detected = await importFailure(ds.importData('ADD', 'ex:a ex:p ex:b .'));
      expect(rowsOf(detected.rows, 'error')[0]).to.include({ line: 1, column: 1, description: `unknown prefix 'ex:': ${ADVICE}` });
      expect(await ds.countFacts()).to.equal(0);
    });

    it('an unknown media type lists the supported ones, on import as on export', async () => {
      const ds = await env.newStore();
      const supported = 'text/turtle, application/n-triples, application/n-quads, application/trig, application/ld+json, application/rdf+xml, application/x.datalog';
      const onImport = await expectError(ds.importData('ADD', GOOD_LINE, { mediaType: 'text/csv' }), BadRequestError);
      expect(onImport.message).to.equal(`unsupported media type 'text/csv' (supported: ${supported})`);
      const onList = await expectError(ds.importData('ADD', { iris: ['https://example.com/x'] }, { mediaType: 'text/html' }), BadRequestError);
      expect(onList.message).to.equal(`unsupported media type 'text/html' (supported: ${supported})`);
      const onExport = await expectError(ds.exportDataToString('text/csv'), BadRequestError);
      expect(onExport.message).to.equal(onImport.message);
      expect(await ds.countFacts()).to.equal(0);
    });
  });

  describe('error positions and notifications', () => {
    const BAD_NT = [
      `<${EX}a> <${EX}p> <${EX}o1> .`, // line 1: fine
      `<${EX}a> <${EX}p> "unterminated .`, // line 2 (61 characters): the string never ends
      `<${EX}a> <${EX}p> <${EX}o3> .`, // line 3: fine
      `<${EX}a> <${EX}p> http://example.com/o4> .`, // line 4: the object at column 47 is not a term
    ].join('\n');

    it('reports every error of an N-Triples file with its line and column, importing nothing', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', `<${EX}kept> <${EX}p> <${EX}o> .`);
      const seen: NotificationRow[] = [];
      const error = await importError(ds.importData('ADD', BAD_NT, { mediaType: N_TRIPLES, onNotification: (row) => seen.push(row) }));
      const r = error.result;
      const errors = rowsOf(r.rows, 'error');
      expect(error.message).to.equal(`import failed with 2 errors, nothing was changed; the first: line 2: column 62: ${errors[0]!.description}`);
      expect(errors.map((e) => [e.line, e.column])).to.deep.equal([
        [2, 62], // just past the end of the line, where the closing quote is missing
        [4, 47],
      ]);
      expect(errors[0]!.description).to.contain('unterminated');
      expect(errors[1]!.description).to.contain('expected object');
      expect(r.errors).to.equal(2);
      expect(r.changedFacts).to.equal(0);
      expect(info(r.rows, '#errors')).to.equal('2');
      expect(info(r.rows, '#changed-facts')).to.equal('0');
      expect(seen, 'errors are reported as they are found').to.deep.equal(errors);
      expect(await nquadsOf(ds)).to.deep.equal([`<${EX}kept> <${EX}p> <${EX}o> .`]);
    });

    it('gives the same positions for an .nt file imported through an IRI list', async () => {
      const ds = await env.newStore();
      const path = file('broken.nt', BAD_NT);
      const r = await importFailure(ds.importData('ADD', { iris: [pathToFileURL(path).href] }));
      expect(rowsOf(r.rows, 'error').map((e) => [e.line, e.column])).to.deep.equal([
        [2, 62], // just past the end of the line, where the closing quote is missing
        [4, 47],
      ]);
      expect(await ds.countFacts()).to.equal(0);
    });

    it('reports Turtle errors with line and column of the input (not counting store prefixes)', async () => {
      const ds = await env.newStore();
      const r = await importFailure(ds.importData('ADD', `@prefix ex: <${EX}> .\nex:a ex:p ex:b .\nex:a ex:p ex:c ex:d .\n`));
      const errors = rowsOf(r.rows, 'error');
      expect(errors).to.have.length(1);
      expect([errors[0]!.line, errors[0]!.column]).to.deep.equal([3, 16]);
      expect(await ds.countFacts()).to.equal(0);
      const undefinedPrefix = await ds.importData('ADD', 'nope:a nope:b nope:c .', { mediaType: TURTLE, rejectOnError: false });
      const e = rowsOf(undefinedPrefix.rows, 'error')[0]!;
      expect([e.line, e.column]).to.deep.equal([1, 1]);
      expect(e.description).to.equal("unknown prefix 'nope:': declare it in the input or add it to the store's prefixes");
    });

    it('has the plain-text form of the management interface', async () => {
      const ds = await env.newStore();
      const bad = await ds.importData('ADD', `<${EX}a> <${EX}p> <${EX}o> .\n<${EX}a> <${EX}p> bad .\n`, { mediaType: N_TRIPLES, rejectOnError: false });
      const lines = bad.text.split('\n');
      expect(lines[0]).to.match(/^error: line 2: column 47: .+/);
      expect(lines).to.include('information: #errors = 1');
      expect(lines).to.include('information: #aborted = false');
      expect(lines).to.include('information: #processed-facts = 1');
      expect(lines).to.include('information: #changed-facts = 0');
      expect(bad.text.endsWith('\n')).to.equal(true);

      const good = await ds.importData('ADD', `@prefix ex: <${EX}> .\n@prefix foaf: <http://xmlns.com/foaf/0.1/> .\nex:a foaf:name "A" .`);
      expect(good.text.split('\n')).to.deep.equal([
        `prefix: ex: = ${EX}`,
        'prefix: foaf: = http://xmlns.com/foaf/0.1/',
        'information: #aborted = false',
        'information: #errors = 0',
        'information: #warnings = 0',
        'information: #processed-facts = 1',
        'information: #changed-facts = 1',
        'information: #processed-rules = 0',
        'information: #changed-rules = 0',
        'information: #processed-axioms = 0',
        'information: #changed-axioms = 0',
        '',
      ]);
    });

    it('rows follow the notification answer columns: prefix rows carry the IRI as value', async () => {
      const ds = await env.newStore();
      const r = await ds.importData('ADD', `@prefix ex: <${EX}> .\nex:a ex:p ex:b .`);
      expect(r.rows[0]).to.deep.equal({ type: 'prefix', description: 'ex:', value: EX });
      for (const row of rowsOf(r.rows, 'information')) expect(row.line).to.equal(undefined);
      expect(r.processedFacts).to.equal(1);
      expect(r.warnings).to.equal(0);
      expect(r.processedRules + r.changedRules + r.processedAxioms + r.changedAxioms).to.equal(0);
    });
  });

  describe('update types and options', () => {
    it('ADD counts only facts that were new', async () => {
      const ds = await env.newStore();
      const first = await ds.importData('ADD', `<${EX}a> <${EX}p> <${EX}b> .\n<${EX}a> <${EX}p> <${EX}b> .\n<${EX}a> <${EX}p> <${EX}c> .\n`);
      expect([first.processedFacts, first.changedFacts]).to.deep.equal([3, 2]);
      const again = await ds.importData('ADD', `<${EX}a> <${EX}p> <${EX}b> .\n<${EX}a> <${EX}p> <${EX}d> .\n`);
      expect([again.processedFacts, again.changedFacts]).to.deep.equal([2, 1]);
    });

    it('DELETE removes facts and counts only those that existed', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', `<${EX}a> <${EX}p> <${EX}b> .\n<${EX}a> <${EX}p> <${EX}c> .\n<${EX}a> <${EX}p> <${EX}b> <${EX}g> .\n`);
      const r = await ds.importData('DELETE', `<${EX}a> <${EX}p> <${EX}b> .\n<${EX}a> <${EX}p> <${EX}zzz> .\n<${EX}a> <${EX}p> <${EX}b> <${EX}g> .\n<${EX}a> <${EX}p> <${EX}b> <${EX}other> .\n`);
      expect(r.errors, r.text).to.equal(0);
      expect([r.processedFacts, r.changedFacts]).to.deep.equal([4, 2]);
      expect(await nquadsOf(ds)).to.deep.equal([`<${EX}a> <${EX}p> <${EX}c> .`]);
      const again = await ds.importData('DELETE', `<${EX}a> <${EX}p> <${EX}b> .\n`);
      expect(again.changedFacts).to.equal(0);
      // a deleted fact can be added again
      expect((await ds.importData('ADD', `<${EX}a> <${EX}p> <${EX}b> .\n`)).changedFacts).to.equal(1);
    });

    it('DELETE with errors deletes nothing', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', `<${EX}a> <${EX}p> <${EX}b> .\n`);
      const r = await importFailure(ds.importData('DELETE', `<${EX}a> <${EX}p> <${EX}b> .\nbroken\n`, { mediaType: N_TRIPLES }));
      expect(r.errors).to.equal(1);
      expect(r.changedFacts).to.equal(0);
      expect(await ds.countFacts()).to.equal(1);
    });

    it('defaultGraph sends default-graph triples to a named graph; named graphs stay', async () => {
      const ds = await env.newStore();
      const r = await ds.importData('ADD', `@prefix ex: <${EX}> .\nex:a ex:p ex:b .\nex:g { ex:a ex:p ex:c }`, { defaultGraph: `${EX}target` });
      expect(r.errors, r.text).to.equal(0);
      expect(await nquadsOf(ds)).to.deep.equal([`<${EX}a> <${EX}p> <${EX}b> <${EX}target> .`, `<${EX}a> <${EX}p> <${EX}c> <${EX}g> .`].sort());
      expect(await ds.countFacts({ tupleTable: 'DefaultTriples' })).to.equal(0);
      // and DELETE with the same option removes them again
      const d = await ds.importData('DELETE', `<${EX}a> <${EX}p> <${EX}b> .\n`, { defaultGraph: `${EX}target` });
      expect(d.changedFacts).to.equal(1);
      expect(await nquadsOf(ds)).to.deep.equal([`<${EX}a> <${EX}p> <${EX}c> <${EX}g> .`]);
    });

    it('baseIRI option resolves relative IRIs instead of the store base', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', '<a> <p> <b> .', { mediaType: TURTLE, baseIRI: `${EX}given/` });
      expect(await nquadsOf(ds)).to.deep.equal([`<${EX}given/a> <${EX}given/p> <${EX}given/b> .`]);
    });

    it('an empty input changes nothing and reports no error', async () => {
      const ds = await env.newStore();
      const r = await ds.importData('ADD', '');
      expect(r.errors).to.equal(0);
      expect(r.processedFacts).to.equal(0);
    });
  });

  describe('sources', () => {
    const NT = `<${EX}s1> <${EX}p> "one" .\n<${EX}s2> <${EX}p> "two" .\n`;
    const EXPECTED = sortedLines(NT);

    it('a string', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', NT);
      expect(await nquadsOf(ds)).to.deep.equal(EXPECTED);
    });

    it('a Buffer and a Uint8Array', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', Buffer.from(NT, 'utf8'));
      expect(await nquadsOf(ds)).to.deep.equal(EXPECTED);
      const other = await env.newStore();
      await other.importData('ADD', new TextEncoder().encode(NT));
      expect(await nquadsOf(other)).to.deep.equal(EXPECTED);
    });

    it('a gzip-compressed Buffer', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', gzipSync(NT));
      expect(await nquadsOf(ds)).to.deep.equal(EXPECTED);
    });

    it('a Readable stream, split inside a multi-byte character', async () => {
      const ds = await env.newStore();
      const bytes = Buffer.from(`<${EX}s> <${EX}p> "日本語 é" .\n`, 'utf8');
      const cut = bytes.indexOf(Buffer.from('本', 'utf8')) + 1;
      const r = await ds.importData('ADD', Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]));
      expect(r.errors, r.text).to.equal(0);
      expect(await nquadsOf(ds)).to.deep.equal([`<${EX}s> <${EX}p> "日本語 é" .`]);
      const ttl = await env.newStore();
      const r2 = await ttl.importData('ADD', Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]), { mediaType: TURTLE });
      expect(r2.errors, r2.text).to.equal(0);
      expect(await nquadsOf(ttl)).to.deep.equal([`<${EX}s> <${EX}p> "日本語 é" .`]);
    });

    it('a stream of strings and an async iterable', async () => {
      const ds = await env.newStore();
      const stream = new PassThrough();
      const done = ds.importData('ADD', stream);
      stream.write(`<${EX}s1> <${EX}p> "one" .\n<${EX}s2> <${EX}p> `);
      stream.end('"two" .\n');
      expect((await done).changedFacts).to.equal(2);
      expect(await nquadsOf(ds)).to.deep.equal(EXPECTED);
      async function* chunks(): AsyncGenerator<string> {
        yield `<${EX}s1> <${EX}p> "one" .\n`;
        await Promise.resolve();
        yield `<${EX}s2> <${EX}p> "two" .\n`;
      }
      const other = await env.newStore();
      await other.importData('ADD', chunks());
      expect(await nquadsOf(other)).to.deep.equal(EXPECTED);
    });

    it('a file path, plain or gzip-compressed', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', { path: file('plain.nt', NT) });
      expect(await nquadsOf(ds)).to.deep.equal(EXPECTED);
      const gz = await env.newStore();
      const r = await gz.importData('ADD', { path: file('data.ttl.gz', gzipSync(`@prefix ex: <${EX}> .\nex:s1 ex:p "one" .\nex:s2 ex:p "two" .\n`)) });
      expect(r.errors, r.text).to.equal(0);
      expect(await nquadsOf(gz)).to.deep.equal(EXPECTED);
    });

    it('a missing file is a ParsingError and changes nothing', async () => {
      const ds = await env.newStore();
      const e = await expectError(ds.importData('ADD', { path: join(dir, 'does-not-exist.nt') }), ParsingError);
      expect(e.message).to.contain('does-not-exist.nt');
      expect(await ds.countFacts()).to.equal(0);
    });

    it('a list of file IRIs: every file is imported, each in its own format', async () => {
      const ds = await env.newStore();
      const a = file('list-a.nt', `<${EX}a> <${EX}p> <${EX}o> .\n`);
      const b = file('list-b.trig', `@prefix ex: <${EX}> .\nex:g { ex:b ex:p ex:o }\n`);
      const c = file('list-c.nq.gz', gzipSync(`<${EX}c> <${EX}p> <${EX}o> <${EX}h> .\n`));
      const r = await ds.importData('ADD', { iris: [pathToFileURL(a).href, pathToFileURL(b).href, pathToFileURL(c).href] });
      expect(r.errors, r.text).to.equal(0);
      expect(r.changedFacts).to.equal(3);
      expect(await nquadsOf(ds)).to.deep.equal(
        [`<${EX}a> <${EX}p> <${EX}o> .`, `<${EX}b> <${EX}p> <${EX}o> <${EX}g> .`, `<${EX}c> <${EX}p> <${EX}o> <${EX}h> .`].sort(),
      );
    });

    it('a list of two files with an error in one imports nothing', async () => {
      const ds = await env.newStore();
      const good = file('pair-good.nt', `<${EX}a> <${EX}p> <${EX}o> .\n`);
      const bad = file('pair-bad.nt', `<${EX}b> <${EX}p> oops .\n`);
      const r = await importFailure(ds.importData('ADD', { iris: [pathToFileURL(good).href, pathToFileURL(bad).href] }));
      expect(r.errors).to.equal(1);
      expect(await ds.countFacts()).to.equal(0);
    });

    it('a forced type that does not match a listed file rejects everything', async () => {
      const ds = await env.newStore();
      const nt = file('forced-a.nt', `<${EX}a> <${EX}p> <${EX}o> .\n`);
      const ttl = file('forced-b.ttl', `<${EX}b> <${EX}p> <${EX}o> .\n`);
      const e = await expectError(ds.importData('ADD', { iris: [pathToFileURL(nt).href, pathToFileURL(ttl).href] }, { mediaType: N_TRIPLES }), ParsingError);
      expect(e.message).to.contain('forced-b.ttl').and.contain('does not match');
      expect(await ds.countFacts()).to.equal(0);
      // a matching forced type is fine
      const r = await ds.importData('ADD', { iris: [pathToFileURL(nt).href] }, { mediaType: N_TRIPLES });
      expect(r.changedFacts).to.equal(1);
    });

    it('an empty IRI list is rejected', async () => {
      const ds = await env.newStore();
      await expectError(ds.importData('ADD', { iris: [] }), BadRequestError);
      await expectError(ds.importData('ADD', { iris: ['  ', '# only a comment'] }), BadRequestError);
      expect(await ds.countFacts()).to.equal(0);
    });

    it('an IRI with an unsupported scheme is refused, and text that is no IRI is rejected', async () => {
      const ds = await env.newStore();
      await expectError(ds.importData('ADD', { iris: ['ftp://example.com/data.nt'] }), AccessDeniedError);
      await expectError(ds.importData('ADD', { iris: ['not an iri'] }), ParsingError);
    });
  });

  describe('export', () => {
    async function sample(): Promise<DataStoreConnection> {
      const ds = await env.newStore();
      await ds.importData('ADD', `<${EX}a> <${EX}p> <${EX}b> .\n<${EX}a> <${EX}p> <${EX}c> <${EX}g> .\n`);
      return ds;
    }

    it('fact-domain explicit (the default) exports the imported facts; derived gives none yet', async () => {
      const ds = await sample();
      const plain = await ds.exportDataToString(N_QUADS);
      expect(await ds.exportDataToString(N_QUADS, { 'fact-domain': 'explicit' })).to.equal(plain);
      expect(sortedLines(plain)).to.deep.equal([`<${EX}a> <${EX}p> <${EX}b> .`, `<${EX}a> <${EX}p> <${EX}c> <${EX}g> .`].sort());
      expect(await ds.exportDataToString(N_QUADS, { 'fact-domain': 'derived' })).to.equal('');
      expect(await ds.exportDataToString(N_QUADS, { 'fact-domain': 'all' })).to.equal(plain);
    });

    it('rejects an invalid fact-domain, an unknown parameter and an unknown format', async () => {
      const ds = await sample();
      const e = await expectError(ds.exportDataToString(N_QUADS, { 'fact-domain': 'implicit' }), BadRequestError);
      expect(e.message).to.contain('implicit');
      const unknown: Record<string, string> = { 'rule-domain': 'user' };
      await expectError(ds.exportDataToString(N_QUADS, unknown), BadRequestError);
      await expectError(ds.exportDataToString('text/csv'), BadRequestError);
      await expectError(ds.exportDataToString('text/html'), BadRequestError);
    });

    it('N-Triples and Turtle carry the default graph only; N-Quads and TriG everything', async () => {
      const ds = await sample();
      expect(sortedLines(await ds.exportDataToString(N_TRIPLES))).to.deep.equal([`<${EX}a> <${EX}p> <${EX}b> .`]);
      expect(await ds.exportDataToString(TURTLE)).to.not.contain(`${EX}g`);
      expect(await ds.exportDataToString(TRIG)).to.contain(`<${EX}g>`);
    });

    it('writes to a stream and to a function', async () => {
      const ds = await sample();
      const stream = new PassThrough();
      const parts: Buffer[] = [];
      stream.on('data', (c: Buffer) => parts.push(c));
      await ds.exportData(stream, N_QUADS);
      stream.end();
      const chunks: string[] = [];
      await ds.exportData(async (chunk) => {
        await Promise.resolve();
        chunks.push(chunk);
      }, N_QUADS);
      expect(Buffer.concat(parts).toString('utf8')).to.equal(chunks.join(''));
      expect(chunks.join('')).to.equal(await ds.exportDataToString(N_QUADS));
    });

    it('Turtle uses the store prefixes, declaring those the data uses and no @base the user did not set', async () => {
      const ds = await env.newStore();
      await ds.setPrefixes({ 'ex:': EX, 'rdf:': RDF });
      await ds.importData('ADD', `<${EX}alice> <${RDF}type> <${EX}Person> .\n`);
      const ttl = await ds.exportDataToString(TURTLE);
      expect(ttl).to.contain(`@prefix ex: <${EX}>`);
      // rdf:type as a predicate is written 'a': the rdf: prefix is not needed
      expect(ttl).to.not.contain('@prefix rdf:');
      expect(ttl).to.not.contain('@prefix owl:');
      expect(ttl).to.not.contain('@base');
      await ds.importData('ADD', `<${EX}alice> <${RDF}value> <${EX}x> .\n`);
      expect(await ds.exportDataToString(TURTLE)).to.contain(`@prefix rdf: <${RDF}>`);

      expect(ttl).to.match(/^ex:alice (a|rdf:type) ex:Person\s*\.$/m);
      await ds.setPrefixes({});
      const bare = await ds.exportDataToString(TURTLE);
      expect(bare).to.not.contain('@prefix');
      expect(bare).to.contain(`<${EX}alice>`);
      await ds.setBaseIRI('http://example.org/base/');
      expect(await ds.exportDataToString(TURTLE)).to.match(/^@base <http:\/\/example\.org\/base\/> \.$/m);
    });
  });

  describe('round trips', () => {
    let source: DataStoreConnection;
    let all: string[];

    before(async () => {
      source = await env.newStore('round-trip-source');
      await source.setPrefix('ex:', EX);
      await source.setBaseIRI(`${EX}base/`);
      const r = await source.importData('ADD', RICH_TRIG);
      expect(r.errors, r.text).to.equal(0);
      const relative = await source.importData('ADD', '<relative> <p> <../up> .', { mediaType: TURTLE });
      expect(relative.errors, relative.text).to.equal(0);
      all = await nquadsOf(source);
    });

    it('the sample holds what it should', () => {
      expect(all).to.include(`<${EX}alice> <${EX}text> "line1\\nline2\\ttab \\"quoted\\" back\\\\slash \\r cr" .`);
      expect(all).to.include(`<${EX}alice> <${EX}unicode> "é ü 日本語 😀 é 😀" .`);
      expect(all).to.include(`<${EX}alice> <${EX}unicode> "control\\u0001\\u001F" .`);
      expect(all).to.include(`<${EX}alice> <${EX}typed> "42"^^<${XSD}integer> .`);
      expect(all).to.include(`<${EX}alice> <${EX}typed> "x"^^<${EX}datatype> .`);
      expect(all).to.include(`<${EX}alice> <${EX}typed> "plain" .`);
      expect(all).to.include(`<${EX}alice> <${EX}empty> <${RDF}nil> .`);
      expect(all).to.include(`<${EX}base/relative> <${EX}base/p> <${EX}up> .`);
      expect(all).to.include(`<${EX}s> <${EX}p> "in a blank-node graph"@en _:graph .`);
      expect(all.filter((l) => l.includes(`<${EX}lang>`)).length).to.equal(3);
      expect(all.filter((l) => l.startsWith('_:bob '))).to.have.length(3);
    });

    it('keeps distinct blank nodes distinct: anonymous ones never merge with labelled ones', async () => {
      const ds = await env.newStore();
      const r = await ds.importData('ADD', `@prefix ex: <${EX}> .\n[] ex:p ex:o1 .\n_:anon1 ex:p ex:o2 .\n_:anon2 ex:p [ ex:q ex:o3 ] .\n`);
      expect(r.errors, r.text).to.equal(0);
      const subjects = (await nquadsOf(ds)).map((l) => l.split(' ')[0]!);
      expect(new Set(subjects).size, subjects.join(' ')).to.equal(4);
      // within one import a label always denotes the same node
      const lines = await nquadsOf(ds);
      const o3 = lines.find((l) => l.includes(`<${EX}o3>`))!.split(' ')[0]!;
      expect(lines.some((l) => l.startsWith('_:') && l.endsWith(`${o3} .`))).to.equal(true);
    });

    for (const [type, carriesGraphs] of [
      [N_QUADS, true],
      [TRIG, true],
      [N_TRIPLES, false],
      [TURTLE, false],
    ] as const) {
      it(`${type}: export then import into a fresh store reproduces the facts exactly`, async () => {
        const text = await source.exportDataToString(type);
        const target = await env.newStore();
        const r = await target.importData('ADD', text);
        expect(r.errors, r.text).to.equal(0);
        const expected = carriesGraphs ? all : all.filter(isTriple);
        expect(await nquadsOf(target)).to.deep.equal(expected);
        // and stating the type gives the same
        const stated = await env.newStore();
        const r2 = await stated.importData('ADD', text, { mediaType: type });
        expect(r2.errors, r2.text).to.equal(0);
        expect(await nquadsOf(stated)).to.deep.equal(expected);
      });
    }

    it('a Turtle export of a store with a different base IRI imports correctly elsewhere', async () => {
      const target = await env.newStore();
      await target.setBaseIRI('http://elsewhere.example/');
      const r = await target.importData('ADD', await source.exportDataToString(TURTLE));
      expect(r.errors, r.text).to.equal(0);
      expect(await nquadsOf(target)).to.include(`<${EX}base/relative> <${EX}base/p> <${EX}up> .`);
    });

    it('exportDataAsBytes gives the UTF-8 of exportData for every format, to a function and to a stream', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', await source.exportDataToString(TRIG));
      await ds.importData('ADD', '[?x, <http://example.com/r>, ?y] :- [?x, <http://example.com/knows>, ?y] .');
      for (const type of [N_TRIPLES, N_QUADS, TURTLE, TRIG, DATALOG]) {
        for (const parameters of type === DATALOG ? [{}, { 'rule-domain': 'all' }] : [{}, { 'fact-domain': 'all' }]) {
          const text = await ds.exportDataToString(type, parameters);
          expect(text, type).to.not.equal('');
          const chunks: Uint8Array[] = [];
          await ds.exportDataAsBytes(
            async (chunk) => {
              expect(chunk).to.be.instanceOf(Uint8Array);
              await Promise.resolve();
              chunks.push(chunk);
            },
            type,
            parameters,
          );
          expect(Buffer.concat(chunks).toString('utf8'), type).to.equal(text);
          const stream = new PassThrough();
          const parts: Buffer[] = [];
          stream.on('data', (c: Buffer) => parts.push(c));
          await ds.exportDataAsBytes(stream, type, parameters);
          stream.end();
          expect(Buffer.concat(parts).toString('utf8'), type).to.equal(text);
        }
      }
    });

    it('exportDataAsBytes checks what exportData checks and reports the same progress', async () => {
      await expectError(source.exportDataAsBytes(() => undefined, 'text/csv'), BadRequestError);
      await expectError(source.exportDataAsBytes(() => undefined, N_QUADS, { 'fact-domain': 'implicit' }), BadRequestError);
      const finals: Array<{ bytes: number; facts: number }> = [];
      let size = 0;
      await source.exportDataAsBytes((chunk) => void (size += chunk.byteLength), N_QUADS, {}, { onProgress: (r) => void (r.finished && finals.push(r)) });
      await source.exportData(() => undefined, N_QUADS, {}, { onProgress: (r) => void (r.finished && finals.push(r)) });
      expect(finals).to.have.length(2);
      expect(finals[0]).to.deep.include({ bytes: size, facts: all.length });
      expect(finals[1]).to.deep.include({ bytes: size, facts: all.length });
    });

    it('exporting the re-imported store gives the same N-Quads text', async () => {
      const target = await env.newStore();
      await target.importData('ADD', await source.exportDataToString(N_QUADS));
      expect(sortedLines(await target.exportDataToString(N_QUADS))).to.deep.equal(all);
      expect(sortedLines(await target.exportDataToString(N_TRIPLES))).to.deep.equal(all.filter(isTriple));
    });
  });
});

/** Whether an N-Quads line is a triple of the default graph (its last term is the object). */
function isTriple(line: string): boolean {
  // the graph of an N-Quads line is an IRI or blank node right before the final ' .'
  const m = / (<[^>]*>|_:\S+) \.$/.exec(line);
  if (!m) return true; // ends with a literal: a triple
  // a triple ends with its object; a quad has a fourth term after the object
  const withoutLast = line.slice(0, m.index);
  return countTerms(withoutLast) === 2;
}

function countTerms(text: string): number {
  const re = /\s*(<[^>]*>|_:\S+|"(?:[^"\\]|\\.)*"(?:@[A-Za-z0-9-]+|\^\^<[^>]*>)?)/y;
  let n = 0;
  while (re.exec(text)) n++;
  return n;
}
