/**
 * RDF/JS quads as statements of term ids: what an import of quads made by any RDF/JS
 * DataFactory (N3.js's, `@rdfjs/data-model`, Comunica's) hands down, batch by batch, like the
 * text parsers do (see {@link QuadBatch}). Terms are written as their canonical bytes into one
 * reused buffer and interned from there; no text is built per statement.
 *
 * Which inputs are quads: arrays and other synchronous iterables that are neither text nor
 * bytes, and asynchronous iterables (Node's object-mode readable streams among them) whose
 * first item is not text or bytes ({@link splitQuadSource} tells them apart).
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import type { Interrupter } from '../model/control.js';
import { XSD_STRING, directionOf, termToKey } from '../model/terms.js';
import type { ImportReport } from './notifications.js';
import { type QuadBatch, QuadBuffer } from './quad-batch.js';
import type { TermIds } from './rdf-parse.js';

/** RDF/JS quads to import: an array, any iterable, or an async iterable (an object-mode stream) of them. */
export type QuadSource = Iterable<RDF.Quad> | AsyncIterable<RDF.Quad>;

/** Options of {@link quadBatches}. */
export interface QuadBatchOptions {
  /**
   * Makes a fresh, store-unique blank node label. When given, blank nodes are scoped to the
   * call: each label of the input stands for one fresh node (the same label within the input
   * is the same node). When absent, a blank node stands for the stored node of its label.
   */
  readonly freshBlankNode?: (() => string) | undefined;
  /** The interrupt flag of the calling connection (checked once a batch). */
  readonly interrupter: Interrupter;
}

/** How many quads a batch holds at most. */
const BATCH = 4096;
/** How many IRIs of predicates are remembered by their text (cleared when more come). */
const PREDICATE_CACHE_SIZE = 4096;
/** How many errors are reported before the rest of the input is only counted. */
const MAX_ERRORS = 100;

/** Yields `first`, then the rest of the iterator; returning early closes the iterator (a stream is destroyed). */
async function* rejoinedAsync<T>(first: IteratorResult<T>, rest: AsyncIterator<T>): AsyncGenerator<T> {
  let done = false;
  try {
    for (let r = first; r.done !== true; r = await rest.next()) yield r.value;
    done = true;
  } finally {
    if (!done) await rest.return?.();
  }
}

/** Whether a value is text or bytes (an item of content, not a quad). */
function isChunk(value: unknown): boolean {
  return typeof value === 'string' || value instanceof Uint8Array;
}

/**
 * Tells RDF/JS quads from content: `quads` when `source` is an iterable that is not text or
 * bytes, or an async iterable whose first item is neither (its first item is read for that;
 * what is returned yields it again), `content` otherwise. An empty async iterable is content
 * (nothing to import either way).
 */
