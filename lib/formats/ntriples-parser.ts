/**
 * A fast, streaming N-Triples / N-Quads parser working directly on UTF-8 bytes.
 *
 * The parser never builds RDF/JS term objects. Every term is reduced to its
 * *canonical byte form* and handed to {@link NTriplesSink.intern}, which maps it
 * to an integer id; statements are then reported as tuples of ids.
 *
 * Canonical byte forms (the store's dictionary keys on these, so they are exact):
 * - IRI: `<` + IRI (UTF-8, every `\uXXXX` / `\UXXXXXXXX` resolved) + `>`.
 * - Blank node: `_:` + label as written.
 * - Literal: `"` + lexical form (UTF-8, all escapes resolved) + `"`, followed by
 *   nothing (plain literal or `xsd:string`, whose datatype is dropped),
 *   `@` + lower-cased language tag (and `--ltr` / `--rtl`, an RDF 1.2 base direction),
 *   or `^^<` + datatype IRI (escapes resolved) + `>`.
 * - Triple term (RDF 1.2, `<<( s p o )>>` in object position, nested to any depth): `(` +
 *   the canonical forms of its subject, predicate and object with one space between them +
 *   `)`, always composed in the scratch buffer.
 *
 * When a term contains no escape (and, for literals, has no `xsd:string`
 * datatype, no upper-case letters in the language tag and no white space
 * between the string and its suffix) its canonical form is exactly its bytes
 * in the input, so the input slice is passed to `intern` without copying.
 * Otherwise the canonical form is written into a reusable scratch buffer.
 *
 * The parser only ever parses complete lines: the incomplete last line of a
 * chunk is carried over and prepended to the next chunk.
 *
 * @module
 */

/** Receives the parser's output. Term ids come from `intern`. */
export interface NTriplesSink {
  /**
   * Returns the id for the term whose canonical byte form is `bytes[start, end)`.
   * Must not keep a reference to `bytes` (it is reused).
   */
  intern(bytes: Uint8Array, start: number, end: number): number;
  /** One statement. `g` is -1 for the default graph. */
  statement(s: number, p: number, o: number, g: number): void;
  /**
   * A syntax error at 1-based `line` and `column` (column counted in characters
   * of that line, 1-based); the parser then skips to the next line and continues.
   */
  error(line: number, column: number, message: string): void;
}

/** Options of {@link NTriplesParser}. */
export interface NTriplesParserOptions {
  /**
   * `false`: N-Triples (a fourth term is an error);
   * `true`: N-Quads (the graph term is optional and is an IRI or a blank node).
   */
  quads: boolean;
  /**
   * Whether error messages may quote the input (default true): false for content the caller
   * did not give itself (fetched by IRI), whose errors then name the rule broken and the
   * position only.
   */
  showContent?: boolean;
}

// ---------------------------------------------------------------------------
// Byte constants and lookup tables
// ---------------------------------------------------------------------------

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22; // "
const HASH = 0x23; // #
const APOS = 0x27; // '
const DASH = 0x2d; // -
const DOT = 0x2e; // .
const COLON = 0x3a; // :
const LT = 0x3c; // <
const GT = 0x3e; // >
const LPAREN = 0x28; // (
const RPAREN = 0x29; // )
const AT = 0x40; // @
const BACKSLASH = 0x5c; // \
const CARET = 0x5e; // ^
const UNDERSCORE = 0x5f; // _

/** IRI byte classes: 0 = ordinary, 1 = invalid, 2 = '>', 3 = '\', 4 = non-ASCII, 5 = line end. */
const IRI_CLASS = new Uint8Array(256);
/** String byte classes: 0 = ordinary, 1 = '"', 2 = '\', 3 = line end, 4 = non-ASCII. */
const STR_CLASS = new Uint8Array(256);
/** Hex digit values, 255 for non-hex bytes. */
const HEX = new Uint8Array(256).fill(255);
/** ASCII bytes allowed as the first character of a blank node label. */
const BN_FIRST = new Uint8Array(256);
/** ASCII bytes allowed in the rest of a blank node label (including '.'). */
const BN_REST = new Uint8Array(256);

for (let c = 0; c < 256; c++) {
  if (c <= SPACE || c === LT || c === QUOTE || c === 0x7b || c === 0x7d || c === 0x7c || c === CARET || c === 0x60) {
    IRI_CLASS[c] = 1;
  }
  if (c >= 0x80) {
    IRI_CLASS[c] = 4;
    STR_CLASS[c] = 4;
  }
  const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  const digit = c >= 0x30 && c <= 0x39;
  if (letter || digit || c === UNDERSCORE) {
    BN_FIRST[c] = 1;
    BN_REST[c] = 1;
  }
  if (c === DASH || c === DOT) BN_REST[c] = 1;
  if (digit) HEX[c] = c - 0x30;
  else if (c >= 0x41 && c <= 0x46) HEX[c] = c - 0x41 + 10;
  else if (c >= 0x61 && c <= 0x66) HEX[c] = c - 0x61 + 10;
}
IRI_CLASS[GT] = 2;
IRI_CLASS[BACKSLASH] = 3;
IRI_CLASS[LF] = 5;
IRI_CLASS[CR] = 5;
STR_CLASS[QUOTE] = 1;
STR_CLASS[BACKSLASH] = 2;
STR_CLASS[LF] = 3;
STR_CLASS[CR] = 3;

/** Canonical form of the `xsd:string` datatype IRI. */
const XSD_STRING = new TextEncoder().encode('<http://www.w3.org/2001/XMLSchema#string>');
/** The datatypes a literal written with `^^` cannot have (they need a language tag). */
const RDF_LANG_STRING = new TextEncoder().encode('<http://www.w3.org/1999/02/22-rdf-syntax-ns#langString>');
const RDF_DIR_LANG_STRING = new TextEncoder().encode('<http://www.w3.org/1999/02/22-rdf-syntax-ns#dirLangString>');
/** Longest subtag of a language tag (BCP 47). */
const MAX_SUBTAG = 8;
/** Deepest nesting of triple terms read (deeper input is refused, so recursion stays bounded). */
const MAX_TRIPLE_DEPTH = 64;

const utf8Decoder = new TextDecoder('utf-8', { fatal: false });

/** Code point of the last sequence decoded by {@link utf8Length}. */
let decodedCodePoint = 0;

