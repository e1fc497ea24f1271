/**
 * Test helper: term ids for the parsers of lib/formats without a store: each new key gets the
 * next id, and the keys are kept in order, so that a spec can read back what a parser interned.
 */
import { ABSENT_TERM, type TermIds } from '../../lib/formats/rdf-parse.js';

const decoder = new TextDecoder();

/** Term ids from a map of keys; with `lookupOnly`, keys not in it are ABSENT_TERM. */
export function keyedTermIds(lookupOnly = false): TermIds & { keys: string[] } {
  const keys: string[] = [];
  const ids = new Map<string, number>();
  const intern = (key: string): number => {
    const known = ids.get(key);
    if (known !== undefined) return known;
    if (lookupOnly) return ABSENT_TERM;
    ids.set(key, keys.length);
    return keys.push(key) - 1;
  };
  return { keys, intern, internBytes: (bytes, start, end) => intern(decoder.decode(bytes.subarray(start, end))) };
}

/** `text` as chunks of `size` bytes, each handed over after a turn of the event loop's microtasks. */
export async function* chunkedText(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i += size) yield await Promise.resolve(bytes.subarray(i, i + size));
}
