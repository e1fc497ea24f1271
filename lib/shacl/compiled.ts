/**
 * The shapes of a shapes graph as read once, for validating several states whose shapes graph
 * is the same (successive commits): the shapes, the terms they were read with, and whether the
 * graph holds SPARQL constraints. Whoever keeps one must know that the shapes graph did not
 * change between the states (validation on commit: see lib/server/shacl-commit.ts).
 * @module
 */
import { GraphReader, SHAPES_MASK } from './graph.js';
import { ShapesGraph } from './shapes.js';
import { TermTable } from './terms.js';
import type { ShaclDataSelection } from './types.js';
import { SH } from './vocabulary.js';

/** Terms made after which compiled shapes are not worth keeping (the term table also holds data terms). */
const MAX_TERMS = 100_000;

/** The shapes of one shapes graph, read once and reused across states with the same shapes graph. */
export class CompiledShapes {
  /** The terms the shapes are read with. */
  readonly terms: TermTable;
  /** The shapes (read on demand; the reader is rebound to each state validated). */
  readonly shapes: ShapesGraph;
  private sparql: boolean | undefined;

  /** The shapes of the selection's shapes graph (read from its state until rebound). */
  constructor(readonly selection: ShaclDataSelection) {
    this.terms = new TermTable(selection.dictionary);
    this.shapes = new ShapesGraph(new GraphReader(selection.state, selection.shapesGraph, SHAPES_MASK), this.terms);
  }

  /**
   * Whether these shapes can serve `selection`, assuming its shapes graph holds what it held
   * when they were read: the same dictionary, graphs and fact domain, every vocabulary IRI
   * looked up then still unknown when it was, and not too many terms held.
   */
  fits(selection: ShaclDataSelection): boolean {
    const s = this.selection;
    if (s.dictionary !== selection.dictionary || s.dataGraph !== selection.dataGraph || s.shapesGraph !== selection.shapesGraph || s.factDomain !== selection.factDomain) return false;
    if (this.terms.termCount > MAX_TERMS) return false;
    return this.terms.unknownIris().every((iri) => selection.dictionary.lookup(`<${iri}>`) < 0);
  }

  /** Reads the shapes graph from the selection's state from now on. */
  bind(selection: ShaclDataSelection): void {
    this.shapes.rebind(new GraphReader(selection.state, selection.shapesGraph, SHAPES_MASK));
  }

  /** Whether the shapes graph holds SPARQL constraints or SPARQL-based constraint components. */
  hasSparql(): boolean {
    if (this.sparql === undefined) {
      const g = this.shapes.graph;
      let found = false;
      for (const local of ['sparql', 'parameter']) {
        const p = this.terms.iri(SH + local);
        if (p >= 0) g.forEachWithPredicate(p, () => void (found = true));
      }
      this.sparql = found;
    }
    return this.sparql;
  }
}