/**
 * Validates the UTF-8 sequence starting at `p` (whose first byte is >= 0x80).
 * Returns its length (2–4) and sets {@link decodedCodePoint}, or 0 if invalid
 * (overlong forms, surrogates, code points above U+10FFFF, truncation).
 */
function utf8Length(buf: Uint8Array, p: number): number {
  const c0 = buf[p]!;
  if (c0 < 0xc2) return 0;
  const c1 = buf[p + 1]!;
  if ((c1 & 0xc0) !== 0x80) return 0;
  if (c0 < 0xe0) {
    decodedCodePoint = ((c0 & 0x1f) << 6) | (c1 & 0x3f);
    return 2;
  }
  if (c0 < 0xf0) {
    if (c0 === 0xe0 && c1 < 0xa0) return 0;
    if (c0 === 0xed && c1 >= 0xa0) return 0;
    const c2 = buf[p + 2]!;
    if ((c2 & 0xc0) !== 0x80) return 0;
    decodedCodePoint = ((c0 & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f);
    return 3;
  }
  if (c0 < 0xf5) {
    if (c0 === 0xf0 && c1 < 0x90) return 0;
    if (c0 === 0xf4 && c1 >= 0x90) return 0;
    const c2 = buf[p + 2]!;
    if ((c2 & 0xc0) !== 0x80) return 0;
    const c3 = buf[p + 3]!;
    if ((c3 & 0xc0) !== 0x80) return 0;
    decodedCodePoint = ((c0 & 0x07) << 18) | ((c1 & 0x3f) << 12) | ((c2 & 0x3f) << 6) | (c3 & 0x3f);
    return 4;
  }
  return 0;
}

/** PN_CHARS_BASE for code points >= 0x80. */
function isPnCharsBase(c: number): boolean {
  return (
    (c >= 0xc0 && c <= 0xd6) ||
    (c >= 0xd8 && c <= 0xf6) ||
    (c >= 0xf8 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x37d) ||
    (c >= 0x37f && c <= 0x1fff) ||
    (c >= 0x200c && c <= 0x200d) ||
    (c >= 0x2070 && c <= 0x218f) ||
    (c >= 0x2c00 && c <= 0x2fef) ||
    (c >= 0x3001 && c <= 0xd7ff) ||
    (c >= 0xf900 && c <= 0xfdcf) ||
    (c >= 0xfdf0 && c <= 0xfffd) ||
    (c >= 0x10000 && c <= 0xeffff)
  );
}

/** PN_CHARS (minus the ASCII part) for code points >= 0x80. */
function isPnChars(c: number): boolean {
  return isPnCharsBase(c) || c === 0xb7 || (c >= 0x300 && c <= 0x36f) || (c >= 0x203f && c <= 0x2040);
}

/** Whether a code point may appear in an IRI (after escape resolution). */
function isIriCodePoint(c: number): boolean {
  return !(
    c <= SPACE ||
    c === LT ||
    c === GT ||
    c === QUOTE ||
    c === 0x7b ||
    c === 0x7d ||
    c === 0x7c ||
    c === CARET ||
    c === 0x60 ||
    c === BACKSLASH
  );
}

/** Whether `bytes[start, end)` (IRI content without brackets) begins with a scheme `[A-Za-z][A-Za-z0-9+.-]*:`. */
function hasScheme(bytes: Uint8Array, start: number, end: number): boolean {
  if (start >= end) return false;
  let c = bytes[start]! | 0x20;
  if (c < 0x61 || c > 0x7a) return false;
  for (let p = start + 1; p < end; p++) {
    c = bytes[p]!;
    if (c === COLON) return true;
    const l = c | 0x20;
    if (!((l >= 0x61 && l <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === DOT || c === DASH)) return false;
  }
  return false;
}

/** Human-readable description of the character at `p` for error messages. */
function describeAt(buf: Uint8Array, p: number): string {
  const c = buf[p]!;
  if (c === LF || c === CR) return 'end of line';
  if (c === SPACE) return "' ' (space)";
  if (c < SPACE || c === 0x7f) return `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
  if (c < 0x80) return `'${String.fromCharCode(c)}'`;
  const n = utf8Length(buf, p);
  if (n === 0) return `invalid UTF-8 byte 0x${c.toString(16).toUpperCase()}`;
  return `'${String.fromCodePoint(decodedCodePoint)}'`;
}

/** Writes code point `c` as UTF-8 into `out` at `o`; returns the new position. */
function writeUtf8(out: Uint8Array, o: number, c: number): number {
  if (c < 0x80) {
    out[o++] = c;
  } else if (c < 0x800) {
    out[o++] = 0xc0 | (c >> 6);
    out[o++] = 0x80 | (c & 0x3f);
  } else if (c < 0x10000) {
    out[o++] = 0xe0 | (c >> 12);
    out[o++] = 0x80 | ((c >> 6) & 0x3f);
    out[o++] = 0x80 | (c & 0x3f);
  } else {
    out[o++] = 0xf0 | (c >> 18);
    out[o++] = 0x80 | ((c >> 12) & 0x3f);
    out[o++] = 0x80 | ((c >> 6) & 0x3f);
    out[o++] = 0x80 | (c & 0x3f);
  }
  return o;
}

/** Value of the `n` hex digits at `p`, or -1 if one of them is not a hex digit. */
function hexValue(buf: Uint8Array, p: number, n: number): number {
  let v = 0;
  for (let i = 0; i < n; i++) {
    const h = HEX[buf[p + i]!]!;
    if (h === 255) return -1;
    v = v * 16 + h;
  }
  return v;
}

// ---------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------

/**
 * Streaming N-Triples / N-Quads parser over UTF-8 byte chunks.
 *
 * Feed input with {@link NTriplesParser.write} and finish with
 * {@link NTriplesParser.end}. Output goes to the {@link NTriplesSink} given to the
 * constructor, synchronously, in input order. A syntax error rejects the whole
 * line (no term of a rejected line is interned) and parsing resumes on the next line.
 *
 * Grammar notes:
 * - Follows the RDF 1.2 N-Triples / N-Quads grammar (RDF 1.1 plus triple terms
 *   `<<( s p o )>>` in object position and base directions `@en--ltr`) and the W3C test suites.
 *   There is no white space inside the tokens `<<(` and `)>>`; language subtags have at most
 *   8 characters (BCP 47); the datatypes rdf:langString and rdf:dirLangString cannot be written
 *   with `^^`.
 *   IRIs must be absolute (have a scheme); `\uXXXX` / `\UXXXXXXXX` escapes must
 *   not denote characters that are forbidden in IRIs, surrogates or code points
 *   above U+10FFFF; invalid UTF-8 is rejected everywhere (including comments).
 * - `:` is not allowed in blank node labels (as in Turtle and the test suite;
 *   the RDF 1.1 N-Triples grammar text lists it in PN_CHARS_U by mistake).
 * - White space (space, tab) is allowed between a string and its `@lang` / `^^`
 *   suffix and between `^^` and the datatype IRI, as the EBNF permits.
 * - A UTF-8 byte order mark at the very start of the input is skipped.
 */
export class NTriplesParser {
  private readonly sink: NTriplesSink;
  private readonly quads: boolean;
  private readonly formatName: string;
  /** Whether messages may quote the input (see {@link NTriplesParserOptions.showContent}). */
  private readonly showContent: boolean;

  /** Bytes of the incomplete last line of the previous chunk(s). */
  private carry: Uint8Array = new Uint8Array(256);
  private carryLen = 0;
  /** Scratch buffer for canonical forms that differ from the input bytes. */
  private scratch: Uint8Array = new Uint8Array(256);
  private scratchLen = 0;

  /** The previous region ended with CR: a leading LF of the next chunk belongs to it. */
  private pendingCR = false;
  private atStart = true;
  private ended = false;

  /** Current 1-based line number and start offset of that line in the current buffer. */
  private line = 1;
  private lineStart = 0;
  /** Position of the last reported error (where to skip to the line end from). */
  private errPos = 0;

  private statementCount = 0;
  private errorCount = 0;

  // Result of the last term parse: [tStart, tEnd) in the input (tScratch false) or in scratch.
  private tStart = 0;
  private tEnd = 0;
  private tScratch = false;
  /** Whether the last scanned IRI contained an escape. */
  private iriEsc = false;

  // Terms of the current statement.
  private sStart = 0;
  private sEnd = 0;
  private sScratch = false;
  private pStart = 0;
  private pEnd = 0;
  private pScratch = false;
  private oStart = 0;
  private oEnd = 0;
  private oScratch = false;
  private gStart = 0;
  private gEnd = 0;
  private gScratch = false;

  /**
   * @param sink receives interned terms, statements and errors.
   * @param options `quads: true` for N-Quads, `false` for N-Triples.
   */
  constructor(sink: NTriplesSink, options: NTriplesParserOptions) {
    this.sink = sink;
    this.quads = options.quads;
    this.formatName = options.quads ? 'N-Quads' : 'N-Triples';
    this.showContent = options.showContent !== false;
  }

  /** Number of statements passed to {@link NTriplesSink.statement} so far. */
  get statements(): number {
    return this.statementCount;
  }

  /** Number of syntax errors reported to {@link NTriplesSink.error} so far. */
  get errors(): number {
    return this.errorCount;
  }

  /**
   * Feeds the next chunk of input bytes (UTF-8). Chunks may be split anywhere,
   * including inside a multi-byte character or a term. The chunk is not retained
   * after the call returns (an incomplete last line is copied). Throws if called
   * after {@link NTriplesParser.end}.
   */
  write(chunk: Uint8Array): void {
    if (this.ended) throw new Error('NTriplesParser: write() after end()');
    const n = chunk.length;
    if (n === 0) return;
    let i = 0;
    if (this.pendingCR) {
      this.pendingCR = false;
      if (chunk[0] === LF) i = 1;
    }
    if (this.carryLen > 0) {
      // Complete the carried line with the bytes up to the first line end.
      let j = i;
      while (j < n) {
        const c = chunk[j]!;
        if (c === LF || c === CR) break;
        j++;
      }
      if (j === n) {
        this.appendCarry(chunk, i, n);
        return;
      }
      if (chunk[j] === CR && j + 1 < n && chunk[j + 1] === LF) j++;
      this.appendCarry(chunk, i, j + 1);
      this.parseRegion(this.carry, 0, this.carryLen);
      this.carryLen = 0;
      i = j + 1;
      if (i === n) return;
      this.pendingCR = false;
    }
    // Find the last line end: everything before it is complete lines.
    let k = n - 1;
    while (k >= i) {
      const c = chunk[k]!;
      if (c === LF || c === CR) break;
      k--;
    }
    if (k >= i) {
      this.parseRegion(chunk, i, k + 1);
      i = k + 1;
      if (i < n) this.pendingCR = false;
    }
    if (i < n) this.appendCarry(chunk, i, n);
  }

  /** Signals the end of the input; a last line without a line terminator is parsed. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.carryLen > 0) {
      const nl = new Uint8Array([LF]);
      this.appendCarry(nl, 0, 1);
      this.parseRegion(this.carry, 0, this.carryLen);
      this.carryLen = 0;
    }
  }

  private appendCarry(src: Uint8Array, start: number, end: number): void {
    const len = end - start;
    const need = this.carryLen + len;
    if (need > this.carry.length) {
      let size = this.carry.length * 2;
      while (size < need) size *= 2;
      const grown = new Uint8Array(size);
      grown.set(this.carry.subarray(0, this.carryLen));
      this.carry = grown;
    }
    this.carry.set(src.subarray(start, end), this.carryLen);
    this.carryLen = need;
  }

  /** Makes sure the scratch buffer can hold `extra` more bytes. */
  private ensureScratch(extra: number): void {
    const need = this.scratchLen + extra;
    if (need > this.scratch.length) {
      let size = this.scratch.length * 2;
      while (size < need) size *= 2;
      const grown = new Uint8Array(size);
      grown.set(this.scratch.subarray(0, this.scratchLen));
      this.scratch = grown;
    }
  }

  /**
   * Parses `buf[pos, end)`, which consists of complete lines (the last byte is a
   * line terminator, which serves as a sentinel for all scanners).
   */
  private parseRegion(buf: Uint8Array, pos: number, end: number): void {
    if (this.atStart) {
      this.atStart = false;
      if (buf[pos] === 0xef && buf[pos + 1] === 0xbb && buf[pos + 2] === 0xbf) pos += 3;
    }
    while (pos < end) {
      this.lineStart = pos;
      pos = this.parseLine(buf, pos);
      // pos is at the line terminator
      this.line++;
      if (buf[pos] === CR) {
        if (pos + 1 < end) {
          pos += buf[pos + 1] === LF ? 2 : 1;
        } else {
          pos++;
          this.pendingCR = true;
        }
      } else {
        pos++;
      }
    }
  }

  /** Reports an error at `pos` of the current line; returns -1. */
  private report(buf: Uint8Array, pos: number, message: string): number {
    let column = 1;
    for (let p = this.lineStart; p < pos; p++) {
      if ((buf[p]! & 0xc0) !== 0x80) column++;
    }
    this.errPos = pos;
    this.errorCount++;
    this.sink.error(this.line, column, message);
    return -1;
  }

  /** Position of the line terminator at or after `p`. */
  private static toEol(buf: Uint8Array, p: number): number {
    for (;;) {
      const c = buf[p]!;
      if (c === LF || c === CR) return p;
      p++;
    }
  }

  /** Skips spaces and tabs. */
  private static skipWs(buf: Uint8Array, p: number): number {
    let c = buf[p];
    while (c === SPACE || c === TAB) c = buf[++p];
    return p;
  }

  /** Parses a comment starting at `p` ('#'); returns the line end position or -1 on invalid UTF-8. */
  private skipComment(buf: Uint8Array, p: number): number {
    for (;;) {
      const c = buf[p]!;
      if (c === LF || c === CR) return p;
      if (c >= 0x80) {
        const n = utf8Length(buf, p);
        if (n === 0) return this.report(buf, p, 'invalid UTF-8 byte sequence in comment');
        p += n;
      } else {
        p++;
      }
    }
  }

  /** Parses one line starting at `pos`; returns the position of its line terminator. */
  private parseLine(buf: Uint8Array, pos: number): number {
    this.scratchLen = 0;
    let p = NTriplesParser.skipWs(buf, pos);
    let c = buf[p]!;
    if (c === LF || c === CR) return p;
    if (c === HASH) {
      const e = this.skipComment(buf, p);
      return e < 0 ? NTriplesParser.toEol(buf, this.errPos) : e;
    }

    // Subject
    if (c === LT) {
      p = buf[p + 1] === LT ? this.report(buf, p, `a triple term is not allowed as subject in ${this.formatName}`) : this.parseIri(buf, p);
    } else if (c === UNDERSCORE) {
      p = this.parseBlankNode(buf, p);
    } else if (c === QUOTE) {
      p = this.report(buf, p, 'a literal is not allowed as subject');
    } else if (c === AT) {
      p = this.report(buf, p, `directives ('@prefix', '@base') are not allowed in ${this.formatName}`);
    } else {
      p = this.report(buf, p, `expected subject (IRI or blank node), found ${this.found(buf, p)}`);
    }
    if (p < 0) return NTriplesParser.toEol(buf, this.errPos);
    this.sStart = this.tStart;
    this.sEnd = this.tEnd;
    this.sScratch = this.tScratch;

    // Predicate
    p = NTriplesParser.skipWs(buf, p);
    c = buf[p]!;
    if (c === LT) {
      p = buf[p + 1] === LT ? this.report(buf, p, 'a triple term is not allowed as predicate') : this.parseIri(buf, p);
    } else if (c === UNDERSCORE) {
      p = this.report(buf, p, 'a blank node is not allowed as predicate');
    } else if (c === QUOTE) {
      p = this.report(buf, p, 'a literal is not allowed as predicate');
    } else {
      p = this.report(buf, p, `expected predicate (IRI), found ${this.found(buf, p)}`);
    }
    if (p < 0) return NTriplesParser.toEol(buf, this.errPos);
    this.pStart = this.tStart;
    this.pEnd = this.tEnd;
    this.pScratch = this.tScratch;

    // Object
    p = this.parseObject(buf, NTriplesParser.skipWs(buf, p), 0);
    if (p < 0) return NTriplesParser.toEol(buf, this.errPos);
    this.oStart = this.tStart;
    this.oEnd = this.tEnd;
    this.oScratch = this.tScratch;

    // Optional graph, then '.'
    p = NTriplesParser.skipWs(buf, p);
    c = buf[p]!;
    let hasGraph = false;
    if (c !== DOT) {
      if (c === LT || c === UNDERSCORE) {
        if (!this.quads) {
          this.report(buf, p, 'a fourth term (graph) is not allowed in N-Triples');
          return NTriplesParser.toEol(buf, this.errPos);
        }
        p = c === LT ? this.parseIri(buf, p) : this.parseBlankNode(buf, p);
        if (p < 0) return NTriplesParser.toEol(buf, this.errPos);
        this.gStart = this.tStart;
        this.gEnd = this.tEnd;
        this.gScratch = this.tScratch;
        hasGraph = true;
        p = NTriplesParser.skipWs(buf, p);
        c = buf[p]!;
        if (c !== DOT) {
          if (c === LT || c === UNDERSCORE || c === QUOTE) {
            this.report(buf, p, `too many terms: expected '.' after the graph label, found ${this.found(buf, p)}`);
          } else {
            this.report(buf, p, `expected '.' at end of statement, found ${this.found(buf, p)}`);
          }
          return NTriplesParser.toEol(buf, this.errPos);
        }
      } else if (c === QUOTE) {
        this.report(
          buf,
          p,
          this.quads
            ? 'a literal is not allowed as graph label'
            : 'a fourth term (graph) is not allowed in N-Triples',
        );
        return NTriplesParser.toEol(buf, this.errPos);
      } else {
        this.report(buf, p, `expected '.' at end of statement, found ${this.found(buf, p)}`);
        return NTriplesParser.toEol(buf, this.errPos);
      }
    }
    // p at '.'
    p = NTriplesParser.skipWs(buf, p + 1);
    c = buf[p]!;
    if (c !== LF && c !== CR) {
      if (c === HASH) {
        p = this.skipComment(buf, p);
        if (p < 0) return NTriplesParser.toEol(buf, this.errPos);
      } else {
        this.report(buf, p, `expected end of line after '.', found ${this.found(buf, p)}`);
        return NTriplesParser.toEol(buf, this.errPos);
      }
    }

    // The line is valid: intern and emit.
    const sink = this.sink;
    const scratch = this.scratch;
    const s = sink.intern(this.sScratch ? scratch : buf, this.sStart, this.sEnd);
    const pr = sink.intern(this.pScratch ? scratch : buf, this.pStart, this.pEnd);
    const o = sink.intern(this.oScratch ? scratch : buf, this.oStart, this.oEnd);
    const g = hasGraph ? sink.intern(this.gScratch ? scratch : buf, this.gStart, this.gEnd) : -1;
    this.statementCount++;
    sink.statement(s, pr, o, g);
    return p;
  }

  /** Parses an object at `p` (of a statement, or of a triple term `depth` deep); sets the term result. Returns the position after it or -1. */
  private parseObject(buf: Uint8Array, p: number, depth: number): number {
    const c = buf[p]!;
    if (c === LT) return buf[p + 1] === LT ? this.parseTripleTerm(buf, p, depth + 1) : this.parseIri(buf, p);
    if (c === QUOTE) return this.parseLiteral(buf, p);
    if (c === UNDERSCORE) return this.parseBlankNode(buf, p);
    if (c === APOS) return this.report(buf, p, `single-quoted strings are not allowed in ${this.formatName}`);
    return this.report(buf, p, `expected object (IRI, blank node, literal or triple term), found ${this.found(buf, p)}`);
  }

  /**
   * Parses a triple term `<<( s p o )>>` at `p0` (the first '<'), `depth` deep (1 for the
   * object of a statement), and composes its canonical form `(S P O)` in scratch; sets the term
   * result. Returns the position after `)>>` or -1.
   */
  private parseTripleTerm(buf: Uint8Array, p0: number, depth: number): number {
    if (buf[p0 + 2] !== LPAREN) {
      return this.report(buf, p0, `expected '<<(' (a triple term): ${this.formatName} has no reified triples '<< … >>'`);
    }
    if (depth > MAX_TRIPLE_DEPTH) return this.report(buf, p0, `triple terms nested more than ${MAX_TRIPLE_DEPTH} deep`);
    let p = NTriplesParser.skipWs(buf, p0 + 3);
    let c = buf[p]!;
    if (c === LT) p = buf[p + 1] === LT ? this.report(buf, p, 'a triple term is not allowed as the subject of a triple term') : this.parseIri(buf, p);
    else if (c === UNDERSCORE) p = this.parseBlankNode(buf, p);
    else if (c === QUOTE) p = this.report(buf, p, 'a literal is not allowed as the subject of a triple term');
    else p = this.report(buf, p, `expected the subject of a triple term (IRI or blank node), found ${this.found(buf, p)}`);
    if (p < 0) return -1;
    const sStart = this.tStart;
    const sEnd = this.tEnd;
    const sScratch = this.tScratch;
    p = NTriplesParser.skipWs(buf, p);
    c = buf[p]!;
    if (c === LT && buf[p + 1] !== LT) p = this.parseIri(buf, p);
    else if (c === UNDERSCORE) p = this.report(buf, p, 'a blank node is not allowed as the predicate of a triple term');
    else if (c === QUOTE) p = this.report(buf, p, 'a literal is not allowed as the predicate of a triple term');
    else p = this.report(buf, p, `expected the predicate of a triple term (IRI), found ${this.found(buf, p)}`);
    if (p < 0) return -1;
    const pStart = this.tStart;
    const pEnd = this.tEnd;
    const pScratch = this.tScratch;
    p = this.parseObject(buf, NTriplesParser.skipWs(buf, p), depth);
    if (p < 0) return -1;
    p = NTriplesParser.skipWs(buf, p);
    if (buf[p] !== RPAREN || buf[p + 1] !== GT || buf[p + 2] !== GT) {
      return this.report(buf, p, `expected ')>>' at the end of a triple term, found ${this.found(buf, p)}`);
    }
    // compose '(' S ' ' P ' ' O ')' after everything in scratch (the parts come first)
    const oStart = this.tStart;
    const oEnd = this.tEnd;
    const oScratch = this.tScratch;
    this.ensureScratch(sEnd - sStart + (pEnd - pStart) + (oEnd - oStart) + 4);
    const out = this.scratch;
    const start = this.scratchLen;
    let o = start;
    out[o++] = LPAREN;
    o = NTriplesParser.copyPart(out, o, sScratch ? out : buf, sStart, sEnd);
    out[o++] = SPACE;
    o = NTriplesParser.copyPart(out, o, pScratch ? out : buf, pStart, pEnd);
    out[o++] = SPACE;
    o = NTriplesParser.copyPart(out, o, oScratch ? out : buf, oStart, oEnd);
    out[o++] = RPAREN;
    this.scratchLen = o;
    this.tStart = start;
    this.tEnd = o;
    this.tScratch = true;
    return p + 3;
  }

  /** Copies `from[start, end)` to `out` at `o` (`from` may be `out`, below `o`); returns the new position. */
  private static copyPart(out: Uint8Array, o: number, from: Uint8Array, start: number, end: number): number {
    if (from === out) out.copyWithin(o, start, end);
    else out.set(from.subarray(start, end), o);
    return o + end - start;
  }

  /**
   * Scans an IRIREF starting at `p0` ('<') and validates its characters and
   * escape syntax. Sets {@link iriEsc}. Returns the position after '>' or -1.
   */
  private scanIri(buf: Uint8Array, p0: number): number {
    let p = p0 + 1;
    let esc = false;
    for (;;) {
      // Skip ordinary bytes, unrolled; the line terminator is a sentinel (class 5).
      let cls: number;
      for (;;) {
        if ((cls = IRI_CLASS[buf[p]!]!) !== 0) break;
        if ((cls = IRI_CLASS[buf[p + 1]!]!) !== 0) {
          p += 1;
          break;
        }
        if ((cls = IRI_CLASS[buf[p + 2]!]!) !== 0) {
          p += 2;
          break;
        }
        if ((cls = IRI_CLASS[buf[p + 3]!]!) !== 0) {
          p += 3;
          break;
        }
        p += 4;
      }
      if (cls === 2) break;
      if (cls === 3) {
        const e = buf[p + 1]!;
        if (e === 0x75 /* u */) {
          if (hexValue(buf, p + 2, 4) < 0) return this.report(buf, p, `invalid escape sequence${this.escape(buf, p, 6)} in IRI`);
          p += 6;
        } else if (e === 0x55 /* U */) {
          if (hexValue(buf, p + 2, 8) < 0) return this.report(buf, p, `invalid escape sequence${this.escape(buf, p, 10)} in IRI`);
          p += 10;
        } else {
          return this.report(
            buf,
            p,
            `invalid escape sequence${this.escape(buf, p, 2)} in IRI (only \\uXXXX and \\UXXXXXXXX are allowed)`,
          );
        }
        esc = true;
      } else if (cls === 4) {
        const n = utf8Length(buf, p);
        if (n === 0) return this.report(buf, p, 'invalid UTF-8 byte sequence in IRI');
        p += n;
      } else if (cls === 5) {
        return this.report(buf, p, "unterminated IRI (missing '>')");
      } else {
        return this.report(buf, p, `invalid character${this.quoted(buf, p)} in IRI`);
      }
    }
    this.iriEsc = esc;
    return p + 1;
  }

  /** Text of an escape sequence at `p` for messages (at most `max` bytes, stops at the line end). */
  /** What a message says was found at `p`: the character, or only its kind when the input is not shown. */
  private found(buf: Uint8Array, p: number): string {
    if (this.showContent) return describeAt(buf, p);
    const c = buf[p]!;
    if (c === LF || c === CR) return 'end of line';
    return c >= 0x80 && utf8Length(buf, p) === 0 ? 'invalid UTF-8' : 'a character that is not allowed there';
  }

  /** The character at `p` for a message, after a space, or nothing when the input is not shown. */
  private quoted(buf: Uint8Array, p: number): string {
    return this.showContent ? ` ${describeAt(buf, p)}` : '';
  }

  /** The escape at `p` for a message, quoted after a space, or nothing when the input is not shown. */
  private escape(buf: Uint8Array, p: number, max: number): string {
    return this.showContent ? ` '${this.escText(buf, p, max)}'` : '';
  }

  private escText(buf: Uint8Array, p: number, max: number): string {
    let e = p + 1;
    const limit = p + max;
    while (e < limit) {
      const c = buf[e]!;
      if (c === LF || c === CR) break;
      e++;
    }
    // Do not cut a multi-byte character in half.
    while ((buf[e]! & 0xc0) === 0x80) e++;
    return utf8Decoder.decode(buf.subarray(p, e));
  }

  /**
   * Writes the content of the IRI `buf(start, end)` (between the brackets) with
   * escapes resolved into scratch at {@link scratchLen}, advancing it. The scratch
   * buffer must have room for `end - start` bytes. Returns false on error.
   */
  private decodeIri(buf: Uint8Array, start: number, end: number): boolean {
    const out = this.scratch;
    let o = this.scratchLen;
    let p = start;
    while (p < end) {
      const c = buf[p]!;
      if (c !== BACKSLASH) {
        out[o++] = c;
        p++;
        continue;
      }
      let cp: number;
      if (buf[p + 1] === 0x75) {
        cp = hexValue(buf, p + 2, 4);
        if (cp >= 0xd800 && cp <= 0xdfff) {
          this.report(buf, p, `escape${this.escape(buf, p, 6)} denotes a surrogate code point`);
          return false;
        }
        if (!isIriCodePoint(cp)) {
          this.report(buf, p, `escape${this.escape(buf, p, 6)} denotes a character that is not allowed in an IRI`);
          return false;
        }
        p += 6;
      } else {
        cp = hexValue(buf, p + 2, 8);
        if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) {
          this.report(buf, p, `escape${this.escape(buf, p, 10)} does not denote a valid code point`);
          return false;
        }
        if (!isIriCodePoint(cp)) {
          this.report(buf, p, `escape${this.escape(buf, p, 10)} denotes a character that is not allowed in an IRI`);
          return false;
        }
        p += 10;
      }
      o = writeUtf8(out, o, cp);
    }
    this.scratchLen = o;
    return true;
  }

  /** Reports a relative IRI whose content is `bytes[start, end)`; returns -1. */
  private relativeIri(buf: Uint8Array, pos: number, bytes: Uint8Array, start: number, end: number): number {
    const text = this.showContent ? ` '${utf8Decoder.decode(bytes.subarray(start, end))}'` : '';
    return this.report(buf, pos, `relative IRI${text} is not allowed in ${this.formatName}`);
  }

  /** Parses an IRI term at `p0` ('<'); sets the term result. Returns the position after '>' or -1. */
  private parseIri(buf: Uint8Array, p0: number): number {
    const e = this.scanIri(buf, p0);
    if (e < 0) return -1;
    if (!this.iriEsc) {
      if (!hasScheme(buf, p0 + 1, e - 1)) return this.relativeIri(buf, p0, buf, p0 + 1, e - 1);
      this.tStart = p0;
      this.tEnd = e;
      this.tScratch = false;
      return e;
    }
    this.ensureScratch(e - p0);
    const start = this.scratchLen;
    this.scratch[this.scratchLen++] = LT;
    if (!this.decodeIri(buf, p0 + 1, e - 1)) return -1;
    if (!hasScheme(this.scratch, start + 1, this.scratchLen)) {
      return this.relativeIri(buf, p0, this.scratch, start + 1, this.scratchLen);
    }
    this.scratch[this.scratchLen++] = GT;
    this.tStart = start;
    this.tEnd = this.scratchLen;
    this.tScratch = true;
    return e;
  }

  /** Parses a blank node at `p0` ('_'); sets the term result. Returns the position after the label or -1. */
  private parseBlankNode(buf: Uint8Array, p0: number): number {
    if (buf[p0 + 1] !== COLON) return this.report(buf, p0 + 1, "expected ':' after '_' in blank node label");
    let p = p0 + 2;
    let c = buf[p]!;
    if (BN_FIRST[c] === 1) {
      p++;
    } else if (c >= 0x80) {
      const n = utf8Length(buf, p);
      if (n === 0) return this.report(buf, p, 'invalid UTF-8 byte sequence in blank node label');
      if (!isPnCharsBase(decodedCodePoint)) {
        return this.report(buf, p, `invalid first character${this.quoted(buf, p)} in blank node label`);
      }
      p += n;
    } else {
      return this.report(
        buf,
        p,
        `invalid blank node label: expected a letter, digit or '_' after '_:', found ${this.found(buf, p)}`,
      );
    }
    for (;;) {
      c = buf[p]!;
      if (BN_REST[c] === 1) {
        p++;
      } else if (c >= 0x80) {
        const n = utf8Length(buf, p);
        if (n === 0) return this.report(buf, p, 'invalid UTF-8 byte sequence in blank node label');
        if (!isPnChars(decodedCodePoint)) {
          return this.report(buf, p, `invalid character${this.quoted(buf, p)} in blank node label`);
        }
        p += n;
      } else {
        break;
      }
    }
    if (c === COLON) return this.report(buf, p, "invalid character ':' in blank node label");
    // A label cannot end with '.': trailing dots belong to the statement.
    while (buf[p - 1] === DOT) p--;
    this.tStart = p0;
    this.tEnd = p;
    this.tScratch = false;
    return p;
  }

  /**
   * Writes the lexical form `buf(start, end)` (between the quotes) with escapes
   * resolved into scratch at {@link scratchLen}, advancing it. The escape syntax
   * has been validated; scratch must have room for `end - start` bytes.
   * Returns false on error (escape denoting an invalid code point).
   */
  private decodeString(buf: Uint8Array, start: number, end: number): boolean {
    const out = this.scratch;
    let o = this.scratchLen;
    let p = start;
    while (p < end) {
      const c = buf[p]!;
      if (c !== BACKSLASH) {
        out[o++] = c;
        p++;
        continue;
      }
      const e = buf[p + 1]!;
      switch (e) {
        case 0x74: // t
          out[o++] = TAB;
          p += 2;
          continue;
        case 0x62: // b
          out[o++] = 0x08;
          p += 2;
          continue;
        case 0x6e: // n
          out[o++] = LF;
          p += 2;
          continue;
        case 0x72: // r
          out[o++] = CR;
          p += 2;
          continue;
        case 0x66: // f
          out[o++] = 0x0c;
          p += 2;
          continue;
        case QUOTE:
        case APOS:
        case BACKSLASH:
          out[o++] = e;
          p += 2;
          continue;
        default:
          break;
      }
      const len = e === 0x75 ? 4 : 8;
      const cp = hexValue(buf, p + 2, len);
      if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) {
        this.report(buf, p, `escape${this.escape(buf, p, len + 2)} does not denote a valid code point`);
        return false;
      }
      o = writeUtf8(out, o, cp);
      p += len + 2;
    }
    this.scratchLen = o;
    return true;
  }

  /** Parses a literal at `p0` ('"'); sets the term result. Returns the position after it or -1. */
  private parseLiteral(buf: Uint8Array, p0: number): number {
    let p = p0 + 1;
    let esc = false;
    for (;;) {
      // Skip ordinary bytes, unrolled; the line terminator is a sentinel (class 3).
      let cls: number;
      for (;;) {
        if ((cls = STR_CLASS[buf[p]!]!) !== 0) break;
        if ((cls = STR_CLASS[buf[p + 1]!]!) !== 0) {
          p += 1;
          break;
        }
        if ((cls = STR_CLASS[buf[p + 2]!]!) !== 0) {
          p += 2;
          break;
        }
        if ((cls = STR_CLASS[buf[p + 3]!]!) !== 0) {
          p += 3;
          break;
        }
        p += 4;
      }
      if (cls === 1) break;
      if (cls === 2) {
        const e = buf[p + 1]!;
        if (
          e === 0x74 ||
          e === 0x62 ||
          e === 0x6e ||
          e === 0x72 ||
          e === 0x66 ||
          e === QUOTE ||
          e === APOS ||
          e === BACKSLASH
        ) {
          p += 2;
        } else if (e === 0x75) {
          if (hexValue(buf, p + 2, 4) < 0) return this.report(buf, p, `invalid escape sequence${this.escape(buf, p, 6)}`);
          p += 6;
        } else if (e === 0x55) {
          if (hexValue(buf, p + 2, 8) < 0) return this.report(buf, p, `invalid escape sequence${this.escape(buf, p, 10)}`);
          p += 10;
        } else if (e === LF || e === CR) {
          return this.report(buf, p, "unterminated string literal (missing closing '\"')");
        } else {
          return this.report(buf, p, `invalid escape sequence${this.escape(buf, p, 2)}`);
        }
        esc = true;
      } else if (cls === 3) {
        return this.report(buf, p, "unterminated string literal (missing closing '\"')");
      } else {
        const n = utf8Length(buf, p);
        if (n === 0) return this.report(buf, p, 'invalid UTF-8 byte sequence in string literal');
        p += n;
      }
    }
    const lexEnd = p; // closing quote
    const after = p + 1;
    const q = NTriplesParser.skipWs(buf, after);
    const c = buf[q]!;

    if (c === AT) {
      // LANGTAG ::= '@' [a-zA-Z]+ ('-' [a-zA-Z0-9]+)*
      let r = q + 1;
      let upper = false;
      let l = buf[r]!;
      if (!((l >= 0x61 && l <= 0x7a) || (l >= 0x41 && l <= 0x5a))) {
        return this.report(buf, r, `invalid language tag: expected a letter after '@', found ${this.found(buf, r)}`);
      }
      for (;;) {
        l = buf[r]!;
        if (l >= 0x61 && l <= 0x7a) r++;
        else if (l >= 0x41 && l <= 0x5a) {
          upper = true;
          r++;
        } else break;
      }
      if (r - q - 1 > MAX_SUBTAG) return this.report(buf, q + 1, `invalid language tag: a subtag has at most ${MAX_SUBTAG} characters`);
      while (buf[r] === DASH) {
        if (buf[r + 1] === DASH) {
          // RDF 1.2 base direction: '--ltr' or '--rtl' (lower case)
          const d = r + 2;
          const isDirection = (buf[d] === 0x6c && buf[d + 1] === 0x74 && buf[d + 2] === 0x72) || (buf[d] === 0x72 && buf[d + 1] === 0x74 && buf[d + 2] === 0x6c);
          l = buf[d + 3]!;
          if (!isDirection || (l >= 0x61 && l <= 0x7a) || (l >= 0x41 && l <= 0x5a) || (l >= 0x30 && l <= 0x39) || l === DASH) {
            return this.report(buf, d, "invalid base direction: expected 'ltr' or 'rtl' after '--'");
          }
          r = d + 3;
          break;
        }
        r++;
        const first = r;
        for (;;) {
          l = buf[r]!;
          if ((l >= 0x61 && l <= 0x7a) || (l >= 0x30 && l <= 0x39)) r++;
          else if (l >= 0x41 && l <= 0x5a) {
            upper = true;
            r++;
          } else break;
        }
        if (r === first) {
          return this.report(
            buf,
            r,
            `invalid language tag: expected a letter or digit after '-', found ${this.found(buf, r)}`,
          );
        }
        if (r - first > MAX_SUBTAG) return this.report(buf, first, `invalid language tag: a subtag has at most ${MAX_SUBTAG} characters`);
      }
      if (!esc && !upper && q === after) {
        this.tStart = p0;
        this.tEnd = r;
        this.tScratch = false;
        return r;
      }
      this.ensureScratch(r - p0 + 2);
      const start = this.scratchLen;
      this.scratch[this.scratchLen++] = QUOTE;
      if (!this.decodeString(buf, p0 + 1, lexEnd)) return -1;
      const out = this.scratch;
      let o = this.scratchLen;
      out[o++] = QUOTE;
      out[o++] = AT;
      for (let i = q + 1; i < r; i++) {
        const b = buf[i]!;
        out[o++] = b >= 0x41 && b <= 0x5a ? b | 0x20 : b;
      }
      this.scratchLen = o;
      this.tStart = start;
      this.tEnd = o;
      this.tScratch = true;
      return r;
    }

    if (c === CARET) {
      if (buf[q + 1] !== CARET) return this.report(buf, q + 1, "expected '^^' before the datatype IRI");
      const d0 = NTriplesParser.skipWs(buf, q + 2);
      if (buf[d0] !== LT) {
        return this.report(buf, d0, `expected datatype IRI after '^^', found ${this.found(buf, d0)}`);
      }
      const dEnd = this.scanIri(buf, d0);
      if (dEnd < 0) return -1;
      const dEsc = this.iriEsc;
      const start = this.scratchLen;
      let isXsdString: boolean;
      // Start of the resolved datatype IRI (including '<') in buf or scratch.
      let dtStart = d0;
      let dtEnd = dEnd;
      if (dEsc) {
        // Resolve the datatype IRI into scratch first (moved into place below if needed).
        this.ensureScratch(dEnd - d0 + (lexEnd - p0) + 4);
        dtStart = this.scratchLen;
        this.scratch[this.scratchLen++] = LT;
        if (!this.decodeIri(buf, d0 + 1, dEnd - 1)) return -1;
        if (!hasScheme(this.scratch, dtStart + 1, this.scratchLen)) {
          return this.relativeIri(buf, d0, this.scratch, dtStart + 1, this.scratchLen);
        }
        this.scratch[this.scratchLen++] = GT;
        dtEnd = this.scratchLen;
        isXsdString = NTriplesParser.equalsXsdString(this.scratch, dtStart, dtEnd);
      } else {
        if (!hasScheme(buf, d0 + 1, dEnd - 1)) return this.relativeIri(buf, d0, buf, d0 + 1, dEnd - 1);
        isXsdString = NTriplesParser.equalsXsdString(buf, d0, dEnd);
      }

      if (!isXsdString && (dEsc ? NTriplesParser.needsLanguage(this.scratch, dtStart, dtEnd) : NTriplesParser.needsLanguage(buf, d0, dEnd))) {
        return this.report(buf, d0, 'a literal with datatype rdf:langString or rdf:dirLangString is written with a language tag, not with ^^');
      }
      if (isXsdString) {
        this.scratchLen = start; // drop any resolved datatype
        if (!esc) {
          this.tStart = p0;
          this.tEnd = after;
          this.tScratch = false;
          return dEnd;
        }
        this.ensureScratch(lexEnd - p0 + 2);
        this.scratch[this.scratchLen++] = QUOTE;
        if (!this.decodeString(buf, p0 + 1, lexEnd)) return -1;
        this.scratch[this.scratchLen++] = QUOTE;
        this.tStart = start;
        this.tEnd = this.scratchLen;
        this.tScratch = true;
        return dEnd;
      }
      if (!esc && !dEsc && q === after) {
        this.tStart = p0;
        this.tEnd = dEnd;
        this.tScratch = false;
        return dEnd;
      }
      // Compose '"' lex '"^^' iri into scratch. A resolved datatype IRI (if any)
      // sits at [dtStart, dtEnd) in scratch; the literal is composed after it.
      this.ensureScratch(lexEnd - p0 + (dtEnd - dtStart) + 4);
      const litStart = this.scratchLen;
      this.scratch[this.scratchLen++] = QUOTE;
      if (!this.decodeString(buf, p0 + 1, lexEnd)) return -1;
      const out = this.scratch;
      let o = this.scratchLen;
      out[o++] = QUOTE;
      out[o++] = CARET;
      out[o++] = CARET;
      if (dEsc) out.copyWithin(o, dtStart, dtEnd);
      else out.set(buf.subarray(dtStart, dtEnd), o);
      o += dtEnd - dtStart;
      this.scratchLen = o;
      this.tStart = litStart;
      this.tEnd = o;
      this.tScratch = true;
      return dEnd;
    }

    // Plain literal
    if (!esc) {
      this.tStart = p0;
      this.tEnd = after;
      this.tScratch = false;
      return after;
    }
    this.ensureScratch(lexEnd - p0 + 2);
    const start = this.scratchLen;
    this.scratch[this.scratchLen++] = QUOTE;
    if (!this.decodeString(buf, p0 + 1, lexEnd)) return -1;
    this.scratch[this.scratchLen++] = QUOTE;
    this.tStart = start;
    this.tEnd = this.scratchLen;
    this.tScratch = true;
    return after;
  }

  /** Whether `bytes[start, end)` is `<…rdf-syntax-ns#langString>` or `<…rdf-syntax-ns#dirLangString>`. */
  private static needsLanguage(bytes: Uint8Array, start: number, end: number): boolean {
    const n = end - start;
    const expected = n === RDF_LANG_STRING.length ? RDF_LANG_STRING : n === RDF_DIR_LANG_STRING.length ? RDF_DIR_LANG_STRING : undefined;
    if (expected === undefined) return false;
    for (let i = n - 1; i >= 0; i--) {
      if (bytes[start + i] !== expected[i]) return false;
    }
    return true;
  }

  /** Whether `bytes[start, end)` is `<http://www.w3.org/2001/XMLSchema#string>`. */
  private static equalsXsdString(bytes: Uint8Array, start: number, end: number): boolean {
    const n = XSD_STRING.length;
    if (end - start !== n) return false;
    for (let i = n - 1; i >= 0; i--) {
      if (bytes[start + i] !== XSD_STRING[i]) return false;
    }
    return true;
  }
}
