/**
 * Writing N-Triples and N-Quads as UTF-8 bytes straight from the dictionary's arena.
 *
 * The canonical form of a term (see `model/terms.ts`) is already its N-Triples form unless an
 * IRI holds a character N-Triples forbids raw, or a literal's lexical form holds `"`, `\`, a
 * control character or one of the noncharacters U+FFFE and U+FFFF (escaped in canonical
 * N-Triples 1.2): such a term is escaped byte by byte; every other term is copied as it is. A
 * triple term (RDF 1.2, key `(S P O)`; the arena holds its parts' ids instead) is written
 * `<<( S P O )>>` from its canonical key, each part as above.
 * Whole lines go into the chunks of `byte-chunks.ts`. No string is built per term; the output
 * is byte for byte the UTF-8 of `keyToNTriples` (`rdf-serialize.ts`).
 * @module
 */
import type { TermDictionary } from '../model/dictionary.js';
import { KIND_IRI, KIND_LITERAL, KIND_TRIPLE } from '../model/terms.js';
import { BYTE_CHUNK_SIZE, ByteChunks } from './byte-chunks.js';

/** The size of the chunks the writer hands out (a line longer than this gets a chunk of its own size). */
export const CHUNK_SIZE = BYTE_CHUNK_SIZE;

/** A term whose canonical bytes are its N-Triples form. */
const CLEAN = 1;
/** A term that needs escapes. */
const ESCAPED = 2;
/** A triple term: written from its canonical key (its parentheses become `<<( ` and ` )>>`). */
const TRIPLE = 3;
/**
 * The most bytes one byte of a term may become when escaped (`\u0020`); a triple term's key
 * spends at least this many bytes per `<<( … )>>` added.
 */
const MAX_ESCAPE = 6;
/** The most triple-term keys a writer keeps (an export of a million triple terms holds no million keys). */
const KEPT_TRIPLE_KEYS = 4096;
/** Noncharacter escape marker in {@link STRING_ESCAPES}: the first byte of U+F000–U+FFFF. */
const NONCHARACTER = 2;

/** Bytes an IRI may not hold raw in N-Triples: 0x00–0x20 and `<>"{}|^\``, written `\u00XX`. */
const IRI_ESCAPES = new Uint8Array(256);
for (let b = 0; b <= 0x20; b++) IRI_ESCAPES[b] = 1;
for (const c of '<>"{}|^`\\') IRI_ESCAPES[c.charCodeAt(0)] = 1;

/**
 * What a byte of a lexical form becomes: 0 itself, a character code for a two-character escape
 * (`\n`, `\"`, …), or 1 for `\u00XX` (the other control characters and DEL).
 */
const STRING_ESCAPES = new Uint8Array(256);
for (let b = 0; b < 0x20; b++) STRING_ESCAPES[b] = 1;
STRING_ESCAPES[0x7f] = 1;
// U+FFFE and U+FFFF are EF BF BE and EF BF BF
STRING_ESCAPES[0xef] = NONCHARACTER;
for (const [raw, letter] of [['\\', '\\'], ['"', '"'], ['\n', 'n'], ['\r', 'r'], ['\t', 't'], ['\b', 'b'], ['\f', 'f']] as const) {
  STRING_ESCAPES[raw.charCodeAt(0)] = letter.charCodeAt(0);
}

const HEX_DIGITS = new Uint8Array([...'0123456789ABCDEF'].map((c) => c.charCodeAt(0)));

/** Whether bytes[start, end) hold a byte marked in `table`. */
function holdsAny(bytes: Uint8Array, start: number, end: number, table: Uint8Array): boolean {
  for (let i = start; i < end; i++) if (table[bytes[i]!] !== 0) return true;
  return false;
}

/** Where the lexical form of the literal in bytes[start, end) closes: its last `"`. */
function closingQuote(bytes: Uint8Array, start: number, end: number): number {
  let close = end - 1;
  while (bytes[close] !== KIND_LITERAL) close--;
  return close;
}

/**
 * Writes statements of term ids as N-Triples (or N-Quads) lines into byte chunks. Statements
 * in a named graph are skipped unless it writes quads.
 */
export class NTriplesByteWriter {
  private readonly out = new ByteChunks();
  /** By term id: 0 not seen yet, {@link CLEAN}, {@link ESCAPED} or {@link TRIPLE}. */
  private kinds: Uint8Array;
  /** The canonical keys (UTF-8) of triple terms written lately, by id (at most {@link KEPT_TRIPLE_KEYS}). */
  private readonly tripleKeys = new Map<number, Uint8Array>();

