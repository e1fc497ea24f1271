/**
 * Writing facts as JSON-LD, streamed: a document `{"@context": …, "@graph": [ … ]}` whose
 * context is the store's prefixes (or a context given by the caller), with one node object for
 * each run of statements with the same subject, and one `{"@id": g, "@graph": [ … ]}` object
 * for each run of statements in the named graph `g` (a graph met again later gets another such
 * object: JSON-LD merges them). IRIs are compacted with the prefixes (`ex:a`); `rdf:type`
 * becomes `@type`; literals are strings, `{"@value", "@language"}` or `{"@value", "@type"}`
 * (numbers and booleans stay typed strings, so that their lexical forms survive). The output
 * reads back, through any JSON-LD processor, as the same statements.
 *
 * Written by hand rather than with `jsonld-streaming-serializer`: that serializer takes each
 * quad through a promise (its context is resolved asynchronously), while the export writers
 * take statements synchronously; its synchronous core is not part of its published interface.
 * @module
 */
import type { TermDictionary } from '../model/dictionary.js';
import { KIND_BLANK, KIND_IRI, RDF_NS, XSD_STRING } from '../model/terms.js';
import type { RdfWriter, RdfWriterOptions } from './rdf-serialize.js';
import { requireRdf11 } from './rdf11-only.js';

const RDF_TYPE = `<${RDF_NS}type>`;

/** Characters after which a prefix's IRI may be used to compact (JSON-LD 1.1: a gen-delim). */
const GEN_DELIM = /[:/?#[\]@]$/;

/** Writes statements of term ids as a JSON-LD document. */
export class JsonLdWriter implements RdfWriter {
  private out: string;
  /** Namespace IRIs and their prefix names (without colon), longest IRI first. */
  private readonly prefixes: ReadonlyArray<readonly [string, string]>;
  private graph = -1;
  private subject = -1;
  private predicate = -1;
  /** Whether a node (or graph object) has been written at the current level, for commas. */
  private nodesInGraph = 0;
  private nodesAtTop = 0;
  private readonly compacted = new Map<string, string>();

  constructor(
    private readonly dictionary: Pick<TermDictionary, 'keyOf'>,
    options: RdfWriterOptions,
  ) {
    const prefixes: Array<[string, string]> = [];
    let context: Record<string, unknown>;
    if (options.context !== undefined) {
      context = { ...options.context };
      for (const [name, value] of Object.entries(context)) if (typeof value === 'string' && !name.startsWith('@') && GEN_DELIM.test(value)) prefixes.push([value, name]);
    } else {
      context = {};
      for (const [name, iri] of options.prefixes) {
        const term = name.slice(0, -1);
        if (term === '' || !GEN_DELIM.test(iri)) continue;
        context[term] = iri;
        prefixes.push([iri, term]);
      }
    }
    this.prefixes = prefixes.sort((a, b) => b[0].length - a[0].length);
    this.out = `{\n  "@context": ${JSON.stringify(context, null, 2).replace(/\n/g, '\n  ')},\n  "@graph": [`;
  }

  /** An IRI as written: compacted with the longest prefix whose IRI it starts with, when the rest cannot be mistaken for an IRI. */
  private iri(iri: string): string {
    let c = this.compacted.get(iri);
    if (c !== undefined) return c;
    c = iri;
    for (const [namespace, term] of this.prefixes) {
      if (iri.startsWith(namespace) && iri.length > namespace.length && !iri.startsWith('//', namespace.length)) {
        c = `${term}:${iri.slice(namespace.length)}`;
        break;
      }
    }
    if (this.compacted.size > 100_000) this.compacted.clear();
    this.compacted.set(iri, c);
    return c;
  }

  /** A subject or graph name as the value of `@id`. */
  private id(id: number): string {
    const key = this.dictionary.keyOf(id);
    return JSON.stringify(key.charCodeAt(0) === KIND_BLANK ? key : this.iri(key.slice(1, -1)));
  }

  /** An object as a JSON-LD value. */
  private value(id: number, isType: boolean): string {
    const key = this.dictionary.keyOf(id);
    const kind = key.charCodeAt(0);
    if (kind === KIND_BLANK) return isType ? JSON.stringify(key) : `{ "@id": ${JSON.stringify(key)} }`;
    if (kind === KIND_IRI) return isType ? JSON.stringify(this.iri(key.slice(1, -1))) : `{ "@id": ${JSON.stringify(this.iri(key.slice(1, -1)))} }`;
    requireRdf11(key, 'JSON-LD');
    const close = key.lastIndexOf('"');
    const lexical = JSON.stringify(key.slice(1, close));
    const suffix = key.slice(close + 1);
    if (suffix === '') return lexical;
    if (suffix.startsWith('@')) return `{ "@value": ${lexical}, "@language": ${JSON.stringify(suffix.slice(1))} }`;
    const datatype = suffix.slice(3, -1);
    return datatype === XSD_STRING ? lexical : `{ "@value": ${lexical}, "@type": ${JSON.stringify(this.iri(datatype))} }`;
  }

  private indent(): string {
    return this.graph >= 0 ? '        ' : '    ';
  }

  private closeSubject(): void {
    if (this.subject < 0) return;
    this.out += `\n${this.indent()}]\n${this.indent().slice(2)}}`;
    this.subject = -1;
    this.predicate = -1;
  }

  private closeGraph(): void {
    this.closeSubject();
    if (this.graph < 0) return;
    this.out += '\n    ]\n  }';
    this.graph = -1;
  }

  statement(s: number, p: number, o: number, g: number): void {
    if (g !== this.graph) {
      this.closeGraph();
      if (g >= 0) {
        this.out += `${this.nodesAtTop++ > 0 ? ',' : ''}\n  {\n    "@id": ${this.id(g)},\n    "@graph": [`;
        this.graph = g;
        this.nodesInGraph = 0;
      }
    }
    const inner = this.indent();
    if (s !== this.subject) {
      this.closeSubject();
      const first = this.graph >= 0 ? this.nodesInGraph++ === 0 : this.nodesAtTop++ === 0;
      this.out += `${first ? '' : ','}\n${inner.slice(2)}{\n${inner}"@id": ${this.id(s)}`;
      this.subject = s;
    }
    // rdf:type with an IRI or blank node is `@type` (its own key: -2), other rdf:type values stay under the predicate
    const isType = this.dictionary.keyOf(p) === RDF_TYPE && this.dictionary.keyOf(o).charCodeAt(0) !== 0x22;
    const key = isType ? -2 : p;
    if (key !== this.predicate) {
      if (this.predicate !== -1) this.out += `\n${inner}]`;
      const name = isType ? '@type' : this.iri(this.dictionary.keyOf(p).slice(1, -1));
      this.out += `,\n${inner}${JSON.stringify(name)}: [\n${inner}  ${this.value(o, isType)}`;
      this.predicate = key;
      return;
    }
    this.out += `,\n${inner}  ${this.value(o, isType)}`;
  }

  take(): string {
    const t = this.out;
    this.out = '';
    return t;
  }

  end(): void {
    this.closeGraph();
    this.out += '\n  ]\n}\n';
  }
}
