/**
 * Comparing RDF datasets up to blank-node isomorphism (as the W3C RDF test suites require).
 *
 * Ground quads (no blank nodes) are compared as sets. Blank nodes are first grouped by their
 * non-blank structure (the quads they occur in, with other blank nodes abstracted away), the
 * grouping is refined jointly over both datasets until it is stable, and then a backtracking
 * search looks for a bijection between the blank nodes of the two datasets that maps every
 * quad of one onto a quad of the other, trying only candidates of the same group.
 *
 * Term equality follows RDF 1.2: IRIs by their string, literals by lexical form, datatype,
 * language tag and base direction, except that language tags are compared case-insensitively
 * (quadlog, like BCP 47, treats them so and stores them lower-cased); triple terms by their
 * parts, the blank nodes inside them renamed with the same bijection as everywhere else.
 * @module
 */
import type * as RDF from '@rdfjs/types';

/** A term of a quad position, as a plain value (what the comparison needs of a term). */
type QuadTerm = RDF.Quad['subject'] | RDF.Quad['predicate'] | RDF.Quad['object'] | RDF.Quad['graph'];

/**
 * A quad as one canonical string, each blank node written as {@link BLANK} label {@link BLANK}
 * wherever it occurs (inside triple terms too), so that the blank nodes of a quad are found
 * and renamed by {@link BLANK_NODE}.
 */
type KeyedQuad = string;

/** Delimits a blank node's label in a {@link KeyedQuad} (never in a term key: JSON escapes it, IRIs cannot hold it). */
const BLANK = '\u0000';
// eslint-disable-next-line no-control-regex -- BLANK is U+0000
const BLANK_NODE = /\u0000([^\u0000]*)\u0000/g;

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';

/**
 * The canonical comparison key of a term: `<iri>`, `_:label`, `"lexical"@lang` (tag
 * lower-cased), `"lexical"@lang--dir` (with a base direction), `"lexical"^^<datatype>`
 * (simple literals get xsd:string), `<<( s p o )>>` for a triple term (its parts' keys), or
 * `DEFAULT` for the default graph. Lexical forms are JSON-escaped, so keys never collide.
 */
export function termKey(term: QuadTerm): string {
  return keyWith(term, (label) => `_:${label}`);
}

/** {@link termKey} with blank nodes written by `blank`. */
function keyWith(term: QuadTerm, blank: (label: string) => string): string {
  switch (term.termType) {
    case 'NamedNode':
      return `<${term.value}>`;
    case 'BlankNode':
      return blank(term.value);
    case 'Literal': {
      if (term.language !== '') {
        const direction = (term as { direction?: string }).direction;
        return `${JSON.stringify(term.value)}@${term.language.toLowerCase()}${direction ? `--${direction}` : ''}`;
      }
      return `${JSON.stringify(term.value)}^^<${term.datatype.value === '' ? XSD_STRING : term.datatype.value}>`;
    }
    case 'DefaultGraph':
      return 'DEFAULT';
    case 'Quad':
      return `<<( ${keyWith(term.subject, blank)} ${keyWith(term.predicate, blank)} ${keyWith(term.object, blank)} )>>`;
    default:
      // variables do not occur in data
      return `?${term.termType}:${term.value}`;
  }
}

/** The blank nodes of a keyed quad (labels, each once). */
function blanksOf(q: KeyedQuad): Set<string> {
  return new Set([...q.matchAll(BLANK_NODE)].map((m) => m[1]!));
}

/** A dataset as a set of keyed quads split into ground and blank-node quads. */
interface Indexed {
  readonly ground: Set<string>;
  readonly blankQuads: KeyedQuad[];
  readonly blankKeys: Set<string>;
  /** Each blank node's quads. */
  readonly occurrences: Map<string, KeyedQuad[]>;
}

function index(quads: Iterable<RDF.Quad>): Indexed {
  const ground = new Set<string>();
  const seen = new Set<string>();
  const blankQuads: KeyedQuad[] = [];
  const occurrences = new Map<string, KeyedQuad[]>();
  const blank = (label: string): string => `${BLANK}${label}${BLANK}`;
  for (const q of quads) {
    const k: KeyedQuad = [q.subject, q.predicate, q.object, q.graph].map((t) => keyWith(t, blank)).join(' ');
    if (!k.includes(BLANK)) {
      ground.add(k);
      continue;
    }
    if (seen.has(k)) continue;
    seen.add(k);
    blankQuads.push(k);
    for (const t of blanksOf(k)) {
      let list = occurrences.get(t);
      if (!list) occurrences.set(t, (list = []));
      list.push(k);
    }
  }
  return { ground, blankQuads, blankKeys: new Set(occurrences.keys()), occurrences };
}

