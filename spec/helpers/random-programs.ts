/**
 * The vocabulary of the random rule programs the property specs generate (incremental
 * maintenance, explanation): relations in layers (a rule's head is in a layer at least that of
 * its body, negated atoms below it), of four kinds — triples in the default graph, triples in
 * a named graph, class atoms and a binary tuple table `T` — and the constants they relate.
 */

/** A relation of the random programs. */
export interface Relation {
  /** Its local name (prefix `:`), or the table name for kind `table`. */
  readonly name: string;
  /** Its layer: rules only read relations of their head's layer or below. */
  readonly layer: number;
  /** How its atoms are written. */
  readonly kind: 'binary' | 'class' | 'graph' | 'table';
}

/** The relations, layer by layer (the first is a binary relation of layer 0). */
export const RELATIONS: readonly [Relation, ...Relation[]] = [
  { name: 'p0', layer: 0, kind: 'binary' },
  { name: 'C0', layer: 0, kind: 'class' },
  { name: 'T', layer: 0, kind: 'table' },
  { name: 'p1', layer: 1, kind: 'binary' },
  { name: 'q1', layer: 1, kind: 'graph' },
  { name: 'C1', layer: 1, kind: 'class' },
  { name: 'p2', layer: 2, kind: 'binary' },
  { name: 'C2', layer: 2, kind: 'class' },
];

/** The constants of the programs' facts. */
export const CONSTANTS = [':a', ':b', ':c', ':d'] as const;

/** An atom over a relation with the given argument terms, in Datalog. */
export function atom(r: Relation, args: readonly string[]): string {
  switch (r.kind) {
    case 'binary':
      return `[${args[0]}, :${r.name}, ${args[1]}]`;
    case 'graph':
      return `[${args[0]}, :${r.name}, ${args[1]}] :g`;
    case 'class':
      return `:${r.name}[${args[0]}]`;
    case 'table':
      return `T(${args[0]}, ${args[1]})`;
  }
}

/** The number of arguments of a relation's atoms. */
export const arity = (r: Relation): number => (r.kind === 'class' ? 1 : 2);