export async function splitQuadSource<S>(source: S): Promise<{ readonly quads: QuadSource } | { readonly content: S }> {
  if (source === null || typeof source !== 'object' || source instanceof Uint8Array) return { content: source };
  if (Symbol.asyncIterator in source) {
    const it = (source as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    const first = await it.next();
    const again = rejoinedAsync(first, it);
    if (first.done === true || isChunk(first.value)) return { content: again as S };
    return { quads: again as AsyncIterable<RDF.Quad> };
  }
  if (Symbol.iterator in source) return { quads: source as Iterable<RDF.Quad> };
  return { content: source };
}

/** A term's text for messages (kept short). */
function shown(term: RDF.Term): string {
  const value = term.value.length > 60 ? `${term.value.slice(0, 57)}...` : term.value;
  switch (term.termType) {
    case 'NamedNode':
      return `<${value}>`;
    case 'BlankNode':
      return `_:${value}`;
    case 'Variable':
      return `?${value}`;
    case 'Literal':
      return JSON.stringify(value);
    default:
      return term.termType;
  }
}

/** What is wrong with a term at a position, for the error row (or undefined when it may be stored there). */
function misplaced(term: unknown, position: 'subject' | 'predicate' | 'object' | 'graph'): string | undefined {
  if (term === null || typeof term !== 'object' || typeof (term as { termType?: unknown }).termType !== 'string') {
    return `its ${position} is not an RDF/JS term`;
  }
  const t = term as RDF.Term;
  switch (t.termType) {
    case 'NamedNode':
      return undefined;
    case 'BlankNode':
      return position === 'predicate' ? `a blank node (${shown(t)}) cannot be a predicate` : undefined;
    case 'Literal':
      return position === 'object' ? undefined : `a literal (${shown(t)}) cannot be the ${position}`;
    case 'DefaultGraph':
      return position === 'graph' ? undefined : `the default graph cannot be the ${position}`;
    case 'Variable':
      return `a variable (${shown(t)}) cannot be stored: a quad to import has no variables (its ${position} is one)`;
    case 'Quad':
      return position === 'object' ? misplacedTripleTerm(t) : `a triple term cannot be the ${position} (RDF 1.2 has triple terms as objects only)`;
    default:
      return `its ${position} has an unknown term type '${String((t as { termType: unknown }).termType)}'`;
  }
}

/** What is wrong with a triple term (RDF 1.2) as an object, or undefined when it may be stored. */
function misplacedTripleTerm(term: RDF.BaseQuad): string | undefined {
  if (term.graph !== undefined && term.graph !== null && term.graph.termType !== 'DefaultGraph') return 'a triple term cannot have a graph';
  const s = term.subject?.termType;
  if (s !== 'NamedNode' && s !== 'BlankNode') return `the subject of a triple term must be an IRI or a blank node, not ${s === undefined ? 'missing' : `a ${s}`}`;
  if (term.predicate?.termType !== 'NamedNode') return 'the predicate of a triple term must be an IRI';
  const o = term.object?.termType;
  if (o === 'NamedNode' || o === 'BlankNode' || o === 'Literal') return undefined;
  if (o === 'Quad') return misplacedTripleTerm(term.object);
  return `the object of a triple term must be an IRI, a blank node, a literal or a triple term, not ${o === undefined ? 'missing' : `a ${o}`}`;
}

/** Turns terms into ids through their canonical bytes, written into one reused buffer. */
class TermEncoder {
  private bytes = new Uint8Array(1024);
  private readonly encoder = new TextEncoder();
  /** Ids of predicates by IRI (predicates are few and repeat in every statement). */
  private readonly predicates = new Map<string, number>();
  /** The IRI of the subject seen last and its id (statements of one subject usually follow each other). */
  private lastSubject = '';
  private lastSubjectId = -1;
  /** Ids of the input's blank node labels, when blank nodes are scoped to the call. */
  private readonly blankNodes = new Map<string, number>();

  constructor(
    private readonly ids: TermIds,
    private readonly freshBlankNode: (() => string) | undefined,
  ) {}

  /** Writes `text` as UTF-8 at `at`, returning the end (the buffer has room for 3 bytes a code unit). */
  private put(text: string, at: number): number {
    const n = text.length;
    const bytes = this.bytes;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) return at + i + this.encoder.encodeInto(text.slice(i), bytes.subarray(at + i)).written;
      bytes[at + i] = c;
    }
    return at + n;
  }

  /** Makes room for `units` UTF-16 code units of text and a few more bytes. */
  private room(units: number): void {
    const need = units * 3 + 16;
    if (need > this.bytes.length) this.bytes = new Uint8Array(Math.max(need, this.bytes.length * 2));
  }

  /** The id of an IRI. */
  iri(value: string): number {
    this.room(value.length);
    this.bytes[0] = 0x3c; // <
    const end = this.put(value, 1);
    this.bytes[end] = 0x3e; // >
    return this.ids.internBytes(this.bytes, 0, end + 1);
  }

  /** The id of a subject IRI (the one seen last is remembered). */
  subjectIri(value: string): number {
    if (value === this.lastSubject && this.lastSubjectId !== -1) return this.lastSubjectId;
    const id = this.iri(value);
    this.lastSubject = value;
    this.lastSubjectId = id;
    return id;
  }

  /** The id of a predicate IRI (remembered by its text). */
  predicate(value: string): number {
    const known = this.predicates.get(value);
    if (known !== undefined) return known;
    const id = this.iri(value);
    if (this.predicates.size >= PREDICATE_CACHE_SIZE) this.predicates.clear();
    this.predicates.set(value, id);
    return id;
  }

  /** The id of a blank node: a fresh node per label of the input when scoped, the stored node of the label otherwise. */
  blankNode(label: string): number {
    if (this.freshBlankNode === undefined) return this.ids.intern(`_:${label}`);
    const known = this.blankNodes.get(label);
    if (known !== undefined) return known;
    const key = `_:${this.freshBlankNode()}`;
    const id = this.ids.intern(key);
    this.blankNodes.set(label, id);
    this.blankNodeKeys.set(label, key);
    return id;
  }

  /** The keys of the scoped blank nodes by the input's labels (for the blank nodes inside triple terms). */
  private readonly blankNodeKeys = new Map<string, string>();

  /** The canonical key of a term inside a triple term (checked to be storable there). */
  private key(term: RDF.Term): string {
    if (term.termType === 'BlankNode') {
      if (this.freshBlankNode === undefined) return `_:${term.value}`;
      this.blankNode(term.value);
      return this.blankNodeKeys.get(term.value)!;
    }
    if (term.termType === 'Quad') return `(${this.key(term.subject)} ${this.key(term.predicate)} ${this.key(term.object)})`;
    return termToKey(term);
  }

  /** The id of a literal: `"lexical"`, `"lexical"@lang` (lower case) or `"lexical"^^<datatype>`. */
  literal(term: RDF.Literal): number {
    const language = term.language;
    const datatype = language ? '' : term.datatype.value;
    this.room(term.value.length + language.length + datatype.length);
    const bytes = this.bytes;
    bytes[0] = 0x22; // "
    let end = this.put(term.value, 1);
    bytes[end++] = 0x22;
    if (language) {
      bytes[end++] = 0x40; // @
      end = this.put(language.toLowerCase(), end);
      const direction = directionOf(term);
      if (direction) end = this.put(`--${direction.toLowerCase()}`, end);
    } else if (datatype !== XSD_STRING) {
      bytes[end++] = 0x5e; // ^
      bytes[end++] = 0x5e;
      bytes[end++] = 0x3c;
      end = this.put(datatype, end);
      bytes[end++] = 0x3e;
    }
    return this.ids.internBytes(bytes, 0, end);
  }

  /** The id of a term already checked to be storable at its position. */
  term(term: RDF.Term): number {
    switch (term.termType) {
      case 'NamedNode':
        return this.iri(term.value);
      case 'BlankNode':
        return this.blankNode(term.value);
      case 'Quad':
        return this.ids.intern(this.key(term));
      default:
        return this.literal(term as RDF.Literal);
    }
  }
}

