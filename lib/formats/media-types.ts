/**
 * The media types quadlog reads and writes, and content detection.
 * @module
 */

/** Turtle: triples of the default graph. */
export const TURTLE = 'text/turtle';
/** N-Triples: one triple per line. */
export const N_TRIPLES = 'application/n-triples';
/** N-Quads: one triple or quad per line. */
export const N_QUADS = 'application/n-quads';
/** TriG: Turtle with named graphs. */
export const TRIG = 'application/trig';
/** RDF/XML: triples of the default graph. */
export const RDF_XML = 'application/rdf+xml';
/** JSON-LD: triples and named graphs (`@graph` with `@id`). */
export const JSON_LD = 'application/ld+json';
/** Datalog rules and facts in RDFox's syntax. */
export const DATALOG = 'application/x.datalog';

/** The RDF formats of facts. */
export const RDF_FORMATS: readonly string[] = [TURTLE, N_TRIPLES, N_QUADS, TRIG, JSON_LD, RDF_XML];

/** The media types of content that can be imported and exported: the RDF formats, and Datalog (rules and facts). */
export const CONTENT_MEDIA_TYPES: readonly string[] = [...RDF_FORMATS, DATALOG];

/**
 * The message for a media type that is unknown or cannot be used where it was given, listing
 * those that can: `unsupported media type 'application/rdf+xml' (supported: text/turtle, …)`.
 * Import, export and the HTTP interface all word it this way.
 *
 * @param given The media type as given.
 * @param supported The media types that can be used there (default: every content type).
 * @param what What the media type was given for, when the message should say it (`a prefix body`).
 */
export function unsupportedMediaTypeMessage(given: string, supported: readonly string[] = CONTENT_MEDIA_TYPES, what?: string): string {
  return `unsupported media type '${given}'${what ? ` for ${what}` : ''} (supported: ${supported.join(', ')})`;
}

const ALIASES: Readonly<Record<string, string>> = {
  'text/turtle': TURTLE,
  'application/x-turtle': TURTLE,
  'application/turtle': TURTLE,
  turtle: TURTLE,
  ttl: TURTLE,
  'application/n-triples': N_TRIPLES,
  'text/plain+ntriples': N_TRIPLES,
  ntriples: N_TRIPLES,
  'n-triples': N_TRIPLES,
  nt: N_TRIPLES,
  'application/n-quads': N_QUADS,
  'text/x-nquads': N_QUADS,
  nquads: N_QUADS,
  'n-quads': N_QUADS,
  nq: N_QUADS,
  'application/trig': TRIG,
  'application/x-trig': TRIG,
  trig: TRIG,
  'application/rdf+xml': RDF_XML,
  rdfxml: RDF_XML,
  'rdf/xml': RDF_XML,
  rdf: RDF_XML,
  owl: RDF_XML,
  'application/ld+json': JSON_LD,
  jsonld: JSON_LD,
  'json-ld': JSON_LD,
  'application/x.datalog': DATALOG,
  datalog: DATALOG,
  dlog: DATALOG,
};

/**
 * The media type of a Content-Type header value without its parameters, in lower case
 * (`Text/Turtle; charset=UTF-8` → `text/turtle`); '' for an empty or absent header.
 */
