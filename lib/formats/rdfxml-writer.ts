/**
 * Writing facts as RDF/XML, streamed: one `rdf:Description` for each run of statements with
 * the same subject, property elements inside it (`rdf:resource`, `rdf:nodeID`, or the literal
 * as text with `xml:lang` or `rdf:datatype`). The root element declares `rdf:` and the store's
 * prefixes (those whose name is an XML name); a predicate no prefix covers gets a namespace
 * declared on its own element, split after its last `#`, `/` or `:`. RDF/XML holds triples
 * only: statements of named graphs are left out, as Turtle leaves them out.
 *
 * Written by hand: no maintained RDF/XML serializer for JavaScript was found on npm (graphy's
 * `@graphy/content.xml.scribe` is the only one, and graphy has had no release since 2021).
 * @module
 */
import type { TermDictionary } from '../model/dictionary.js';
import { BadRequestError } from '../model/errors.js';
import { KIND_BLANK, KIND_IRI, RDF_NS, XSD_STRING } from '../model/terms.js';
import type { RdfWriter, RdfWriterOptions } from './rdf-serialize.js';
import { requireRdf11 } from './rdf11-only.js';

/** An XML name without colon (NCName), ASCII letters, digits and the usual marks, or any non-ASCII letter. */
const NCNAME = /^[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*$/;

/** Characters XML 1.0 cannot hold at all, even as references. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/** Escapes text content. */
function text(value: string): string {
  if (NOT_XML.test(value)) throw new BadRequestError('a literal holds a control character that XML 1.0 cannot represent: export as another format');
  return value.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;'));
}

/** Escapes an attribute value (in double quotes). */
function attribute(value: string): string {
  if (NOT_XML.test(value)) throw new BadRequestError('an IRI or literal holds a control character that XML 1.0 cannot represent: export as another format');
  return value.replace(/[&<>"\r\n\t]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The `rdf:nodeID` of a blank node label: the label when it is an XML name that does not start
 * with `x-`, otherwise `x-` and the hex of its UTF-8 bytes (so that the mapping is one-to-one).
 */
function nodeId(label: string): string {
  if (NCNAME.test(label) && !label.startsWith('x-')) return label;
  return `x-${Buffer.from(label, 'utf8').toString('hex')}`;
}

/** Writes statements of term ids as RDF/XML. */
export class RdfXmlWriter implements RdfWriter {
  private out: string;
  private subject = -1;
  /** Namespace IRI → declared prefix (without colon), those of the root element. */
  private readonly namespaces = new Map<string, string>();
  /** Predicate id → its element name and, when the root declares no namespace for it, the declaration it needs. */
  private readonly predicates = new Map<number, { readonly name: string; readonly declaration: string }>();

  constructor(
    private readonly dictionary: Pick<TermDictionary, 'keyOf'>,
    options: RdfWriterOptions,
  ) {
    let root = `<?xml version="1.0" encoding="utf-8"?>\n<rdf:RDF xmlns:rdf="${RDF_NS}"`;
    this.namespaces.set(RDF_NS, 'rdf');
    for (const [name, iri] of options.prefixes) {
      const prefix = name.slice(0, -1);
      if (!NCNAME.test(prefix) || /^xml/i.test(prefix) || this.namespaces.has(iri) || prefix === 'rdf') continue;
      this.namespaces.set(iri, prefix);
      root += `\n    xmlns:${prefix}="${attribute(iri)}"`;
    }
    this.out = `${root}>\n`;
  }

  private predicate(id: number): { readonly name: string; readonly declaration: string } {
    let p = this.predicates.get(id);
    if (p !== undefined) return p;
    const key = this.dictionary.keyOf(id);
    if (key.charCodeAt(0) !== KIND_IRI) throw new BadRequestError('RDF/XML cannot write a predicate that is not an IRI');
    const iri = key.slice(1, -1);
    // split after the last '#', '/' or ':' (an XML name holds none of them)
    let split = -1;
    for (let i = 0; i < iri.length; i++) {
      const c = iri[i];
      if ((c === '#' || c === '/' || c === ':') && NCNAME.test(iri.slice(i + 1))) {
        split = i + 1;
        break;
      }
    }
    if (split < 0) throw new BadRequestError(`RDF/XML cannot write the predicate <${iri}>: it does not end in an XML name`);
    const namespace = iri.slice(0, split);
    const local = iri.slice(split);
    const prefix = this.namespaces.get(namespace);
    p = prefix !== undefined ? { name: `${prefix}:${local}`, declaration: '' } : { name: `ns:${local}`, declaration: ` xmlns:ns="${attribute(namespace)}"` };
    if (this.predicates.size > 100_000) this.predicates.clear();
    this.predicates.set(id, p);
    return p;
  }

  statement(s: number, p: number, o: number, g: number): void {
    if (g >= 0) return;
    const predicate = this.predicate(p);
    if (s !== this.subject) {
      if (this.subject >= 0) this.out += '  </rdf:Description>\n';
      const key = this.dictionary.keyOf(s);
      this.out += key.charCodeAt(0) === KIND_BLANK ? `  <rdf:Description rdf:nodeID="${nodeId(key.slice(2))}">\n` : `  <rdf:Description rdf:about="${attribute(key.slice(1, -1))}">\n`;
      this.subject = s;
    }
    const object = this.dictionary.keyOf(o);
    const open = `    <${predicate.name}${predicate.declaration}`;
    const kind = object.charCodeAt(0);
    if (kind === KIND_IRI) this.out += `${open} rdf:resource="${attribute(object.slice(1, -1))}"/>\n`;
    else if (kind === KIND_BLANK) this.out += `${open} rdf:nodeID="${nodeId(object.slice(2))}"/>\n`;
    else {
      requireRdf11(object, 'RDF/XML');
      const close = object.lastIndexOf('"');
      const lexical = text(object.slice(1, close));
      const suffix = object.slice(close + 1);
      let attributes = '';
      if (suffix.startsWith('@')) attributes = ` xml:lang="${attribute(suffix.slice(1))}"`;
      else if (suffix.startsWith('^^<') && suffix.slice(3, -1) !== XSD_STRING) attributes = ` rdf:datatype="${attribute(suffix.slice(3, -1))}"`;
      this.out += `${open}${attributes}>${lexical}</${predicate.name}>\n`;
    }
  }

  take(): string {
    const t = this.out;
    this.out = '';
    return t;
  }

  end(): void {
    if (this.subject >= 0) this.out += '  </rdf:Description>\n';
    this.subject = -1;
    this.out += '</rdf:RDF>\n';
  }
}
