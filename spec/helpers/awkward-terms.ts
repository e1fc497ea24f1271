/**
 * Awkward RDF terms for the specs of writers: every character N-Triples, Turtle or TSV escapes
 * in IRIs or strings, some they must not escape, language tags, datatypes and blank nodes.
 */
import { DataFactory } from 'n3';
import type * as RDF from '@rdfjs/types';

const namedNode = (iri: string): RDF.NamedNode => DataFactory.namedNode(iri);
const blankNode = (label: string): RDF.BlankNode => DataFactory.blankNode(label);
const literal = (lexical: string, tagOrType?: string | RDF.NamedNode): RDF.Literal => DataFactory.literal(lexical, tagOrType);
const EX = 'http://example.com/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** Every character N-Triples escapes in IRIs or strings, and some it must not escape. */
const AWKWARD = [
  ' ', '<', '>', '"', '{', '}', '|', '^', '`', '\\', '\n', '\r', '\t', '\b', '\f', '\u0000', '\u0001', '\u001f', '\u007f', '\u0080',
  'é', 'ü', '日本', '😀', '\u2028', '\ufeff', "'", '#', '%20', '@', ':', '.', '_', '-',
];

/** Awkward IRIs, literals and blank nodes. */
export function awkwardTerms(): Array<RDF.NamedNode | RDF.BlankNode | RDF.Literal> {
  const terms: Array<RDF.NamedNode | RDF.BlankNode | RDF.Literal> = [namedNode(`${EX}plain`), namedNode(''), blankNode('b0'), blankNode('node-é.x'), literal(''), literal('plain'), literal('', 'en')];
  for (const c of AWKWARD) {
    terms.push(namedNode(`${EX}a${c}b`), namedNode(`${c}`), literal(c), literal(`x${c}${c}y`), literal(`"${c}"`, 'en-gb'));
    // the canonical form of a literal relies on its datatype IRI holding no `"`
    if (c !== '"') terms.push(literal(`${c}\\`, namedNode(`${EX}dt${c}`)));
  }
  terms.push(
    literal('a"b"c'),
    literal('ends with a quote"'),
    literal('"', 'fr'),
    literal('"@en'),
    literal('x"^^<y>'),
    literal('42', namedNode(`${XSD}integer`)),
    literal('plain', namedNode(`${XSD}string`)),
    literal('mixed 😀 "é"\n\\u0041', 'zh-hant-tw'),
    literal('x'.repeat(300) + '\u0001'.repeat(300)),
    namedNode(`${EX}${'\u0000'.repeat(50)}`),
  );
  return terms;
}

