/**
 * RDF terms at the API boundary (RDF/JS, n3's DataFactory) and their canonical key strings.
 *
 * The canonical form of a term is what the dictionary stores (as UTF-8 bytes):
 * - IRI: `<iri>`
 * - blank node: `_:label`
 * - literal: `"lexical"` (xsd:string), `"lexical"@lang` (tag lower-cased), `"lexical"@lang--dir`
 *   (RDF 1.2 base direction, `ltr` or `rtl`) or `"lexical"^^<datatype>`;
 * - triple term (RDF 1.2): `(S P O)`, the keys of its subject, predicate and object with one
 *   space between them: the subject is an IRI or a blank node and the predicate an IRI (neither
 *   holds a space), so the object is the rest (a literal, or a triple term nested to any
 *   depth).
 * The lexical form is stored raw (no escapes); the suffix after the last `"` tells the kind,
 * since neither language tags nor IRIs contain `"`.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';

/** XML Schema namespace. */
export const XSD = 'http://www.w3.org/2001/XMLSchema#';
/** RDF namespace. */
export const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
/** xsd:string, the datatype of simple literals. */
export const XSD_STRING = `${XSD}string`;
/** rdf:langString, the datatype of language-tagged literals. */
export const RDF_LANG_STRING = `${RDF_NS}langString`;

/** First character code of an IRI key. */
export const KIND_IRI = 0x3c; // <
/** First character code of a blank node key. */
export const KIND_BLANK = 0x5f; // _
/** First character code of a literal key. */
export const KIND_LITERAL = 0x22; // "
/** First character code of a triple term key. */
export const KIND_TRIPLE = 0x28; // (

/** An RDF term a fact can hold: an IRI, a blank node, a literal or a triple term (RDF/JS `Quad` in the default graph). */
export type FactTerm = RDF.NamedNode | RDF.BlankNode | RDF.Literal | RDF.Quad;

/** A literal's base direction (RDF 1.2), or '' for none. */
export function directionOf(literal: RDF.Literal): string {
  const direction = (literal as { readonly direction?: unknown }).direction;
  return typeof direction === 'string' ? direction : '';
}

/** The canonical key of an RDF/JS IRI, blank node or literal. */
export function termToKey(term: RDF.Term): string {
  switch (term.termType) {
    case 'NamedNode':
      return `<${term.value}>`;
    case 'BlankNode':
      return `_:${term.value}`;
    case 'Literal':
      return literalKey(term.value, term.language, term.language ? '' : term.datatype.value, term.language ? directionOf(term) : '');
    case 'Quad':
      return tripleTermKey(term);
    default:
      throw new TypeError(`a ${term.termType} cannot be stored in a fact`);
  }
}

/** The canonical key of a triple term (an RDF/JS quad in the default graph). */
function tripleTermKey(term: RDF.BaseQuad): string {
  if (term.graph.termType !== 'DefaultGraph') throw new TypeError('a triple term cannot have a graph');
  const s = term.subject.termType;
  if (s !== 'NamedNode' && s !== 'BlankNode') throw new TypeError(`the subject of a triple term must be an IRI or a blank node, not a ${s}`);
  if (term.predicate.termType !== 'NamedNode') throw new TypeError(`the predicate of a triple term must be an IRI, not a ${term.predicate.termType}`);
  // the key is split at the spaces after the subject and the predicate (an IRI holds none)
  if (term.subject.value.includes(' ') || term.predicate.value.includes(' ')) throw new TypeError('the subject and predicate of a triple term cannot hold a space');
  return `(${termToKey(term.subject)} ${termToKey(term.predicate)} ${termToKey(term.object)})`;
}

/**
 * Where the parts of a triple term key end: the index of the space after the subject and of
 * the space after the predicate (the object runs from the second space to the last character,
 * the closing parenthesis).
 */
export function tripleKeySpaces(key: string): readonly [number, number] {
  const first = key.indexOf(' ');
  const second = first < 0 ? -1 : key.indexOf(' ', first + 1);
  if (first < 0 || second < 0 || key.charCodeAt(key.length - 1) !== 0x29) throw new RangeError(`not a triple term key: ${key}`);
  return [first, second];
}

