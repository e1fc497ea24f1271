/**
 * RDF terms at the API boundary (RDF/JS, n3's DataFactory) and their canonical key strings.
 *
 * The canonical form of a term is what the dictionary stores (as UTF-8 bytes):
 * - IRI: `<iri>`
 * - blank node: `_:label`
 * - literal: `"lexical"` (xsd:string), `"lexical"@lang` (tag lower-cased) or `"lexical"^^<datatype>`.
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

/** The canonical key of an RDF/JS IRI, blank node or literal. */
export function termToKey(term: RDF.Term): string {
  switch (term.termType) {
    case 'NamedNode':
      return `<${term.value}>`;
    case 'BlankNode':
      return `_:${term.value}`;
    case 'Literal':
      return literalKey(term.value, term.language, term.language ? '' : term.datatype.value);
    default:
      throw new TypeError(`a ${term.termType} cannot be stored in a fact`);
  }
}

/**
 * The canonical key of a literal from its parts: the lexical form, the language tag (`''`
 * when none; the key has it in lower case) and the datatype IRI (read only without a tag).
 */
export function literalKey(lexical: string, language: string, datatype: string): string {
  if (language) return `"${lexical}"@${language.toLowerCase()}`;
  return datatype === XSD_STRING ? `"${lexical}"` : `"${lexical}"^^<${datatype}>`;
}

/** The canonical key of an IRI string. */
export function iriKey(iri: string): string {
  return `<${iri}>`;
}

/** The RDF/JS term of a canonical key. */
export function keyToTerm(key: string): RDF.NamedNode | RDF.BlankNode | RDF.Literal {
  const c = key.charCodeAt(0);
  if (c === KIND_IRI) return DataFactory.namedNode(key.slice(1, -1));
  if (c === KIND_BLANK) return DataFactory.blankNode(key.slice(2));
  const close = key.lastIndexOf('"');
  const lexical = key.slice(1, close);
  if (close === key.length - 1) return DataFactory.literal(lexical);
  if (key.charCodeAt(close + 1) === 0x40) return DataFactory.literal(lexical, key.slice(close + 2));
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
      if (term.language) return `${quoted}@${term.language}`;
      return term.datatype.value === XSD_STRING ? quoted : `${quoted}^^<${term.datatype.value}>`;
    }
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
