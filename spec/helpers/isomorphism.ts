/**
 * Comparing RDF datasets up to blank-node isomorphism (as the W3C RDF test suites require).
 *
 * Ground quads (no blank nodes) are compared as sets. Blank nodes are first grouped by their
 * non-blank structure (the quads they occur in, with other blank nodes abstracted away), the
 * grouping is refined jointly over both datasets until it is stable, and then a backtracking
 * search looks for a bijection between the blank nodes of the two datasets that maps every
 * quad of one onto a quad of the other, trying only candidates of the same group.
 *
 * Term equality follows RDF 1.1: IRIs by their string, literals by lexical form, datatype and
 * language tag, except that language tags are compared case-insensitively (quadlog, like
 * BCP 47, treats them so and stores them lower-cased).
 * @module
 */
import type * as RDF from '@rdfjs/types';

/** A term of a quad position, as a plain value (what the comparison needs of a term). */
type QuadTerm = RDF.Quad['subject'] | RDF.Quad['predicate'] | RDF.Quad['object'] | RDF.Quad['graph'];

/** A quad with its four terms as canonical strings; blank nodes keep their label (`_:label`). */
type KeyedQuad = readonly [string, string, string, string];

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';

/**
 * The canonical comparison key of a term: `<iri>`, `_:label`, `"lexical"@lang` (tag
 * lower-cased), `"lexical"^^<datatype>` (simple literals get xsd:string), or `DEFAULT` for
 * the default graph. Lexical forms are JSON-escaped, so keys never collide.
 */
export function termKey(term: QuadTerm): string {
  switch (term.termType) {
    case 'NamedNode':
      return `<${term.value}>`;
    case 'BlankNode':
      return `_:${term.value}`;
    case 'Literal':
      if (term.language !== '') return `${JSON.stringify(term.value)}@${term.language.toLowerCase()}`;
      return `${JSON.stringify(term.value)}^^<${term.datatype.value === '' ? XSD_STRING : term.datatype.value}>`;
    case 'DefaultGraph':
      return 'DEFAULT';
    default:
      // variables and quoted triples do not occur in RDF 1.1 data
      return `?${term.termType}:${term.value}`;
  }
}

function isBlank(key: string): boolean {
  return key.startsWith('_:');
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
  for (const q of quads) {
    const k: KeyedQuad = [termKey(q.subject), termKey(q.predicate), termKey(q.object), termKey(q.graph)];
    const joined = k.join(' ');
    if (!k.some(isBlank)) {
      ground.add(joined);
      continue;
    }
    if (seen.has(joined)) continue;
    seen.add(joined);
    blankQuads.push(k);
    for (const t of new Set(k.filter(isBlank))) {
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
      const parts = quads.map((q) => q.map((t) => (t === b ? '@' : isBlank(t) ? `#${old.get(t)!}` : t)).join(' ')).sort();
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
  const targetQuads = new Set(db.blankQuads.map((q) => q.join(' ')));
  const mapping = new Map<string, string>();
  const used = new Set<string>();

  /** Whether every quad of `node` whose blank nodes are all mapped has an image in `b`. */
  const consistent = (node: string): boolean => {
    for (const q of da.occurrences.get(node)!) {
      const image: string[] = [];
      let complete = true;
      for (const t of q) {
        if (!isBlank(t)) image.push(t);
        else {
          const m = mapping.get(t);
          if (m === undefined) {
            complete = false;
            break;
          }
          image.push(m);
        }
      }
      if (complete && !targetQuads.has(image.join(' '))) return false;
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