/**
 * The canonical key of a literal from its parts: the lexical form, the language tag (`''`
 * when none; the key has it in lower case), the datatype IRI (read only without a tag) and
 * the base direction (`ltr`, `rtl`, or `''` for none; read only with a tag).
 */
export function literalKey(lexical: string, language: string, datatype: string, direction = ''): string {
  if (language) return direction ? `"${lexical}"@${language.toLowerCase()}--${direction.toLowerCase()}` : `"${lexical}"@${language.toLowerCase()}`;
  return datatype === XSD_STRING ? `"${lexical}"` : `"${lexical}"^^<${datatype}>`;
}

/** The canonical key of an IRI string. */
export function iriKey(iri: string): string {
  return `<${iri}>`;
}

/** n3's factory as the RDF/JS type declares it (n3's own declarations lack base directions). */
const rdfjsFactory: RDF.DataFactory = DataFactory;

/**
 * A literal with a language tag and, when `direction` is not empty (RDF 1.2), a base direction:
 * the one way terms with a direction are made (n3's declarations lack the argument).
 */
export function languageLiteral(lexical: string, language: string, direction = ''): RDF.Literal {
  return direction ? rdfjsFactory.literal(lexical, { language, direction: direction as 'ltr' | 'rtl' }) : DataFactory.literal(lexical, language);
}

/** The RDF/JS term of a canonical key. */
export function keyToTerm(key: string): FactTerm {
  const c = key.charCodeAt(0);
  if (c === KIND_IRI) return DataFactory.namedNode(key.slice(1, -1));
  if (c === KIND_BLANK) return DataFactory.blankNode(key.slice(2));
  if (c === KIND_TRIPLE) {
    const [first, second] = tripleKeySpaces(key);
    const subject = keyToTerm(key.slice(1, first)) as RDF.NamedNode | RDF.BlankNode;
    const predicate = keyToTerm(key.slice(first + 1, second)) as RDF.NamedNode;
    return DataFactory.quad(subject, predicate, keyToTerm(key.slice(second + 1, -1)));
  }
  const close = key.lastIndexOf('"');
  const lexical = key.slice(1, close);
  if (close === key.length - 1) return DataFactory.literal(lexical);
  if (key.charCodeAt(close + 1) === 0x40) {
    const tag = key.slice(close + 2);
    const dashes = tag.indexOf('--');
    return dashes < 0 ? DataFactory.literal(lexical, tag) : languageLiteral(lexical, tag.slice(0, dashes), tag.slice(dashes + 2));
  }
  return DataFactory.literal(lexical, DataFactory.namedNode(key.slice(close + 4, -1)));
}

/** Lower-cases a language tag, as the canonical form does. */
export function normalizeLanguage(tag: string): string {
  return tag.toLowerCase();
}

/**
 * A term as it is written in Datalog or SPARQL text, for messages: `?x`, `<iri>`, `_:b`, and
 * literals with their lexical form quoted and escaped as JSON (`"a\"b"@en`, `"1"^^<…#integer>`).
 */
export function termText(term: RDF.Term): string {
  switch (term.termType) {
    case 'Variable':
      return `?${term.value}`;
    case 'NamedNode':
      return `<${term.value}>`;
    case 'BlankNode':
      return `_:${term.value}`;
    case 'Literal': {
      const quoted = JSON.stringify(term.value);
      const direction = directionOf(term);
      if (term.language) return direction ? `${quoted}@${term.language}--${direction}` : `${quoted}@${term.language}`;
      return term.datatype.value === XSD_STRING ? quoted : `${quoted}^^<${term.datatype.value}>`;
    }
    case 'Quad':
      return `<<( ${termText(term.subject)} ${termText(term.predicate)} ${termText(term.object)} )>>`;
    default:
      return term.value;
  }
}

/**
 * An RDF/JS data factory (`namedNode`, `literal`, `blankNode`, `quad`, …), for the terms an
 * application hands to quadlog: bound parameters of queries, quads to import. Any other RDF/JS
 * factory's terms are accepted as well.
 */
export const QuadlogDataFactory: RDF.DataFactory = DataFactory;
