/**
 * The blank nodes `BNODE()` makes while a query runs: fresh labels that meet no term of the
 * query or the store, and for `BNODE(label)` the same node for the same label within one
 * solution (a solution extended by BIND or a SELECT expression is the same solution and keeps
 * its nodes).
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';

/** Prefix of the labels of blank nodes made by BNODE() (random, so that they do not meet the store's). */
const BNODE_PREFIX = `q${Math.floor(Math.random() * 0x100000).toString(36)}_`;
let bnodeCounter = 0;

/** The BNODE() nodes of one query's solutions. */
export class BlankNodeScopes {
  /** The solution whose expressions are being evaluated (for BNODE(label)). */
  private current: Int32Array | undefined;
  /** BNODE(label) nodes of each solution. */
  private readonly scopes = new WeakMap<Int32Array, Map<string, RDF.BlankNode>>();
  /** Whether some solution has BNODE(label) nodes yet (until then there is nothing to share). */
  private labelled = false;

  /** @param known - whether a blank node is a term of the query or the store already */
  constructor(private readonly known: (node: RDF.BlankNode) => boolean) {}

  /** A blank node no other term of the query or the store has. */
  fresh(): RDF.BlankNode {
    for (;;) {
      const b = DataFactory.blankNode(`${BNODE_PREFIX}${(bnodeCounter++).toString(36)}`);
      if (!this.known(b)) return b;
    }
  }

  /** BNODE(label): the same node for the same label within the current solution, else fresh. */
  forLabel(label?: string): RDF.BlankNode {
    const s = this.current;
    if (label === undefined || s === undefined) return this.fresh();
    let scope = this.scopes.get(s);
    if (!scope) this.scopes.set(s, (scope = new Map<string, RDF.BlankNode>()));
    this.labelled = true;
    let b = scope.get(label);
    if (!b) scope.set(label, (b = this.fresh()));
    return b;
  }

  /** Makes `s` the solution being evaluated; returns the previous one (for {@link BlankNodeScopes.leave}). */
  enter(s: Int32Array): Int32Array | undefined {
    const previous = this.current;
    this.current = s;
    return previous;
  }

  /** Makes `previous` (from {@link BlankNodeScopes.enter}) the solution being evaluated again. */
  leave(previous: Int32Array | undefined): void {
    this.current = previous;
  }

  /** `extended` is `s` with more bindings: it keeps the nodes of `s`. */
  share(s: Int32Array, extended: Int32Array): void {
    if (!this.labelled) return;
    const scope = this.scopes.get(s);
    if (scope) this.scopes.set(extended, scope);
  }
}
