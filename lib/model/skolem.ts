/**
 * The terms of the built-in tuple table `SKOLEM`: in each of its facts the last argument is a
 * blank node determined by the other arguments. The label is derived from a SHA-256 hash of
 * the leading arguments in canonical N-Triples form, so the same arguments give the same blank
 * node in rules and in SPARQL, in every transaction, store and process, and an exported store
 * imported elsewhere (blank node labels are kept on import) meets the same terms again.
 *
 * The hash input is each leading argument's canonical N-Triples form (RDF 1.1 N-Triples §4:
 * `<iri>`, `_:label`, literals with only `"`, `\`, line feed and carriage return escaped, the
 * language tag in lower case, no `^^xsd:string`), each followed by one line feed (which no
 * canonical form contains). The label is `sk_` and the first 128 bits of the hash in hex.
 *
 * A hash cannot be inverted: a store remembers, in its dictionary, the leading arguments of
 * every SKOLEM term it creates (see {@link TermDictionary.recordSkolem}), which is how a term
 * is unpacked back into its arguments.
 * @module
 */
import { createHash } from 'node:crypto';
import type { TermDictionary } from './dictionary.js';
import { KIND_BLANK, KIND_IRI } from './terms.js';

/** The name of the built-in tuple table that creates blank nodes from its other arguments. */
export const SKOLEM_TABLE = 'SKOLEM';

/** The start of every SKOLEM blank node label. */
export const SKOLEM_LABEL_PREFIX = 'sk_';

/** Hex digits of the hash kept in a label (128 bits). */
const HASH_HEX_DIGITS = 32;

/** Escapes a lexical form as canonical N-Triples does: only `"`, `\`, LF and CR. */
function escapeLexical(lexical: string): string {
  return /["\\\n\r]/.test(lexical) ? lexical.replace(/["\\\n\r]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\${c}`)) : lexical;
}

/**
 * The canonical N-Triples form (RDF 1.1 N-Triples §4) of a term given by its dictionary key
 * (see terms.ts): IRIs and blank nodes as they are, literals with their lexical form escaped.
 */
export function canonicalNTriples(key: string): string {
  const c = key.charCodeAt(0);
  if (c === KIND_IRI || c === KIND_BLANK) return key;
  const close = key.lastIndexOf('"');
  return `"${escapeLexical(key.slice(1, close))}"${key.slice(close + 1)}`;
}

/** The SKOLEM blank node label for leading arguments given by their dictionary keys (none for arity 1). */
export function skolemLabel(keys: readonly string[]): string {
  const hash = createHash('sha256');
  for (const key of keys) hash.update(`${canonicalNTriples(key)}\n`, 'utf8');
  return SKOLEM_LABEL_PREFIX + hash.digest('hex').slice(0, HASH_HEX_DIGITS);
}

/** The dictionary key (`_:label`) of the SKOLEM blank node of leading arguments given by their keys. */
export function skolemKey(keys: readonly string[]): string {
  return `_:${skolemLabel(keys)}`;
}

/**
 * The term id of the SKOLEM blank node of the leading arguments `inputs` (term ids of
 * `dictionary`), interning it if new and remembering its arguments for unpacking.
 */
export function internSkolem(dictionary: TermDictionary, inputs: ArrayLike<number>): number {
  const keys: string[] = [];
  for (let i = 0; i < inputs.length; i++) keys.push(dictionary.keyOf(inputs[i]!));
  const id = dictionary.intern(skolemKey(keys));
  dictionary.recordSkolem(id, inputs);
  return id;
}
