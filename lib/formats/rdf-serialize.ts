/**
 * Writing facts as RDF text: N-Triples and N-Quads by hand from the dictionary's canonical
 * forms (the bulk path), JSON-LD and RDF/XML by hand (`jsonld-writer.ts`, `rdfxml-writer.ts`),
 * Turtle and TriG through n3's Writer with the store's prefixes that
 * the data uses and the base IRI the user set. Output is produced in chunks so that big exports stream, as strings
 * ({@link createRdfWriter}) or as UTF-8 bytes ({@link createRdfByteWriter}: N-Triples and
 * N-Quads copied from the dictionary's arena by `ntriples-byte-writer.ts`).
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { BaseIRI, DataFactory, Writer } from 'n3';
import type { TermDictionary } from '../model/dictionary.js';
import { type FactTerm, KIND_LITERAL, KIND_TRIPLE, keyToTerm, tripleKeySpaces } from '../model/terms.js';
import { JSON_LD, N_QUADS, N_TRIPLES, RDF_XML, TRIG, TURTLE } from './media-types.js';
import { JsonLdWriter } from './jsonld-writer.js';
import { RdfXmlWriter } from './rdfxml-writer.js';
import { NTriplesByteWriter } from './ntriples-byte-writer.js';
import { PrefixesOnUse } from './prefixes-on-use.js';
import { turtleString } from './turtle-lexical.js';

/** Options of {@link createRdfWriter}. */
export interface RdfWriterOptions {
  /** Prefixes to abbreviate with (name with colon → IRI); Turtle and TriG declare those the data uses. */
  readonly prefixes: ReadonlyMap<string, string>;
  /** The base IRI (written as `@base` in Turtle and TriG, IRIs below it relative); none when absent. */
  readonly baseIRI?: string;
  /** JSON-LD: the context to write and compact IRIs with, instead of one made of `prefixes`. */
  readonly context?: Readonly<Record<string, unknown>> | undefined;
}

/** Writes statements of term ids as text, handing out chunks of output. */
export interface RdfWriter {
  /** Adds a statement; `g` is -1 for the default graph. */
  statement(s: number, p: number, o: number, g: number): void;
  /** Takes the text produced so far (possibly empty). */
  take(): string;
  /** Finishes the document; the remaining text is available through take(). */
  end(): void;
}

/**
 * Writes statements of term ids as UTF-8 bytes, handing out chunks that are the caller's to
 * keep (the writer never writes to a chunk again once handed out).
 */
export interface RdfByteWriter {
  /** Adds a statement; `g` is -1 for the default graph. */
  statement(s: number, p: number, o: number, g: number): void;
  /** Takes the chunks completed so far (possibly none; none empty). */
  take(): readonly Uint8Array[];
  /** Finishes the document; the remaining chunks are available through take(). */
  end(): void;
}

/** Escapes characters an N-Triples IRI may not hold raw. */
function escapeIri(iri: string): string {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u0020<>"{}|^`\\]/.test(iri) ? iri.replace(/[\u0000-\u0020<>"{}|^`\\]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`) : iri;
}

/** The N-Triples form of a canonical key (a triple term's `(S P O)` as `<<( S P O )>>`). */
export function keyToNTriples(key: string): string {
  const c = key.charCodeAt(0);
  if (c === KIND_TRIPLE) {
    const [first, second] = tripleKeySpaces(key);
    return `<<( ${keyToNTriples(key.slice(1, first))} ${keyToNTriples(key.slice(first + 1, second))} ${keyToNTriples(key.slice(second + 1, -1))} )>>`;
  }
  if (c === KIND_LITERAL) {
    const close = key.lastIndexOf('"');
    const lexical = key.slice(1, close);
    const suffix = key.slice(close + 1);
    return `${turtleString(lexical)}${suffix.startsWith('^^<') ? `^^<${escapeIri(suffix.slice(3, -1))}>` : suffix}`;
  }
  if (c === 0x3c) return `<${escapeIri(key.slice(1, -1))}>`;
  return key;
}

class LineWriter implements RdfWriter {
  private out = '';
  private readonly cache = new Map<number, string>();
  constructor(
    private readonly dictionary: TermDictionary,
    private readonly quads: boolean,
  ) {}