  /**
   * @param dictionary the dictionary the ids are from.
   * @param quads whether statements in named graphs are written (N-Quads), with their graph.
   */
  constructor(
    private readonly dictionary: TermDictionary,
    private readonly quads: boolean,
  ) {
    this.kinds = new Uint8Array(Math.max(1024, dictionary.size));
  }

  /** Adds a statement; `g` is -1 for the default graph. */
  statement(s: number, p: number, o: number, g: number): void {
    if (g >= 0 && !this.quads) return;
    // the arena is read again for every statement: it is replaced when the dictionary grows
    const arena = this.dictionary.arenaBytes;
    const chunks = this.out;
    chunks.reserve(this.bound(arena, s) + this.bound(arena, p) + this.bound(arena, o) + (g >= 0 ? this.bound(arena, g) + 1 : 0) + 5);
    const out = chunks.chunk;
    let at = this.term(arena, s, chunks.at);
    out[at++] = 0x20;
    at = this.term(arena, p, at);
    out[at++] = 0x20;
    at = this.term(arena, o, at);
    if (g >= 0) {
      out[at++] = 0x20;
      at = this.term(arena, g, at);
    }
    out[at++] = 0x20;
    out[at++] = 0x2e;
    out[at++] = 0x0a;
    chunks.at = at;
  }

  /** Takes the chunks completed so far (none empty); the chunk being filled stays until {@link NTriplesByteWriter.end}. */
  take(): readonly Uint8Array[] {
    return this.out.take();
  }

  /** Completes the chunk being filled, so that the next {@link NTriplesByteWriter.take} hands out the rest of the output. */
  end(): void {
    this.out.end();
  }

  /** The most bytes term `id` takes written (classifying it when first seen). */
  private bound(arena: Uint8Array, id: number): number {
    const kind = this.kindOf(arena, id);
    if (kind === TRIPLE) return this.tripleKey(id).length * MAX_ESCAPE;
    const length = this.dictionary.endOf(id) - this.dictionary.startOf(id);
    return kind === CLEAN ? length : length * MAX_ESCAPE;
  }

  /** {@link CLEAN}, {@link ESCAPED} or {@link TRIPLE} for term `id`. */
  private kindOf(arena: Uint8Array, id: number): number {
    if (id >= this.kinds.length) {
      const grown = new Uint8Array(Math.max(id + 1, this.kinds.length * 2));
      grown.set(this.kinds);
      this.kinds = grown;
    }
    let kind = this.kinds[id]!;
    if (kind === 0) {
      if (this.dictionary.kindOf(id) === KIND_TRIPLE) kind = TRIPLE;
      else kind = this.needsEscapes(arena, this.dictionary.startOf(id), this.dictionary.endOf(id)) ? ESCAPED : CLEAN;
      this.kinds[id] = kind;
    }
    return kind;
  }

  /** The canonical key of triple term `id` (the arena holds its parts' ids), kept while the export repeats it. */
  private tripleKey(id: number): Uint8Array {
    let key = this.tripleKeys.get(id);
    if (key === undefined) {
      if (this.tripleKeys.size >= KEPT_TRIPLE_KEYS) this.tripleKeys.clear();
      key = Buffer.from(this.dictionary.keyOf(id), 'utf8');
      this.tripleKeys.set(id, key);
    }
    return key;
  }

  /** Whether the canonical form in arena[start, end) differs from its N-Triples form. */
  private needsEscapes(arena: Uint8Array, start: number, end: number): boolean {
    const first = arena[start];
    if (first === KIND_IRI) return holdsAny(arena, start + 1, end - 1, IRI_ESCAPES);
    if (first !== KIND_LITERAL) return false;
    const close = closingQuote(arena, start, end);
    if (holdsAny(arena, start + 1, close, STRING_ESCAPES)) return true;
    return arena[close + 1] === 0x5e && holdsAny(arena, close + 4, end - 1, IRI_ESCAPES);
  }

