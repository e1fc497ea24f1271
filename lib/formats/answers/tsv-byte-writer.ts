/**
 * Writing a SELECT answer as SPARQL TSV (or its `-abbrev` variant) in UTF-8 bytes, from rows
 * of term ids rather than term objects.
 *
 * A stored term whose TSV text is its canonical form (most IRIs and plain literals) is copied
 * straight from the dictionary's arena; any other term (a number in short form, an IRI a prefix
 * abbreviates, a literal that needs escapes, a value the query computed) is formatted once, as
 * `TsvAnswerWriter` formats it, and its bytes kept. The output is byte for byte the UTF-8
 * of that writer's text. Rows go into chunks of about {@link TSV_CHUNK_SIZE} bytes, each handed
 * out once and never written to again.
 * @module
 */
import type { TermDictionary } from '../../model/dictionary.js';
import { BYTE_CHUNK_SIZE, ByteChunks } from '../byte-chunks.js';
import type { AnswerTerm } from './answer-writer.js';
import { tsvHeader } from './delimited-writers.js';
import { type PrefixAbbreviator, TurtleTermWriter } from './term-syntax.js';

/** The size of the chunks handed out (see `byte-chunks.ts`). */
export const TSV_CHUNK_SIZE = BYTE_CHUNK_SIZE;

/** At most this many formatted terms are kept; then they are formatted again as they recur. */
const KEPT_TEXTS = 1 << 16;

/** A term whose TSV bytes are its canonical bytes. */
const CANONICAL = 1;
/** A term with TSV bytes of its own. */
const FORMATTED = 2;

/** The terms of the ids of a row: a stored id is the dictionary's; any id has a term. */
export interface RowTerms {
  /** The store's dictionary (ids >= 0). */
  readonly dictionary: TermDictionary;
  /** The term of an id of a row. */
  termOf(id: number): AnswerTerm;
}

/** Writes TSV answer rows of term ids as UTF-8 bytes. */
export class TsvByteWriter {
  private readonly out = new ByteChunks();
  private readonly terms: TurtleTermWriter;
  /** What is known of the stored terms (shared by the writers of one dictionary without prefixes). */
  private known: TermBytes | undefined;
  /** The bytes of terms the query made (ids below -2). */
  private readonly made = new Map<number, Buffer>();

  /** @param abbreviator - as `TsvAnswerWriter`'s: IRIs a prefix abbreviates become prefixed names. */
  constructor(private readonly abbreviator?: PrefixAbbreviator) {
    this.terms = new TurtleTermWriter(abbreviator);
  }

  /**
   * Writes the header line.
   * @throws RangeError when a variable name holds a tab or a line end.
   */
  begin(variables: readonly string[]): void {
    this.out.bytes(Buffer.from(tsvHeader(variables), 'utf8'));
  }

  /** Writes one row: ids in the order of the variables, -1 for an unbound one. */
  rowIds(ids: Int32Array, terms: RowTerms): void {
    const dictionary = terms.dictionary;
    const arena = dictionary.arenaBytes;
    const known = this.knownOf(dictionary);
    const out = this.out;
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]!;
      if (k > 0) out.byte(0x09);
      if (id === -1) continue;
      if (id >= 0 && this.kindOf(known, id, terms) === CANONICAL) out.copy(arena, dictionary.startOf(id), dictionary.endOf(id));
      else out.bytes(this.textOf(id >= 0 ? known.texts : this.made, id, terms));
    }
    out.byte(0x0a);
  }

  /** Writes one row of terms (undefined for an unbound variable), as `rowIds` writes ids. */
  row(values: ReadonlyArray<AnswerTerm | undefined>): void {
    for (let k = 0; k < values.length; k++) {
      const value = values[k];
      if (k > 0) this.out.byte(0x09);
      if (value !== undefined) this.out.bytes(Buffer.from(this.terms.term(value), 'utf8'));
    }
    this.out.byte(0x0a);
  }

  /** Takes the chunks completed so far (none empty); the chunk being filled stays until {@link TsvByteWriter.end}. */
  take(): readonly Uint8Array[] {
    return this.out.take();
  }

  /** Completes the chunk being filled, so that the next {@link TsvByteWriter.take} hands out the rest. */
  end(): void {
    this.out.end();
  }

  /** What is known of the stored terms of `dictionary`: shared when no prefix abbreviates, else this writer's. */
  private knownOf(dictionary: TermDictionary): TermBytes {
    let known = this.known;
    if (known === undefined || known.dictionary !== dictionary) {
      if (this.abbreviator !== undefined) known = new TermBytes(dictionary);
      else {
        known = shared.get(dictionary);
        if (known === undefined) shared.set(dictionary, (known = new TermBytes(dictionary)));
      }
      this.known = known;
    }
    known.check();
    return known;
  }

  /** Whether a stored term's TSV bytes are its canonical bytes (classified on first sight). */
  private kindOf(known: TermBytes, id: number, terms: RowTerms): number {
    let kind = known.kind(id);
    if (kind === 0) {
      const text = this.terms.term(terms.termOf(id));
      kind = text === terms.dictionary.keyOf(id) ? CANONICAL : FORMATTED;
      known.set(id, kind, kind === FORMATTED ? Buffer.from(text, 'utf8') : undefined);
    }
    return kind;
  }

  /** The TSV bytes of a term kept in `kept` (formatted again if they were let go). */
  private textOf(kept: Map<number, Buffer>, id: number, terms: RowTerms): Buffer {
    let text = kept.get(id);
    if (text === undefined) {
      text = Buffer.from(this.terms.term(terms.termOf(id)), 'utf8');
      if (kept.size >= KEPT_TEXTS) kept.clear();
      kept.set(id, text);
    }
    return text;
  }
}

/**
 * What a TSV writer knows of a dictionary's terms: for each id, whether its TSV text is its
 * canonical form, and the bytes of those whose text is not (at most {@link KEPT_TEXTS}). It
 * is dropped when the dictionary is truncated (a rollback may give the ids to other terms).
 */
class TermBytes {
  private kinds = new Uint8Array(1024);
  /** The bytes of formatted terms, by id. */
  readonly texts = new Map<number, Buffer>();
  private truncations: number;

  constructor(readonly dictionary: TermDictionary) {
    this.truncations = dictionary.truncations;
  }

  /** Forgets everything when the dictionary was truncated since. */
  check(): void {
    if (this.truncations === this.dictionary.truncations) return;
    this.truncations = this.dictionary.truncations;
    this.kinds.fill(0);
    this.texts.clear();
  }

  /** 0 (not seen), {@link CANONICAL} or {@link FORMATTED}. */
  kind(id: number): number {
    return id < this.kinds.length ? this.kinds[id]! : 0;
  }

  set(id: number, kind: number, text: Buffer | undefined): void {
    if (id >= this.kinds.length) {
      const grown = new Uint8Array(Math.max(id + 1, this.kinds.length * 2));
      grown.set(this.kinds);
      this.kinds = grown;
    }
    this.kinds[id] = kind;
    if (text !== undefined) {
      if (this.texts.size >= KEPT_TEXTS) this.texts.clear();
      this.texts.set(id, text);
    }
  }
}

/** The term knowledge of the writers without prefixes, per dictionary. */
const shared = new WeakMap<TermDictionary, TermBytes>();
