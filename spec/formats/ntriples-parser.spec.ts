import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createGunzip } from 'node:zlib';
import { expect } from 'chai';
import { Parser, type Quad, type Term } from 'n3';
import { NTriplesParser, type NTriplesSink } from '../../lib/formats/ntriples-parser.js';
import { LUBM, w3cPath } from '../helpers/test-data.js';

const W3C_DIR = w3cPath('rdf/rdf11');
const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const RDF_LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

interface ErrorEvent {
  line: number;
  column: number;
  message: string;
}

/** A sink recording everything as strings (canonical forms decoded as UTF-8). */
class RecordingSink implements NTriplesSink {
  readonly ids = new Map<string, number>();
  readonly terms: string[] = [];
  /** Every intern call in order. */
  readonly interned: string[] = [];
  /** For each intern call: whether the bytes passed were the input chunk itself. */
  readonly zeroCopy: boolean[] = [];
  readonly statements: string[][] = [];
  readonly errors: ErrorEvent[] = [];
  input: Uint8Array | undefined;

  intern(bytes: Uint8Array, start: number, end: number): number {
    const term = strictUtf8.decode(bytes.subarray(start, end));
    this.interned.push(term);
    this.zeroCopy.push(bytes === this.input);
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(term, id);
      this.terms.push(term);
    }
    return id;
  }

  statement(s: number, p: number, o: number, g: number): void {
    const row = [this.terms[s]!, this.terms[p]!, this.terms[o]!];
    if (g !== -1) row.push(this.terms[g]!);
    this.statements.push(row);
  }

  error(line: number, column: number, message: string): void {
    this.errors.push({ line, column, message });
  }
}

function toBytes(input: string | Uint8Array): Uint8Array {
  return typeof input === 'string' ? encoder.encode(input) : input;
}

/** Parses `input` in one chunk (or in the given chunks) and returns the recording sink. */
function parse(input: string | Uint8Array, quads = false, chunkSizes?: number[]): RecordingSink & { parser: NTriplesParser } {
  const bytes = toBytes(input);
  const sink = new RecordingSink();
  const parser = new NTriplesParser(sink, { quads });
  if (chunkSizes === undefined) {
    sink.input = bytes;
    parser.write(bytes);
  } else {
    let pos = 0;
    for (const size of chunkSizes) {
      parser.write(bytes.slice(pos, pos + size));
      pos += size;
    }
    parser.write(bytes.slice(pos));
  }
  parser.end();
  expect(parser.statements).to.equal(sink.statements.length);
  expect(parser.errors).to.equal(sink.errors.length);
  return Object.assign(sink, { parser });
}

/** The single object term of a one-statement N-Triples document. */
function objectOf(line: string): string {
  const r = parse(line);
  expect(r.errors, JSON.stringify(r.errors)).to.deep.equal([]);
  expect(r.statements).to.have.length(1);
  return r.statements[0]![2]!;
}

function errorsOf(input: string | Uint8Array, quads = false): ErrorEvent[] {
  const r = parse(input, quads);
  return r.errors;
}

/** Canonical form of an RDF/JS term produced by n3, for cross-checking. */
function canonical(term: Term): string {
  switch (term.termType) {
    case 'NamedNode':
      return `<${term.value}>`;
    case 'BlankNode':
      return `_:${term.value}`;
    case 'Literal': {
      const lex = `"${term.value}"`;
      if (term.language !== '') return `${lex}@${term.language.toLowerCase()}`;
      const dt = term.datatype.value;
      return dt === XSD_STRING || dt === RDF_LANG_STRING ? lex : `${lex}^^<${dt}>`;
    }
    default:
      throw new Error(`unexpected term type ${term.termType}`);
  }
}

interface ManifestEntry {
  name: string;
  file: string;
  positive: boolean;
}

/** Reads the syntax test entries of a W3C manifest with n3's Turtle parser. */
function readManifest(dir: string, kind: 'NTriples' | 'NQuads'): ManifestEntry[] {
  const manifestPath = join(dir, 'manifest.ttl');
  const quads: Quad[] = new Parser({ baseIRI: pathToFileURL(manifestPath).href }).parse(
    readFileSync(manifestPath, 'utf8'),
  );
  const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
  const MF = 'http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#';
  const RDFT = 'http://www.w3.org/ns/rdftest#';
  const entries: ManifestEntry[] = [];
  for (const q of quads) {
    if (q.predicate.value !== RDF_TYPE) continue;
    const type = q.object.value;
    let positive: boolean;
    if (type === `${RDFT}Test${kind}PositiveSyntax`) positive = true;
    else if (type === `${RDFT}Test${kind}NegativeSyntax`) positive = false;
    else continue;
    const action = quads.find((a) => a.subject.equals(q.subject) && a.predicate.value === `${MF}action`);
    const name = quads.find((a) => a.subject.equals(q.subject) && a.predicate.value === `${MF}name`);
    if (action === undefined) throw new Error(`no mf:action for ${q.subject.value}`);
    entries.push({
      name: name?.object.value ?? q.subject.value,
      file: fileURLToPath(action.object.value),
      positive,
    });
  }
  return entries;
}