export function baseMediaType(contentType: string | undefined): string {
  if (contentType === undefined) return '';
  const semicolon = contentType.indexOf(';');
  return (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/**
 * The canonical media type of a content type header value or a short name (`turtle`,
 * `nt`, …), ignoring parameters such as `; charset=utf-8`; undefined when unknown.
 */
export function canonicalMediaType(contentType: string): string | undefined {
  return ALIASES[baseMediaType(contentType)];
}

/** The media type suggested by a file name's extension (a trailing `.gz` is ignored). */
export function mediaTypeOfFileName(name: string): string | undefined {
  const m = /\.([A-Za-z]+)(?:\.gz)?$/.exec(name);
  return m ? ALIASES[m[1]!.toLowerCase()] : undefined;
}

/**
 * Guesses the format of content from its first bytes (decoded as text).
 * Line-based content whose statements have four terms is N-Quads, three terms N-Triples;
 * `{` or `GRAPH` blocks mean TriG; `:-` rules mean Datalog; a JSON object or array of objects
 * means JSON-LD, an XML declaration or root element RDF/XML; anything else Turtle.
 */
export function detectMediaType(head: string): string {
  return recognizeMediaType(head) ?? TURTLE;
}

/**
 * The format that content positively looks like, or undefined when nothing identifies it
 * (for example N-Triples lines with syntax errors); {@link detectMediaType} then assumes Turtle.
 */
export function recognizeMediaType(head: string): string | undefined {
  const markup = recognizeMarkup(head);
  if (markup !== undefined) return markup;
  const text = stripComments(head);
  const skeleton = text.replace(/"(?:[^"\\\n]|\\.)*"/g, '""').replace(/<[^>\s]*>/g, '<>');
  // rules, or statements that start with a Datalog atom: `[s, p, o]`, `ex:C[s]`, `Name(…)`
  if (/:-/.test(skeleton) || /(^|\.\s)\s*(\[\s*[^\]\s,]+\s*,|(?:[A-Za-z][\w.-]*)?:[\w-]*\[|<>\[|[A-Za-z_]\w*\()/m.test(skeleton)) return DATALOG;
  if (/\{/.test(skeleton)) return TRIG;
  if (/@prefix|@base|^\s*(PREFIX|BASE)\s/im.test(text)) return TURTLE;
  let quads = false;
  let lineBased = true;
  let sawStatement = false;
  for (const line of text.split(/\r\n|\r|\n/)) {
    const t = line.trim();
    if (t === '') continue;
    const terms = countLineTerms(t);
    if (terms === 4) quads = true;
    else if (terms !== 3) {
      // the last line of a sample may be cut short
      if (sawStatement && line === text.split(/\r\n|\r|\n/).at(-1)) break;
      lineBased = false;
      break;
    }
    sawStatement = true;
  }
  if (lineBased && sawStatement) return quads ? N_QUADS : N_TRIPLES;
  return undefined;
}

/**
 * JSON-LD or RDF/XML by their first characters (after a byte order mark and white space): a
 * JSON object (`{` then a string) or an array of them; an XML declaration, comment,
 * DOCTYPE, or an element that declares a namespace (`<rdf:RDF xmlns:rdf=…`: a Turtle IRI
 * holds no space). TriG's `{ <a> …` and Datalog's `[?x, …]` do not look like either.
 */
function recognizeMarkup(head: string): string | undefined {
  const start = head.replace(/^\uFEFF/, '').trimStart();
  if (/^(?:\[\s*)?\{\s*"/.test(start)) return JSON_LD;
  if (/^<(?:\?xml[\s?]|!--|!DOCTYPE[\s>])|^<[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?\s+xmlns[:=\s]/.test(start)) return RDF_XML;
  return undefined;
}

function stripComments(text: string): string {
  // remove `#` comments that are not inside IRIs or strings (good enough for a sample)
  return text.replace(/("(?:[^"\\\n]|\\.)*"|<[^>\s]*>)|#[^\n\r]*/g, (m, keep: string | undefined) => keep ?? '');
}

/** Number of N-Triples terms in a line ending with ` .`, or -1 if it is not such a line. */
function countLineTerms(line: string): number {
  const re = /\s*(<[^>\s]*>|_:[^\s]+|"(?:[^"\\]|\\.)*"(?:@[A-Za-z0-9-]+|\^\^<[^>\s]*>)?)/y;
  let n = 0;
  let pos = 0;
  for (;;) {
    re.lastIndex = pos;
    const m = re.exec(line);
    if (!m) break;
    pos = re.lastIndex;
    n++;
  }
  return /^\s*\.\s*$/.test(line.slice(pos)) ? n : -1;
}
