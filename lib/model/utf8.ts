/**
 * Where UTF-8 goes wrong: the one scanner of byte sequences that the checks of imported
 * content (`formats/utf8-validation.ts`) and of HTTP request text (`http/utf8-text.ts`) share,
 * run only once Node's `isUtf8` has said that something is malformed, to say where.
 * @module
 */

/** The length of the sequence a lead byte starts (2–4), or 0 when it starts none. */
export function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/**
 * The offset of the first malformed sequence in `bytes[start, end)`, or -1 when there is none.
 * A sequence cut off by `end` is malformed only when `final` (else it may go on in the next
 * chunk). Overlong forms, surrogates and code points above U+10FFFF are malformed.
 */
export function firstInvalidUtf8(bytes: Uint8Array, start = 0, end = bytes.length, final = true): number {
  for (let p = start; p < end; ) {
    const c0 = bytes[p]!;
    if (c0 < 0x80) {
      p++;
      continue;
    }
    const length = sequenceLength(c0);
    if (length === 0) return p;
    for (let k = 1; k < length; k++) {
      if (p + k >= end) return final ? p : -1;
      const c = bytes[p + k]!;
      let low = 0x80;
      let high = 0xbf;
      if (k === 1) {
        if (c0 === 0xe0) low = 0xa0;
        else if (c0 === 0xed) high = 0x9f;
        else if (c0 === 0xf0) low = 0x90;
        else if (c0 === 0xf4) high = 0x8f;
      }
      if (c < low || c > high) return p;
    }
    p += length;
  }
  return -1;
}