describe('NTriplesParser', () => {
  for (const [suite, kind, quads] of [
    ['rdf-n-triples', 'NTriples', false],
    ['rdf-n-quads', 'NQuads', true],
  ] as const) {
    describe(`W3C ${suite} suite`, () => {
      const dir = join(W3C_DIR, suite);
      const entries = readManifest(dir, kind);

      it('finds the manifest entries', () => {
        expect(entries.length).to.be.greaterThan(60);
        expect(entries.some((e) => e.positive)).to.equal(true);
        expect(entries.some((e) => !e.positive)).to.equal(true);
      });

      for (const entry of entries) {
        it(`${entry.positive ? 'accepts' : 'rejects'} ${entry.name}`, () => {
          const bytes = readFileSync(entry.file);
          const r = parse(bytes, quads);
          if (!entry.positive) {
            expect(r.errors.length, 'number of errors').to.be.greaterThan(0);
            return;
          }
          expect(r.errors, JSON.stringify(r.errors)).to.deep.equal([]);
          // Cross-check the canonical forms against n3's parse of the same file.
          const expected = new Parser({ format: quads ? 'N-Quads' : 'N-Triples', blankNodePrefix: '' })
            .parse(bytes.toString('utf8'))
            .map((q) => {
              const row = [canonical(q.subject), canonical(q.predicate), canonical(q.object)];
              if (q.graph.termType !== 'DefaultGraph') row.push(canonical(q.graph));
              return row;
            });
          expect(r.statements).to.deep.equal(expected);
          // Byte-at-a-time feeding gives the same result.
          const byByte = parse(bytes, quads, Array.from({ length: bytes.length }, () => 1));
          expect(byByte.statements).to.deep.equal(r.statements);
          expect(byByte.errors).to.deep.equal([]);
        });
      }
    });
  }

  describe('LUBM data', () => {
    it('parses lubm1.nt.gz streamed through gunzip exactly like n3', async () => {
      const sink = new RecordingSink();
      const parser = new NTriplesParser(sink, { quads: false });
      const chunks: Buffer[] = [];
      for await (const chunk of createReadStream(LUBM.lubm1).pipe(createGunzip())) {
        chunks.push(chunk as Buffer);
        parser.write(chunk as Buffer);
      }
      parser.end();
      expect(sink.errors).to.deep.equal([]);
      const expected = new Parser({ format: 'N-Triples', blankNodePrefix: '' })
        .parse(Buffer.concat(chunks).toString('utf8'))
        .map((q) => [canonical(q.subject), canonical(q.predicate), canonical(q.object)]);
      expect(parser.statements).to.equal(expected.length);
      expect(sink.statements).to.deep.equal(expected);
    });
  });

  describe('canonical forms', () => {
    it('passes IRIs through unchanged', () => {
      const r = parse('<http://ex/s> <http://ex/p> <http://ex/o> .\n');
      expect(r.statements).to.deep.equal([['<http://ex/s>', '<http://ex/p>', '<http://ex/o>']]);
    });

    it('resolves \\u and \\U escapes in IRIs', () => {
      const r = parse('<http://ex/\\u00E9t\\u00e9> <http://ex/p> <http://ex/\\U0001F600x> .\n');
      expect(r.errors).to.deep.equal([]);
      expect(r.statements).to.deep.equal([['<http://ex/été>', '<http://ex/p>', '<http://ex/😀x>']]);
    });

    it('resolves escapes forming the scheme before checking it', () => {
      expect(objectOf('<http://ex/s> <http://ex/p> <\\u0068ttp://ex/o> .')).to.equal('<http://ex/o>');
    });

    it('keeps blank node labels as written', () => {
      const r = parse('_:b1 <http://ex/p> _:a.b-c_d .\n_:1x <http://ex/p> _:é·x .\n');
      expect(r.errors).to.deep.equal([]);
      expect(r.statements).to.deep.equal([
        ['_:b1', '<http://ex/p>', '_:a.b-c_d'],
        ['_:1x', '<http://ex/p>', '_:é·x'],
      ]);
    });

    it('does not include a trailing dot in a blank node label', () => {
      const r = parse('<http://ex/s> <http://ex/p> _:a.b.\n');
      expect(r.errors).to.deep.equal([]);
      expect(r.statements[0]![2]).to.equal('_:a.b');
    });

    it('keeps plain literals', () => {
      expect(objectOf('<http://ex/s> <http://ex/p> "hello world" .')).to.equal('"hello world"');
      expect(objectOf('<http://ex/s> <http://ex/p> "" .')).to.equal('""');
      expect(objectOf('<http://ex/s> <http://ex/p> "tab\there" .')).to.equal('"tab\there"');
    });

    it('resolves all ECHAR escapes in literals', () => {
      expect(objectOf('<http://ex/s> <http://ex/p> "a\\tb\\bc\\nd\\re\\ff\\"g\\\'h\\\\i" .')).to.equal(
        '"a\tb\bc\nd\re\ff"g\'h\\i"',
      );
    });

    it('resolves UCHAR escapes in literals', () => {
      expect(objectOf('<http://ex/s> <http://ex/p> "\\u00e9\\u20AC\\U0001F600\\u0000" .')).to.equal(
        '"é€😀\u0000"',
      );
    });

    it('drops the xsd:string datatype', () => {
      expect(objectOf(`<http://ex/s> <http://ex/p> "abc"^^<${XSD_STRING}> .`)).to.equal('"abc"');
      expect(objectOf(`<http://ex/s> <http://ex/p> "a\\"c"^^<${XSD_STRING}> .`)).to.equal('"a"c"');
      expect(
        objectOf('<http://ex/s> <http://ex/p> "abc"^^<http://www.w3.org/2001/XMLSchema#\\u0073tring> .'),
      ).to.equal('"abc"');
    });

    it('keeps other datatypes, resolving their escapes', () => {
      expect(objectOf('<http://ex/s> <http://ex/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .')).to.equal(
        '"1"^^<http://www.w3.org/2001/XMLSchema#integer>',
      );
      expect(objectOf('<http://ex/s> <http://ex/p> "1\\n"^^<http://ex/d\\u00E9> .')).to.equal(
        '"1\n"^^<http://ex/dé>',
      );
      expect(objectOf('<http://ex/s> <http://ex/p> "1"^^<http://ex/d\\u00E9> .')).to.equal('"1"^^<http://ex/dé>');
    });

    it('lower-cases language tags', () => {
      expect(objectOf('<http://ex/s> <http://ex/p> "chat"@fr .')).to.equal('"chat"@fr');
      expect(objectOf('<http://ex/s> <http://ex/p> "chat"@EN-Us .')).to.equal('"chat"@en-us');
      expect(objectOf('<http://ex/s> <http://ex/p> "c\\u0068at"@en-GB-oed .')).to.equal('"chat"@en-gb-oed');
      expect(objectOf('<http://ex/s> <http://ex/p> "x"@de-1996.')).to.equal('"x"@de-1996');
    });

    it('accepts white space between a string and its suffix', () => {
      expect(objectOf('<http://ex/s> <http://ex/p> "x" @en .')).to.equal('"x"@en');
      expect(objectOf('<http://ex/s> <http://ex/p> "x" ^^ <http://ex/d> .')).to.equal('"x"^^<http://ex/d>');
    });

    it('passes input slices without copying when no rewriting is needed', () => {
      const r = parse(`<http://ex/s> _:p "x"@en .\n_:b <http://ex/p> "y"^^<${XSD_STRING}> .\n`);
      // (the first line is rejected: blank node predicate)
      expect(r.statements).to.deep.equal([['_:b', '<http://ex/p>', '"y"']]);
      expect(r.zeroCopy).to.deep.equal([true, true, true]);
      const r2 = parse('<http://ex/s> <http://ex/p> "x"^^<http://ex/d> .\n<http://ex/s> <http://ex/p> "x"@en .\n');
      expect(r2.zeroCopy).to.deep.equal([true, true, true, true, true, true]);
      const r3 = parse('<http://ex/\\u0073> <http://ex/p> "a\\n" .\n<http://ex/s> <http://ex/p> "x"@EN .\n');
      expect(r3.zeroCopy).to.deep.equal([false, true, false, true, true, false]);
    });

    it('does not intern terms of rejected lines', () => {
      const r = parse('<http://ex/s> <http://ex/p> <http://ex/o> <http://ex/g> .\n');
      expect(r.interned).to.deep.equal([]);
      expect(r.errors).to.have.length(1);
    });
  });

  describe('N-Quads', () => {
    it('reports the graph term, and -1 for the default graph', () => {
      const ids: number[] = [];
      const sink: NTriplesSink = {
        intern: (_b, s, e) => e - s,
        statement: (_s, _p, _o, g) => ids.push(g),
        error: () => expect.fail('unexpected error'),
      };
      const parser = new NTriplesParser(sink, { quads: true });
      parser.write(encoder.encode('<http://ex/s> <http://ex/p> "o" <http://ex/g> .\n<http://ex/s> <http://ex/p> "o" .\n'));
      parser.end();
      expect(ids).to.deep.equal([13, -1]);
    });

    it('accepts IRI and blank node graph labels', () => {
      const r = parse('<http://ex/s> <http://ex/p> "o"@en <http://ex/g> .\n_:s <http://ex/p> _:o _:g.\n', true);
      expect(r.errors).to.deep.equal([]);
      expect(r.statements).to.deep.equal([
        ['<http://ex/s>', '<http://ex/p>', '"o"@en', '<http://ex/g>'],
        ['_:s', '<http://ex/p>', '_:o', '_:g'],
      ]);
    });

    it('rejects literal graph labels and quints', () => {
      expect(errorsOf('<http://ex/s> <http://ex/p> <http://ex/o> "g" .\n', true)).to.deep.equal([
        { line: 1, column: 43, message: 'a literal is not allowed as graph label' },
      ]);
      const errors = errorsOf('<http://ex/s> <http://ex/p> <http://ex/o> <http://ex/g> <http://ex/x> .\n', true);
      expect(errors).to.have.length(1);
      expect(errors[0]!.column).to.equal(57);
      expect(errors[0]!.message).to.match(/too many terms/);
    });

    it('rejects relative graph IRIs', () => {
      expect(errorsOf('<http://ex/s> <http://ex/p> <http://ex/o> <g> .\n', true)).to.deep.equal([
        { line: 1, column: 43, message: "relative IRI 'g' is not allowed in N-Quads" },
      ]);
    });
  });

  describe('errors', () => {
    const S = '<http://ex/s> <http://ex/p> ';

    it('names the problem and points at the offending character', () => {
      const cases: [string, number, string][] = [
        [`${S}<http://ex/o>`, 42, "expected '.' at end of statement, found end of line"],
        [`${S}<http://ex/o> ;`, 43, "expected '.' at end of statement, found ';'"],
        [`${S}<http://ex/o> <http://ex/g> .`, 43, 'a fourth term (graph) is not allowed in N-Triples'],
        [`${S}"o" "g" .`, 33, 'a fourth term (graph) is not allowed in N-Triples'],
        [`<foo> <http://ex/p> <http://ex/o> .`, 1, "relative IRI 'foo' is not allowed in N-Triples"],
        [`${S}"o"^^<dt> .`, 34, "relative IRI 'dt' is not allowed in N-Triples"],
        [`${S}"a\\ab" .`, 31, "invalid escape sequence '\\a'"],
        [`${S}"\\uWXYZ" .`, 30, "invalid escape sequence '\\uWXYZ'"],
        [`${S}"\\U0000WXYZ" .`, 30, "invalid escape sequence '\\U0000WXYZ'"],
        [`<http://ex/\\n> <http://ex/p> <http://ex/o> .`, 12, "invalid escape sequence '\\n' in IRI (only \\uXXXX and \\UXXXXXXXX are allowed)"],
        [`<http://ex/ space> <http://ex/p> <http://ex/o> .`, 12, "invalid character ' ' (space) in IRI"],
        [`<http://ex/{x}> <http://ex/p> <http://ex/o> .`, 12, "invalid character '{' in IRI"],
        [`<http://ex/\\u0020> <http://ex/p> <http://ex/o> .`, 12, "escape '\\u0020' denotes a character that is not allowed in an IRI"],
        [`<http://ex/\\u003E> <http://ex/p> <http://ex/o> .`, 12, "escape '\\u003E' denotes a character that is not allowed in an IRI"],
        [`<http://ex/\\uD800> <http://ex/p> <http://ex/o> .`, 12, "escape '\\uD800' denotes a surrogate code point"],
        [`${S}"\\U00110000" .`, 30, "escape '\\U00110000' does not denote a valid code point"],
        [`${S}"\\uDC00" .`, 30, "escape '\\uDC00' does not denote a valid code point"],
        [`<http://ex/s <http://ex/p> <http://ex/o> .`, 13, "invalid character ' ' (space) in IRI"],
        [`${S}<http://ex/o`, 41, "unterminated IRI (missing '>')"],
        [`${S}"abc .`, 35, "unterminated string literal (missing closing '\"')"],
        [`${S}"abc' .`, 36, "unterminated string literal (missing closing '\"')"],
        [`${S}'abc' .`, 29, "single-quoted strings are not allowed in N-Triples"],
        [`${S}1 .`, 29, "expected object (IRI, blank node, literal or triple term), found '1'"],
        [`${S}"s"@1 .`, 33, "invalid language tag: expected a letter after '@', found '1'"],
        [`${S}"s"@en- .`, 36, "invalid language tag: expected a letter or digit after '-', found ' ' (space)"],
        [`${S}"s"^<http://ex/d> .`, 33, "expected '^^' before the datatype IRI"],
        [`${S}"s"^^"d" .`, 34, `expected datatype IRI after '^^', found '"'`],
        [`_::a <http://ex/p> <http://ex/o> .`, 3, "invalid blank node label: expected a letter, digit or '_' after '_:', found ':'"],
        [`_:abc:def <http://ex/p> <http://ex/o> .`, 6, "invalid character ':' in blank node label"],
        [`_:.a <http://ex/p> <http://ex/o> .`, 3, "invalid blank node label: expected a letter, digit or '_' after '_:', found '.'"],
        [`_a <http://ex/p> <http://ex/o> .`, 2, "expected ':' after '_' in blank node label"],
        [`_:a× <http://ex/p> <http://ex/o> .`, 4, "invalid character '×' in blank node label"],
        [`"s" <http://ex/p> <http://ex/o> .`, 1, 'a literal is not allowed as subject'],
        [`<http://ex/s> _:p <http://ex/o> .`, 15, 'a blank node is not allowed as predicate'],
        [`<http://ex/s> "p" <http://ex/o> .`, 15, 'a literal is not allowed as predicate'],
        [`@prefix : <http://ex/> .`, 1, "directives ('@prefix', '@base') are not allowed in N-Triples"],
        [`PREFIX : <http://ex/>`, 1, "expected subject (IRI or blank node), found 'P'"],
        [`${S}<http://ex/o> . <http://ex/s2> <http://ex/p> <http://ex/o> .`, 45, "expected end of line after '.', found '<'"],
        [`${S}<http://ex/o>, <http://ex/o2> .`, 42, "expected '.' at end of statement, found ','"],
      ];
      for (const [input, column, message] of cases) {
        expect(errorsOf(`${input}\n`), input).to.deep.equal([{ line: 1, column, message }]);
      }
    });

    it('counts columns in characters, not bytes', () => {
      expect(errorsOf('<http://ex/é> <http://ex/p> "😀ü" x .\n')).to.deep.equal([
        { line: 1, column: 34, message: "expected '.' at end of statement, found 'x'" },
      ]);
    });

    it('rejects invalid UTF-8', () => {
      const bad = (s: string, bytes: number[], t: string): Uint8Array => {
        const [a, b] = [encoder.encode(s), encoder.encode(t)];
        return new Uint8Array([...a, ...bytes, ...b]);
      };
      const S2 = '<http://ex/s> <http://ex/p> ';
      const cases: [Uint8Array, number, string][] = [
        [bad(`${S2}"a`, [0xff], '" .\n'), 31, 'invalid UTF-8 byte sequence in string literal'],
        [bad(`${S2}"a`, [0xc3], '" .\n'), 31, 'invalid UTF-8 byte sequence in string literal'],
        [bad(`${S2}"a`, [0xc0, 0xaf], '" .\n'), 31, 'invalid UTF-8 byte sequence in string literal'], // overlong
        [bad(`${S2}"a`, [0xed, 0xa0, 0x80], '" .\n'), 31, 'invalid UTF-8 byte sequence in string literal'], // surrogate
        [bad(`${S2}"a`, [0xf4, 0x90, 0x80, 0x80], '" .\n'), 31, 'invalid UTF-8 byte sequence in string literal'],
        [bad('<http://ex/', [0x80], '> <http://ex/p> <http://ex/o> .\n'), 12, 'invalid UTF-8 byte sequence in IRI'],
        [bad('_:a', [0xe2, 0x82], ' <http://ex/p> <http://ex/o> .\n'), 4, 'invalid UTF-8 byte sequence in blank node label'],
        [bad(`${S2}<http://ex/o> . # x`, [0xfe], '\n'), 48, 'invalid UTF-8 byte sequence in comment'],
        [bad('# x', [0xfe], '\n'), 4, 'invalid UTF-8 byte sequence in comment'],
      ];
      for (const [input, column, message] of cases) {
        expect(errorsOf(input), message).to.deep.equal([{ line: 1, column, message }]);
      }
    });

    it('continues after an error and reports every bad line', () => {
      const input = [
        '<http://ex/s> <http://ex/p> <http://ex/o1> .', // 1 ok
        '<http://ex/s> <http://ex/p> <o2> .', // 2 bad
        '# comment', // 3
        '<http://ex/s> <http://ex/p> "a\\qb" .', // 4 bad
        '', // 5
        '<http://ex/s> <http://ex/p> <http://ex/o3> .', // 6 ok
        '<http://ex/s> <http://ex/p> <http://ex/o4>', // 7 bad
        '<http://ex/s> <http://ex/p> "unterminated', // 8 bad
        '<http://ex/s> <http://ex/p> <http://ex/o5> . # trailing comment', // 9 ok
      ].join('\n');
      const r = parse(input);
      expect(r.statements.map((s) => s[2])).to.deep.equal(['<http://ex/o1>', '<http://ex/o3>', '<http://ex/o5>']);
      expect(r.errors.map((e) => [e.line, e.column])).to.deep.equal([
        [2, 29],
        [4, 31],
        [7, 43],
        [8, 42],
      ]);
    });

    it('counts lines for \\n, \\r and \\r\\n line ends', () => {
      const r = parse('<http://ex/s> <http://ex/p> <http://ex/o> .\r\n\rx\r\nx\ny');
      expect(r.errors.map((e) => e.line)).to.deep.equal([3, 4, 5]);
    });
  });

  describe('RDF 1.2', () => {
    const S = '<http://ex/s> <http://ex/p> ';

    it('reads a triple term as the key of its parts in parentheses', () => {
      expect(objectOf(`${S}<<( <http://ex/a> <http://ex/b> <http://ex/c> )>> .\n`)).to.equal('(<http://ex/a> <http://ex/b> <http://ex/c>)');
      expect(objectOf(`${S}<<(<http://ex/a><http://ex/b>"c")>>.\n`)).to.equal('(<http://ex/a> <http://ex/b> "c")');
      expect(objectOf(`${S}<<(\t_:x  <http://ex/b> _:y\t)>> .\n`)).to.equal('(_:x <http://ex/b> _:y)');
    });

    it('reads nested triple terms and gives the parts their canonical forms', () => {
      const line = `${S}<<( _:r <http://ex/\\u0071> <<( <http://ex/a> <http://ex/b> "x\\ty"@EN-GB--rtl )>> )>> .\n`;
      expect(objectOf(line)).to.equal('(_:r <http://ex/q> (<http://ex/a> <http://ex/b> "x\ty"@en-gb--rtl))');
      expect(objectOf(`${S}<<( <http://ex/a> <http://ex/b> "1"^^<http://www.w3.org/2001/XMLSchema#string> )>> .\n`)).to.equal('(<http://ex/a> <http://ex/b> "1")');
      expect(objectOf(`${S}<<( <http://ex/a> <http://ex/b> "1"^^<http://ex/\\u0064> )>> .\n`)).to.equal('(<http://ex/a> <http://ex/b> "1"^^<http://ex/d>)');
    });

    it('reads triple terms in N-Quads, with a graph', () => {
      const r = parse(`${S}<<( <http://ex/a> <http://ex/b> <http://ex/c> )>> <http://ex/g> .\n`, true);
      expect(r.errors).to.deep.equal([]);
      expect(r.statements).to.deep.equal([['<http://ex/s>', '<http://ex/p>', '(<http://ex/a> <http://ex/b> <http://ex/c>)', '<http://ex/g>']]);
    });

    it('reads a base direction after a language tag', () => {
      expect(objectOf(`${S}"hello"@en--ltr .\n`)).to.equal('"hello"@en--ltr');
      expect(objectOf(`${S}"שלום"@HE--rtl .\n`)).to.equal('"שלום"@he--rtl');
      expect(objectOf(`${S}"x"@en-US--ltr .\n`)).to.equal('"x"@en-us--ltr');
    });

    it('reports RDF 1.2 errors with line and column', () => {
      const cases: [string, number, string][] = [
        [`<<( <http://ex/a> <http://ex/b> <http://ex/c> )>> <http://ex/p> <http://ex/o> .`, 1, 'a triple term is not allowed as subject in N-Triples'],
        [`<http://ex/s> <<( <http://ex/a> <http://ex/b> <http://ex/c> )>> <http://ex/o> .`, 15, 'a triple term is not allowed as predicate'],
        [`${S}<< <http://ex/a> <http://ex/b> <http://ex/c> >> .`, 29, "expected '<<(' (a triple term): N-Triples has no reified triples '<< … >>'"],
        [`${S}<<( "a" <http://ex/b> <http://ex/c> )>> .`, 33, 'a literal is not allowed as the subject of a triple term'],
        [`${S}<<( <http://ex/a> _:b <http://ex/c> )>> .`, 47, 'a blank node is not allowed as the predicate of a triple term'],
        [`${S}<<( <http://ex/a> <http://ex/b> <http://ex/c> ) >> .`, 75, "expected ')>>' at the end of a triple term, found ')'"],
        [`${S}<<( <http://ex/a> <http://ex/b> <http://ex/c> .`, 75, "expected ')>>' at the end of a triple term, found '.'"],
        [`${S}<<( <http://ex/a> <http://ex/b> <http://ex/c> <http://ex/d> )>> .`, 75, "expected ')>>' at the end of a triple term, found '<'"],
        [`${S}<<( <http://ex/a> <http://ex/b> 1 )>> .`, 61, "expected object (IRI, blank node, literal or triple term), found '1'"],
        [`${S}<<( <http://ex/a> <http://ex/b> "é\\q" )>> .`, 63, "invalid escape sequence '\\q'"],
        [`${S}"x"@en--unk .`, 37, "invalid base direction: expected 'ltr' or 'rtl' after '--'"],
        [`${S}"x"@en--LTR .`, 37, "invalid base direction: expected 'ltr' or 'rtl' after '--'"],
        [`${S}"x"@en--ltrx .`, 37, "invalid base direction: expected 'ltr' or 'rtl' after '--'"],
        [`${S}"x"@cantbethislong .`, 33, 'invalid language tag: a subtag has at most 8 characters'],
        [`${S}"x"@en-abcdefghi .`, 36, 'invalid language tag: a subtag has at most 8 characters'],
        [`${S}"x"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#langString> .`, 34, 'a literal with datatype rdf:langString or rdf:dirLangString is written with a language tag, not with ^^'],
        [`${S}"x"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#dirLangString> .`, 34, 'a literal with datatype rdf:langString or rdf:dirLangString is written with a language tag, not with ^^'],
      ];
      for (const [input, column, message] of cases) {
        expect(errorsOf(`${input}\n`), input).to.deep.equal([{ line: 1, column, message }]);
      }
      expect(errorsOf(`${S}<<( <http://ex/a> <http://ex/b> <http://ex/c> )>> <http://ex/g> .\n`)).to.deep.equal([
        { line: 1, column: 79, message: 'a fourth term (graph) is not allowed in N-Triples' },
      ]);
    });

    it('refuses triple terms nested deeper than 64', () => {
      const nest = (depth: number): string => (depth === 0 ? '<http://ex/o>' : `<<( <http://ex/a> <http://ex/b> ${nest(depth - 1)} )>>`);
      expect(errorsOf(`${S}${nest(64)} .\n`)).to.deep.equal([]);
      expect(errorsOf(`${S}${nest(65)} .\n`).map((e) => e.message)).to.deep.equal(['triple terms nested more than 64 deep']);
    });

    it('interns nothing of a bad triple term, and goes on with the next line', () => {
      const r = parse(`${S}<<( <http://ex/a> <http://ex/b> "c" )> .\n${S}<<( <http://ex/a> <http://ex/b> "d" )>> .\n`);
      expect(r.errors.map((e) => e.line)).to.deep.equal([1]);
      expect(r.interned).to.deep.equal(['<http://ex/s>', '<http://ex/p>', '(<http://ex/a> <http://ex/b> "d")']);
    });

    it('gives the same result for a split at every byte position', () => {
      const bytes = encoder.encode(`${S}<<( _:é <http://ex/b> <<( <http://ex/a> <http://ex/b> "x\\"y"@en--rtl )>> )>> .\n${S}"z"@ar--rtl .\n`);
      const whole = parse(bytes);
      expect(whole.errors).to.deep.equal([]);
      expect(whole.statements.map((st) => st[2])).to.deep.equal(['(_:é <http://ex/b> (<http://ex/a> <http://ex/b> "x"y"@en--rtl))', '"z"@ar--rtl']);
      for (let i = 0; i <= bytes.length; i++) {
        const r = parse(bytes, false, [i]);
        expect(r.statements, `split at ${i}`).to.deep.equal(whole.statements);
        expect(r.interned, `split at ${i}`).to.deep.equal(whole.interned);
      }
    });
  });

  describe('streaming', () => {
    const input = [
      '# Ünïcödé comment 😀',
      '<http://ex/s\\u00E9> <http://ex/p> "caf\u00e9 \\"x\\" \\U0001F600 😀"@EN-gb .',
      '_:b\u00e9.x <http://ex/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .\r',
      '<http://ex/s> <http://ex/p> "s"^^<http://www.w3.org/2001/XMLSchema#string> .\r\n',
      '<http://ex/s> <http://ex/p> <rel> .',
      '   ',
      '<http://ex/\u4e2d\u6587> <http://ex/p> "\u4e2d\u6587"@zh . # comment',
      '<http://ex/s> <http://ex/p> "bad\\escape" .',
      '<http://ex/s> <http://ex/p> "last line without newline" .',
    ].join('\n');
    const bytes = encoder.encode(input);
    const whole = parse(bytes);

    it('parses the reference input as expected', () => {
      expect(whole.statements).to.deep.equal([
        ['<http://ex/sé>', '<http://ex/p>', '"café "x" 😀 😀"@en-gb'],
        ['_:bé.x', '<http://ex/p>', '"1"^^<http://www.w3.org/2001/XMLSchema#integer>'],
        ['<http://ex/s>', '<http://ex/p>', '"s"'],
        ['<http://ex/中文>', '<http://ex/p>', '"中文"@zh'],
        ['<http://ex/s>', '<http://ex/p>', '"last line without newline"'],
      ]);
      expect(whole.errors).to.deep.equal([
        { line: 6, column: 29, message: "relative IRI 'rel' is not allowed in N-Triples" },
        { line: 9, column: 33, message: "invalid escape sequence '\\e'" },
      ]);
    });

    it('gives the same result for a split at every byte position', () => {
      for (let i = 0; i <= bytes.length; i++) {
        const r = parse(bytes, false, [i]);
        expect(r.statements, `split at ${i}`).to.deep.equal(whole.statements);
        expect(r.errors, `split at ${i}`).to.deep.equal(whole.errors);
        expect(r.interned, `split at ${i}`).to.deep.equal(whole.interned);
      }
    });

    it('gives the same result for two splits at many positions', () => {
      for (let i = 0; i <= bytes.length; i += 3) {
        for (let j = 0; i + j <= bytes.length; j += 5) {
          const r = parse(bytes, false, [i, j]);
          expect(r.statements, `split at ${i}+${j}`).to.deep.equal(whole.statements);
          expect(r.errors, `split at ${i}+${j}`).to.deep.equal(whole.errors);
        }
      }
    });

    it('gives the same result when fed one byte at a time', () => {
      const r = parse(bytes, false, Array.from({ length: bytes.length }, () => 1));
      expect(r.statements).to.deep.equal(whole.statements);
      expect(r.errors).to.deep.equal(whole.errors);
    });

    it('treats a CR at the end of a chunk followed by LF as one line end', () => {
      const data = '<http://ex/s> <http://ex/p> <http://ex/o> .\r\nx\n';
      const cr = data.indexOf('\r');
      const r = parse(data, false, [cr + 1]);
      expect(r.errors.map((e) => e.line)).to.deep.equal([2]);
      const r2 = parse(data, false, [cr, 1]);
      expect(r2.errors.map((e) => e.line)).to.deep.equal([2]);
    });

    it('handles empty writes, empty input and a leading byte order mark', () => {
      const sink = new RecordingSink();
      const parser = new NTriplesParser(sink, { quads: false });
      parser.write(new Uint8Array(0));
      parser.end();
      expect(parser.statements).to.equal(0);
      const r = parse(new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode('<http://ex/s> <http://ex/p> "o" .')]));
      expect(r.errors).to.deep.equal([]);
      expect(r.statements).to.have.length(1);
    });

    it('handles lines longer than the internal buffers', () => {
      const long = 'x'.repeat(100_000);
      const data = encoder.encode(`<http://ex/${long}> <http://ex/p> "${long}\\n"@EN .\n`);
      const r = parse(data, false, [1000, 7000, 50_000]);
      expect(r.errors).to.deep.equal([]);
      expect(r.statements).to.deep.equal([[`<http://ex/${long}>`, '<http://ex/p>', `"${long}\n"@en`]]);
    });
  });
});