/**
 * One round of colour refinement over both datasets together: a blank node's new colour
 * names its old colour and the sorted list of its quads, where it appears as `@` and other
 * blank nodes as their old colours. Colours are small integers interned in a map shared by
 * both datasets, so equal structure gets equal colours on both sides.
 */
function refine(datasets: readonly Indexed[], colours: readonly Map<string, number>[]): Map<string, number>[] {
  const interned = new Map<string, number>();
  return datasets.map((d, i) => {
    const old = colours[i]!;
    const next = new Map<string, number>();
    for (const [b, quads] of d.occurrences) {
      const parts = quads.map((q) => q.replace(BLANK_NODE, (_, t: string) => (t === b ? '@' : `#${old.get(t)!}`))).sort();
      const signature = `${old.get(b)!}\n${parts.join('\n')}`;
      let c = interned.get(signature);
      if (c === undefined) interned.set(signature, (c = interned.size));
      next.set(b, c);
    }
    return next;
  });
}

function classCount(colours: readonly Map<string, number>[]): number {
  const all = new Set<number>();
  for (const m of colours) for (const c of m.values()) all.add(c);
  return all.size;
}

/** The number of blank nodes of each colour. */
function classSizes(colours: Map<string, number>): Map<number, number> {
  const sizes = new Map<number, number>();
  for (const c of colours.values()) sizes.set(c, (sizes.get(c) ?? 0) + 1);
  return sizes;
}

/**
 * Whether two RDF datasets are isomorphic: equal up to a bijective renaming of blank nodes,
 * with RDF term equality (language tags compared case-insensitively). Duplicate quads count
 * once.
 */
export function isomorphic(a: Iterable<RDF.Quad>, b: Iterable<RDF.Quad>): boolean {
  const da = index(a);
  const db = index(b);
  if (da.ground.size !== db.ground.size) return false;
  for (const q of da.ground) if (!db.ground.has(q)) return false;
  if (da.blankQuads.length !== db.blankQuads.length || da.blankKeys.size !== db.blankKeys.size) return false;
  if (da.blankQuads.length === 0) return true;

  // colour refinement until the partition is stable
  let colours: Map<string, number>[] = [da, db].map((d) => new Map([...d.blankKeys].map((k) => [k, 0])));
  let count = 1;
  for (;;) {
    const next = refine([da, db], colours);
    const nextCount = classCount(next);
    colours = next;
    if (nextCount === count) break;
    count = nextCount;
  }
  const [ca, cb] = colours as [Map<string, number>, Map<string, number>];
  const sa = classSizes(ca);
  const sb = classSizes(cb);
  if (sa.size !== sb.size) return false;
  for (const [c, n] of sa) if (sb.get(c) !== n) return false;

  // backtracking over mappings within colour classes, smallest classes first
  const candidates = new Map<number, string[]>();
  for (const [k, c] of cb) {
    let list = candidates.get(c);
    if (!list) candidates.set(c, (list = []));
    list.push(k);
  }
  const order = [...da.blankKeys].sort((x, y) => sa.get(ca.get(x)!)! - sa.get(ca.get(y)!)!);
  const targetQuads = new Set(db.blankQuads);
  const mapping = new Map<string, string>();
  const used = new Set<string>();

  /** Whether every quad of `node` whose blank nodes are all mapped has an image in `b`. */
  const consistent = (node: string): boolean => {
    for (const q of da.occurrences.get(node)!) {
      let complete = true;
      const image = q.replace(BLANK_NODE, (_, t: string) => {
        const m = mapping.get(t);
        if (m === undefined) complete = false;
        return `${BLANK}${m ?? ''}${BLANK}`;
      });
      if (complete && !targetQuads.has(image)) return false;
    }
    return true;
  };

  const search = (i: number): boolean => {
    if (i === order.length) return true;
    const node = order[i]!;
    for (const candidate of candidates.get(ca.get(node)!)!) {
      if (used.has(candidate)) continue;
      mapping.set(node, candidate);
      used.add(candidate);
      if (consistent(node) && search(i + 1)) return true;
      mapping.delete(node);
      used.delete(candidate);
    }
    return false;
  };
  // every quad of `a` maps into `b` injectively and both have as many quads: the images are all of `b`
  return search(0);
}
