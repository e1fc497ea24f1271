/**
 * SPARQL 1.2's functions on triple terms: TRIPLE, SUBJECT, PREDICATE, OBJECT and isTRIPLE.
 * @module
 */
import { DataFactory } from 'n3';
import { fail } from './errors.js';
import { type Value, describe } from './values.js';
import { booleanLiteral } from './vocabulary.js';

/** TRIPLE: the triple term of a subject (an IRI or blank node), a predicate (an IRI) and an object (any term). */
export function triple(subject: Value, predicate: Value, object: Value): Value {
  if (subject.termType !== 'NamedNode' && subject.termType !== 'BlankNode') fail(`TRIPLE: the subject must be an IRI or a blank node, got ${describe(subject)}`);
  if (predicate.termType !== 'NamedNode') fail(`TRIPLE: the predicate must be an IRI, got ${describe(predicate)}`);
  return DataFactory.quad(subject, predicate, object);
}

/** The part of a triple term; an error for any other term. */
function partOf(term: Value, which: 'subject' | 'predicate' | 'object', name: string): Value {
  if (term.termType !== 'Quad') fail(`${name}: expected a triple term, got ${describe(term)}`);
  return term[which] as Value;
}

/** SUBJECT: the subject of a triple term. */
export function subject(term: Value): Value {
  return partOf(term, 'subject', 'SUBJECT');
}

/** PREDICATE: the predicate of a triple term. */
export function predicate(term: Value): Value {
  return partOf(term, 'predicate', 'PREDICATE');
}

/** OBJECT: the object of a triple term. */
export function object(term: Value): Value {
  return partOf(term, 'object', 'OBJECT');
}

/** isTRIPLE: whether a term is a triple term. */
export function isTriple(term: Value): Value {
  return booleanLiteral(term.termType === 'Quad');
}
