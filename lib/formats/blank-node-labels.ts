/**
 * The labels blank nodes get when one input is parsed: a label the input gives (`_:b1`,
 * `rdf:nodeID="b1"`, `"@id": "_:b1"`) is kept, so that it means the same node as in the store;
 * a blank node the input leaves unnamed (`[]`, a list, a nested RDF/XML node, a JSON-LD node
 * object without `@id`) gets a fresh, store-unique label. Within one input a fresh label never
 * coincides with a label the input uses itself, before or after: fresh labels skip the input's
 * labels seen so far, and an input label seen later that equals a fresh label already issued
 * is renamed, consistently, to another fresh one.
 * @module
 */

/** The blank node labels of one input (see the module documentation). */
export class BlankNodeLabels {
  private readonly userLabels = new Set<string>();
  private readonly freshLabels = new Set<string>();
  private readonly renamed = new Map<string, string>();

  /** @param freshBlankNode Makes a store-unique label (the store's counter). */
  constructor(private readonly freshBlankNode: () => string) {}

  /** The store's label of the input's blank node `name` (without `_:`), or of a new unnamed one. */
  label(name?: string): string {
    if (name === undefined) return this.fresh();
    const replacement = this.renamed.get(name);
    if (replacement !== undefined) return replacement;
    if (this.freshLabels.has(name)) {
      const label = this.fresh();
      this.renamed.set(name, label);
      return label;
    }
    this.userLabels.add(name);
    return name;
  }

  private fresh(): string {
    let label = this.freshBlankNode();
    while (this.userLabels.has(label)) label = this.freshBlankNode();
    this.freshLabels.add(label);
    return label;
  }
}
