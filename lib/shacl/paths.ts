/**
 * SHACL property paths: reading a path from the shapes graph (a predicate IRI, a list for a
 * sequence, or a blank node with sh:inversePath, sh:alternativePath, sh:zeroOrMorePath,
 * sh:oneOrMorePath or sh:zeroOrOnePath), and the value nodes a path reaches from a focus
 * node in the data graph.
 * @module
 */
import { ShaclShapeError } from './errors.js';
import type { GraphReader } from './graph.js';
import type { TermTable } from './terms.js';
import type { ShaclPath } from './types.js';
import { RDF_FIRST, RDF_NIL, RDF_REST, sh } from './vocabulary.js';

/**
 * The path whose node in the shapes graph is `node`.
 * @throws ShaclShapeError when the node is not a well-formed path.
 */
export function readPath(shapes: GraphReader, terms: TermTable, node: number, depth = 0): ShaclPath {
  if (depth > 64) throw new ShaclShapeError('a property path nests too deeply (or is cyclic)');
  if (terms.isIri(node)) return { kind: 'predicate', predicate: node };
  if (!terms.isBlank(node)) throw new ShaclShapeError(`a property path must be an IRI or a blank node, not ${terms.term(node).value}`);
  const first = terms.iri(RDF_FIRST);
  if (shapes.hasAny(node, first)) {
    const members = shapes.list(node, first, terms.iri(RDF_REST), terms.iri(RDF_NIL));
    if (members === undefined || members.length < 2) throw new ShaclShapeError('a sequence path must be a well-formed list of at least two paths');
    return { kind: 'sequence', paths: members.map((m) => readPath(shapes, terms, m, depth + 1)) };
  }
  const one = (local: string): number | undefined => {
    const values = shapes.objects(node, terms.iri(sh(local)));
    if (values.length > 1) throw new ShaclShapeError(`a path has more than one sh:${local}`);
    return values[0];
  };
  const inverse = one('inversePath');
  if (inverse !== undefined) return { kind: 'inverse', path: readPath(shapes, terms, inverse, depth + 1) };
  const alternative = one('alternativePath');
  if (alternative !== undefined) {
    const members = shapes.list(alternative, first, terms.iri(RDF_REST), terms.iri(RDF_NIL));
    if (members === undefined || members.length < 2) throw new ShaclShapeError('an alternative path must be a well-formed list of at least two paths');
    return { kind: 'alternative', paths: members.map((m) => readPath(shapes, terms, m, depth + 1)) };
  }
  for (const kind of ['zeroOrMore', 'oneOrMore', 'zeroOrOne'] as const) {
    const inner = one(`${kind}Path`);
    if (inner !== undefined) return { kind, path: readPath(shapes, terms, inner, depth + 1) };
  }
  throw new ShaclShapeError('a blank node property path must be a list or have one of sh:inversePath, sh:alternativePath, sh:zeroOrMorePath, sh:oneOrMorePath, sh:zeroOrOnePath');
}

/** The value nodes `path` reaches from `node` in `data` (or, when `inverse`, the nodes that reach `node`). */
export function pathValues(data: GraphReader, path: ShaclPath, node: number, inverse = false): Set<number> {
  const out = new Set<number>();
  addPathValues(data, path, node, inverse, out);
  return out;
}

function addPathValues(data: GraphReader, path: ShaclPath, node: number, inverse: boolean, out: Set<number>): void {
  switch (path.kind) {
    case 'predicate':
      for (const v of inverse ? data.subjects(path.predicate, node) : data.objects(node, path.predicate)) out.add(v);
      return;
    case 'inverse':
      addPathValues(data, path.path, node, !inverse, out);
      return;
    case 'alternative':
      for (const p of path.paths) addPathValues(data, p, node, inverse, out);
      return;
    case 'sequence': {
      let current = new Set<number>([node]);
      const steps = inverse ? [...path.paths].reverse() : path.paths;
      for (const step of steps) {
        const next = new Set<number>();
        for (const n of current) addPathValues(data, step, n, inverse, next);
        current = next;
        if (current.size === 0) break;
      }
      for (const v of current) out.add(v);
      return;
    }
    case 'zeroOrOne':
      out.add(node);
      addPathValues(data, path.path, node, inverse, out);
      return;
    case 'zeroOrMore':
    case 'oneOrMore': {
      const reached = new Set<number>();
      if (path.kind === 'zeroOrMore') out.add(node);
      let frontier = [node];
      while (frontier.length > 0) {
        const next: number[] = [];
        for (const n of frontier) {
          const step = new Set<number>();
          addPathValues(data, path.path, n, inverse, step);
          for (const v of step) {
            if (reached.has(v)) continue;
            reached.add(v);
            out.add(v);
            next.push(v);
          }
        }
        frontier = next;
      }
      return;
    }
  }
}
