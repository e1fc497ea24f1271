/**
 * The hash functions MD5, SHA1, SHA256, SHA384 and SHA512 (§17.4.6) over the UTF-8 bytes of a
 * simple literal or xsd:string, as lower-case hexadecimal simple literals (node:crypto).
 * @module
 */
import { createHash } from 'node:crypto';
import { type Value, requireSimple, stringLiteral } from './values.js';

/** The hash algorithms, by SPARQL function name (lower case). */
export const HASH_ALGORITHMS: Readonly<Record<string, string>> = {
  md5: 'md5',
  sha1: 'sha1',
  sha256: 'sha256',
  sha384: 'sha384',
  sha512: 'sha512',
};

/** Hashes a simple literal or xsd:string with a node:crypto algorithm. */
export function hash(algorithm: string, arg: Value): Value {
  const text = requireSimple(arg, algorithm.toUpperCase());
  return stringLiteral(createHash(algorithm).update(text, 'utf8').digest('hex'));
}
