/**
 * Content negotiation: parsing the Accept header (media ranges with q-values) and choosing
 * among the media types a resource can produce.
 *
 * Rules of {@link negotiate}:
 * - each offered type gets the quality of the most specific media range that matches it
 *   (`type/subtype` before `type/*` before `*\/*`); parameters other than `q` are ignored;
 *   a range with `q=0` excludes the types it matches;
 * - the type with the highest quality wins; among equals, the type matched by the more
 *   specific range, then the one whose range comes first in the header, then the default
 *   type, then the order of the offered list (so `*\/*` and `text/*` select the default);
 * - an absent or empty Accept header selects the default type.
 *
 * The default answer format of listings and SPARQL answers, when Accept is absent or only
 * `*\/*`, is `text/csv` ({@link DEFAULT_ANSWER_TYPE}): RDFox's documentation shows its
 * listings without an Accept header (the connection and request listings) answered as
 * `text/csv; charset=UTF-8`, and CSV is readable on a terminal, which is where requests
 * without Accept come from (curl).
 * @module
 */
import { ANSWER_MEDIA_TYPES } from '../index.js';
import { NotAcceptableError } from './errors.js';

/** The media type of HTML-form bodies, whose pairs are request parameters. */
export const FORM_TYPE = 'application/x-www-form-urlencoded';
/** The media type of a SPARQL query sent as a body. */
export const SPARQL_QUERY_TYPE = 'application/sparql-query';
/** The media type of a SPARQL update sent as a body (and of the commit procedure). */
export const SPARQL_UPDATE_TYPE = 'application/sparql-update';
/** The media type of a body listing IRIs to import, one per line. */
export const URI_LIST_TYPE = 'text/uri-list';

/** One media range of an Accept header. */
export interface MediaRange {
  /** The type, lower case (`*` for any). */
  readonly type: string;
  /** The subtype, lower case (`*` for any). */
  readonly subtype: string;
  /** The quality, 0 to 1. */
  readonly q: number;
  /** Position in the header (0-based), to break ties. */
  readonly index: number;
}

/** The answer format used when the Accept header is absent or accepts anything. */
export const DEFAULT_ANSWER_TYPE = 'text/csv';

/**
 * Parses an Accept header into media ranges. Malformed entries (no slash) are skipped; a
 * malformed q-value counts as 1.
 */
export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  let index = 0;
  for (const part of header.split(',')) {
    const [range, ...parameters] = part.split(';');
    const value = range!.trim().toLowerCase();
    const slash = value.indexOf('/');
    if (slash <= 0 || slash === value.length - 1) continue;
    let q = 1;
    for (const parameter of parameters) {
      const eq = parameter.indexOf('=');
      if (eq < 0 || parameter.slice(0, eq).trim().toLowerCase() !== 'q') continue;
      const parsed = Number(parameter.slice(eq + 1).trim());
      if (Number.isFinite(parsed)) q = Math.min(1, Math.max(0, parsed));
    }
    ranges.push({ type: value.slice(0, slash), subtype: value.slice(slash + 1), q, index: index++ });
  }
  return ranges;
}

/** How specifically a range matches a media type: 3 exact, 2 `type/*`, 1 `*\/*`, 0 no match. */
function specificity(range: MediaRange, mediaType: string): number {
  const slash = mediaType.indexOf('/');
  const type = mediaType.slice(0, slash).toLowerCase();
  const subtype = mediaType.slice(slash + 1).toLowerCase();
  if (range.type === '*') return range.subtype === '*' ? 1 : 0;
  if (range.type !== type) return 0;
  if (range.subtype === '*') return 2;
  return range.subtype === subtype ? 3 : 0;
}

/**
 * Chooses among `offered` media types by the Accept header (see the module comment); returns
 * undefined when none is acceptable. `defaultType` (default: the first offered) is chosen
 * when the header is absent or empty, and wins ties.
 */
export function negotiate(accept: string | undefined, offered: readonly string[], defaultType: string | undefined = offered[0]): string | undefined {
  if (accept === undefined || accept.trim() === '') return defaultType ?? offered[0];
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return defaultType ?? offered[0];
  let best: { type: string; q: number; isDefault: boolean; specificity: number; index: number; order: number } | undefined;
  offered.forEach((type, order) => {
    let match: MediaRange | undefined;
    let matchSpecificity = 0;
    for (const range of ranges) {
      const s = specificity(range, type);
      if (s > matchSpecificity || (s === matchSpecificity && s > 0 && match !== undefined && range.q > match.q)) {
        match = range;
        matchSpecificity = s;
      }
    }
    if (!match || match.q <= 0) return;
    const candidate = { type, q: match.q, isDefault: type === defaultType, specificity: matchSpecificity, index: match.index, order };
    if (!best || better(candidate, best)) best = candidate;
  });
  return best?.type;
}

function better(
  a: { q: number; isDefault: boolean; specificity: number; index: number; order: number },
  b: { q: number; isDefault: boolean; specificity: number; index: number; order: number },
): boolean {
  if (a.q !== b.q) return a.q > b.q;
  if (a.specificity !== b.specificity) return a.specificity > b.specificity;
  if (a.index !== b.index) return a.index < b.index;
  if (a.isDefault !== b.isDefault) return a.isDefault;
  return a.order < b.order;
}

/**
 * Like {@link negotiate} but throws {@link NotAcceptableError} (406) naming the offered types
 * when none is acceptable.
 */
export function negotiateOrThrow(accept: string | undefined, offered: readonly string[], defaultType?: string): string {
  const chosen = negotiate(accept, offered, defaultType);
  if (chosen === undefined) throw new NotAcceptableError(`none of the media types in 'Accept: ${accept ?? ''}' can be produced here; available: ${offered.join(', ')}`);
  return chosen;
}

/** The SPARQL answer format chosen by an Accept header for listings and SELECT/ASK answers. */
export function chooseAnswerType(accept: string | undefined): string {
  return negotiateOrThrow(accept, ANSWER_MEDIA_TYPES, DEFAULT_ANSWER_TYPE);
}