/** Whether a literal has no base direction, or `ltr` / `rtl` with a language tag. */
function validDirection(literal: RDF.Literal): boolean {
  const direction = directionOf(literal);
  return direction === '' || ((direction === 'ltr' || direction === 'rtl') && literal.language !== '');
}

/** Whether a value has the three terms of a quad. */
function hasTerms(value: unknown): value is RDF.Quad {
  return value !== null && typeof value === 'object' && 'subject' in value && 'predicate' in value && 'object' in value;
}

/**
 * The statements of RDF/JS quads as batches of term ids (terms interned through `ids`).
 * A quad that cannot be stored (a literal as subject, a variable, something that is not a
 * quad) is an error row naming the problem and the quad's index in the input (from 0); the
 * import goes on counting, and its caller changes nothing when there are errors.
 */
export async function* quadBatches(source: QuadSource, ids: TermIds, report: ImportReport, options: QuadBatchOptions): AsyncGenerator<QuadBatch, void, undefined> {
  const encoder = new TermEncoder(ids, options.freshBlankNode);
  const batch = new QuadBuffer();
  const interrupter = options.interrupter;
  let index = 0;
  let errors = 0;
  const fail = (message: string): void => {
    if (errors++ < MAX_ERRORS) report.error(`the quad at index ${index}: ${message}`);
    else if (errors === MAX_ERRORS + 1) report.error(`more than ${MAX_ERRORS} quads cannot be stored: the others are not listed`);
  };
  const add = (quad: unknown): void => {
    if (!hasTerms(quad)) {
      fail(`${quad === null ? 'null' : typeof quad === 'object' ? 'an object without subject, predicate and object' : `a ${typeof quad}`} is not an RDF/JS quad`);
      return;
    }
    const { subject, predicate, object, graph } = quad;
    // the usual case first: no check beyond the term types read anyway
    let s: number;
    if (subject?.termType === 'NamedNode') s = encoder.subjectIri(subject.value);
    else {
      const wrong = misplaced(subject, 'subject');
      if (wrong !== undefined) return fail(wrong);
      s = encoder.blankNode(subject.value);
    }
    if (predicate?.termType !== 'NamedNode') return fail(misplaced(predicate, 'predicate') ?? 'the predicate must be an IRI');
    const p = encoder.predicate(predicate.value);
    const wrongObject = object?.termType === 'NamedNode' || object?.termType === 'Literal' ? undefined : misplaced(object, 'object');
    if (wrongObject !== undefined) return fail(wrongObject);
    if (object.termType === 'Literal' && !validDirection(object)) return fail(`a literal's base direction must be 'ltr' or 'rtl' (${shown(object)})`);
    const o = encoder.term(object);
    // a quad without a graph (a triple of some libraries) is in the default graph
    let g = -1;
    if (graph !== undefined && graph !== null && graph.termType !== 'DefaultGraph') {
      const wrong = misplaced(graph, 'graph');
      if (wrong !== undefined) return fail(wrong);
      g = encoder.term(graph);
    }
    batch.push(s, p, o, g);
  };
  if (Symbol.asyncIterator in source) {
    for await (const quad of source) {
      add(quad);
      index++;
      if (batch.count === BATCH) {
        interrupter.check();
        yield batch;
        batch.clear();
      }
    }
  } else {
    for (const quad of source) {
      add(quad);
      index++;
      if (batch.count === BATCH) {
        interrupter.check();
        yield batch;
        batch.clear();
      }
    }
  }
  interrupter.check();
  if (batch.count > 0) yield batch;
}