  private term(id: number): string {
    let t = this.cache.get(id);
    if (t === undefined) {
      t = keyToNTriples(this.dictionary.keyOf(id));
      if (this.cache.size > 100_000) this.cache.clear();
      this.cache.set(id, t);
    }
    return t;
  }

  statement(s: number, p: number, o: number, g: number): void {
    if (g >= 0 && !this.quads) return;
    this.out += `${this.term(s)} ${this.term(p)} ${this.term(o)}${g >= 0 ? ` ${this.term(g)}` : ''} .\n`;
  }

  take(): string {
    const t = this.out;
    this.out = '';
    return t;
  }

  end(): void {}
}

class N3Writer implements RdfWriter {
  private out = '';
  private readonly writer: Writer;
  private readonly prefixes: PrefixesOnUse;
  constructor(
    private readonly dictionary: TermDictionary,
    private readonly trig: boolean,
    options: RdfWriterOptions,
  ) {
    const sink = { write: (chunk: string) => { this.out += chunk; return true; }, end: () => {}, on: () => sink, once: () => sink, emit: () => true };
    const writerOptions: ConstructorParameters<typeof Writer>[1] = { format: trig ? 'application/trig' : 'text/turtle' };
    const base = options.baseIRI ? new BaseIRI(options.baseIRI) : undefined;
    if (options.baseIRI) (writerOptions as { baseIRI?: string }).baseIRI = options.baseIRI;
    this.writer = new Writer(sink, writerOptions);
    if (options.baseIRI) this.out += `@base <${options.baseIRI}> .\n`;
    this.prefixes = new PrefixesOnUse(options.prefixes, (name, iri) => this.writer.addPrefix(name, iri), base && ((iri) => base.toRelative(iri)));
  }

  private term(id: number, predicate = false): FactTerm {
    const term = keyToTerm(this.dictionary.keyOf(id));
    this.prefixes.term(id, term, predicate);
    return term;
  }

  statement(s: number, p: number, o: number, g: number): void {
    if (g >= 0 && !this.trig) return;
    const graph = g >= 0 ? (this.term(g) as RDF.NamedNode) : DataFactory.defaultGraph();
    this.writer.addQuad(this.term(s) as RDF.NamedNode, this.term(p, true) as RDF.NamedNode, this.term(o), graph);
  }

  take(): string {
    const t = this.out;
    this.out = '';
    return t;
  }

  end(): void {
    this.writer.end();
  }
}

/** A writer for one of the RDF media types (JSON-LD in `jsonld-writer.ts`, RDF/XML in `rdfxml-writer.ts`). */
export function createRdfWriter(mediaType: string, dictionary: TermDictionary, options: RdfWriterOptions): RdfWriter {
  switch (mediaType) {
    case N_TRIPLES:
      return new LineWriter(dictionary, false);
    case N_QUADS:
      return new LineWriter(dictionary, true);
    case TURTLE:
      return new N3Writer(dictionary, false, options);
    case TRIG:
      return new N3Writer(dictionary, true, options);
    case JSON_LD:
      return new JsonLdWriter(dictionary, options);
    case RDF_XML:
      return new RdfXmlWriter(dictionary, options);
    default:
      throw new TypeError(`cannot write facts as '${mediaType}'`);
  }
}

/** A byte writer over a string writer: each piece of text taken is encoded as UTF-8 once. */
class EncodingWriter implements RdfByteWriter {
  constructor(private readonly writer: RdfWriter) {}

  statement(s: number, p: number, o: number, g: number): void {
    this.writer.statement(s, p, o, g);
  }

  take(): readonly Uint8Array[] {
    const text = this.writer.take();
    return text === '' ? [] : [Buffer.from(text, 'utf8')];
  }

  end(): void {
    this.writer.end();
  }
}

/**
 * A writer of UTF-8 bytes for one of the four RDF media types: N-Triples and N-Quads are
 * copied from the dictionary's arena without building strings; Turtle and TriG are the
 * text of {@link createRdfWriter}, encoded. The bytes are those of the text writer's output.
 */
export function createRdfByteWriter(mediaType: string, dictionary: TermDictionary, options: RdfWriterOptions): RdfByteWriter {
  switch (mediaType) {
    case N_TRIPLES:
      return new NTriplesByteWriter(dictionary, false);
    case N_QUADS:
      return new NTriplesByteWriter(dictionary, true);
    default:
      return new EncodingWriter(createRdfWriter(mediaType, dictionary, options));
  }
}