  /** Writes term `id` in the chunk being filled at `at` (room reserved); returns the position after it. */
  private term(arena: Uint8Array, id: number, at: number): number {
    const kind = this.kinds[id];
    if (kind === TRIPLE) {
      const key = this.tripleKey(id);
      return writeTripleTerm(key, 0, key.length, this.out.chunk, at);
    }
    const start = this.dictionary.startOf(id);
    const end = this.dictionary.endOf(id);
    if (kind === ESCAPED) return writeEscaped(arena, start, end, this.out.chunk, at);
    return this.out.copyAt(arena, start, end, at);
  }
}

/** Writes the N-Triples form of the term in arena[start, end) with its escapes; returns the position after it. */
function writeEscaped(arena: Uint8Array, start: number, end: number, out: Uint8Array, at: number): number {
  const first = arena[start];
  if (first === KIND_TRIPLE) return writeTripleTerm(arena, start, end, out, at);
  if (first !== KIND_IRI && first !== KIND_LITERAL) {
    // a blank node
    for (let i = start; i < end; i++) out[at++] = arena[i]!;
    return at;
  }
  if (first === KIND_IRI) {
    out[at++] = KIND_IRI;
    at = escapeIri(arena, start + 1, end - 1, out, at);
    out[at++] = 0x3e;
    return at;
  }
  const close = closingQuote(arena, start, end);
  out[at++] = KIND_LITERAL;
  at = escapeString(arena, start + 1, close, out, at);
  out[at++] = KIND_LITERAL;
  if (arena[close + 1] === 0x5e) {
    // ^^<datatype>
    for (let i = close + 1; i < close + 4; i++) out[at++] = arena[i]!;
    at = escapeIri(arena, close + 4, end - 1, out, at);
    out[at++] = 0x3e;
    return at;
  }
  for (let i = close + 1; i < end; i++) out[at++] = arena[i]!;
  return at;
}

/**
 * Writes the triple term whose key is arena[start, end), `(S P O)`, as `<<( S P O )>>`; the
 * subject and predicate hold no space, the object is the rest (nested triple terms included).
 */
function writeTripleTerm(arena: Uint8Array, start: number, end: number, out: Uint8Array, at: number): number {
  let first = start + 1;
  while (arena[first] !== 0x20) first++;
  let second = first + 1;
  while (arena[second] !== 0x20) second++;
  out[at++] = 0x3c;
  out[at++] = 0x3c;
  out[at++] = 0x28;
  out[at++] = 0x20;
  at = writeEscaped(arena, start + 1, first, out, at);
  out[at++] = 0x20;
  at = writeEscaped(arena, first + 1, second, out, at);
  out[at++] = 0x20;
  at = writeEscaped(arena, second + 1, end - 1, out, at);
  out[at++] = 0x20;
  out[at++] = 0x29;
  out[at++] = 0x3e;
  out[at++] = 0x3e;
  return at;
}

/** Writes `\u00XX` for byte `b` at out[at]; returns the position after it. */
function writeUnicodeEscape(b: number, out: Uint8Array, at: number): number {
  out[at++] = 0x5c;
  out[at++] = 0x75;
  out[at++] = 0x30;
  out[at++] = 0x30;
  out[at++] = HEX_DIGITS[b >>> 4]!;
  out[at++] = HEX_DIGITS[b & 15]!;
  return at;
}

/** Writes the IRI characters in bytes[start, end), escaping those N-Triples forbids raw. */
function escapeIri(bytes: Uint8Array, start: number, end: number, out: Uint8Array, at: number): number {
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if (IRI_ESCAPES[b] === 0) out[at++] = b;
    else at = writeUnicodeEscape(b, out, at);
  }
  return at;
}

/** Writes the lexical form in bytes[start, end) as the inside of a quoted string. */
function escapeString(bytes: Uint8Array, start: number, end: number, out: Uint8Array, at: number): number {
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    const e = STRING_ESCAPES[b]!;
    if (e === 0) out[at++] = b;
    else if (e === 1) at = writeUnicodeEscape(b, out, at);
    else if (e === NONCHARACTER) {
      const last = bytes[i + 2]!;
      if (bytes[i + 1] === 0xbf && (last === 0xbe || last === 0xbf) && i + 2 < end) {
        // \uFFFE or \uFFFF
        for (const c of [0x5c, 0x75, 0x46, 0x46, 0x46]) out[at++] = c;
        out[at++] = last === 0xbe ? 0x45 : 0x46;
        i += 2;
      } else {
        out[at++] = b;
      }
    } else {
      out[at++] = 0x5c;
      out[at++] = e;
    }
  }
  return at;
}
