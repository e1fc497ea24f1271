/**
 * The node-link picture of a page of CONSTRUCT answers: an SVG with a node per subject and
 * object (literals each get a node of their own) and an arrow per triple labelled with its
 * predicate, placed by the force layout of layout.ts. The picture takes the proportions of the
 * window when it is drawn (within bounds), and the stylesheet keeps it inside the window, so
 * that the whole graph is in view without scrolling. A node of an IRI carries `data-iri`: a
 * click on it opens the IRI in the browse tab.
 * @module
 */
import { h, s } from './dom.js';
import { layout } from './layout.js';
import { type Prefix, showTerm, type Term } from './terms.js';

/** The most nodes drawn; the triples beyond are left out of the picture (not the table). */
export const MAX_NODES = 150;

/** The width of the picture's coordinates (its height follows the window's proportions). */
const WIDTH = 900;
/** The least and greatest height for that width. */
const HEIGHTS = [360, 900] as const;

/**
 * The height of the picture for a window of `width` by `height` pixels: the room below the
 * console's header, tabs and editor (about 300 pixels), in the proportions of the picture.
 */
export function pictureHeight(width: number, height: number): number {
  if (!(width > 0) || !(height > 0)) return 520;
  const room = Math.max(height - 300, 200);
  const shown = Math.max(width - 320, 300);
  return Math.round(Math.min(HEIGHTS[1], Math.max(HEIGHTS[0], (WIDTH * room) / shown)));
}

/** A triple of an answer page. */
export type Triple = readonly [Term | undefined, Term | undefined, Term | undefined];

function label(text: string): string {
  return text.length > 28 ? `${text.slice(0, 27)}…` : text;
}

/** The picture of `triples` (a figure holding the SVG and a caption). */
export function graphPicture(triples: readonly Triple[], prefixes: readonly Prefix[]): HTMLElement {
  const height = pictureHeight(window.innerWidth, window.innerHeight);
  const keys = new Map<string, number>();
  const nodes: Array<{ term: Term; key: string }> = [];
  const edges: Array<{ from: number; to: number; predicate: Term | undefined }> = [];
  let left = 0;
  const nodeOf = (term: Term, unique: boolean): number | undefined => {
    const key = term.type === 'literal' && unique ? `literal#${nodes.length}` : `${term.type}:${term.value}`;
    const known = keys.get(key);
    if (known !== undefined) return known;
    if (nodes.length >= MAX_NODES) return undefined;
    keys.set(key, nodes.length);
    nodes.push({ term, key });
    return nodes.length - 1;
  };
  for (const [subject, predicate, object] of triples) {
    if (!subject || !object) continue;
    const from = nodeOf(subject, false);
    const to = from === undefined ? undefined : nodeOf(object, true);
    if (from === undefined || to === undefined) {
      left++;
      continue;
    }
    edges.push({ from, to, predicate });
  }
  const placed = layout(
    nodes.length,
    edges.map((e) => [e.from, e.to] as const),
    { width: WIDTH, height },
  );
  const svg = s(
    'svg',
    { viewBox: `0 0 ${WIDTH} ${height}`, class: 'graph', role: 'img', 'aria-label': `graph of ${edges.length} triples` },
    s('defs', {}, s('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 22, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, s('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow-head' }))),
  );
  for (const edge of edges) {
    const a = placed[edge.from]!;
    const b = placed[edge.to]!;
    const predicate = showTerm(edge.predicate, prefixes);
    if (edge.from === edge.to) {
      svg.append(
        s('g', { class: 'edge' }, s('title', {}, predicate.full), s('path', { d: `M ${a.x} ${a.y - 10} c 30 -40 50 0 10 10`, class: 'edge-line', 'marker-end': 'url(#arrow)' })),
      );
      continue;
    }
    svg.append(
      s(
        'g',
        { class: 'edge' },
        s('title', {}, predicate.full),
        s('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: 'edge-line', 'marker-end': 'url(#arrow)' }),
        s('text', { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 - 3, class: 'edge-label', 'text-anchor': 'middle' }, label(predicate.text)),
      ),
    );
  }
  nodes.forEach((node, i) => {
    const p = placed[i]!;
    const shown = showTerm(node.term, prefixes);
    svg.append(
      s(
        'g',
        { class: `node node-${shown.kind}`, ...(node.term.type === 'uri' ? { 'data-iri': node.term.value } : {}) },
        s('title', {}, shown.full),
        node.term.type === 'literal' ? s('rect', { x: p.x - 8, y: p.y - 8, width: 16, height: 16, rx: 3 }) : s('circle', { cx: p.x, cy: p.y, r: 9 }),
        s('text', { x: p.x, y: p.y + 22, 'text-anchor': 'middle', class: 'node-label' }, label(shown.text)),
      ),
    );
  });
  return h(
    'figure',
    { class: 'graph-figure' },
    svg,
    h('figcaption', {}, `${nodes.length} nodes, ${edges.length} triples of this page${left > 0 ? ` (${left} more left out: at most ${MAX_NODES} nodes are drawn)` : ''}`),
  );
}
