/**
 * Stratification: the dependency graph between predicate nodes, its strongly connected
 * components in topological order (the levels), and the rejection of programs where NOT or
 * AGGREGATE depends on its own component.
 * @module
 */

/** An edge of the dependency graph: the head node depends on the body node. */
export interface DependencyEdge {
  /** The body node. */
  readonly from: string;
  /** The head node. */
  readonly to: string;
  /** Whether the dependency goes through NOT or AGGREGATE. */
  readonly negative: boolean;
  /** A description of the rule that creates the edge (for error messages). */
  readonly rule: string;
}

/** The outcome of stratification. */
export interface Stratification {
  /** Level of each node; nodes in one component share a level; levels start at 1 for derived nodes. */
  readonly levelOf: ReadonlyMap<string, number>;
  /** Number of levels. */
  readonly levels: number;
  /** Whether each level is recursive (its component has a cycle). */
  readonly recursive: readonly boolean[];
}

/** A cycle through negation or aggregation that makes a program unstratifiable. */
export class StratificationCycle {
  /** Creates the description. */
  constructor(
    /** The nodes of the cycle, in order (the first is repeated at the end). */
    readonly nodes: readonly string[],
    /** The rule whose negative dependency closes the cycle. */
    readonly rule: string,
    /**
     * The edges of the cycle, in order: `edges[i]` goes from `nodes[i]` to `nodes[i + 1]`; the
     * last one is the negative edge that closes it.
     */
    readonly edges: readonly DependencyEdge[] = [],
  ) {}
}

/**
 * Computes levels with Tarjan's algorithm from the nodes rules derive (`headNodes`) and the
 * dependency edges; returns a cycle when NOT/AGGREGATE depends on its own component (the cycle
 * of the last such edge, which is the one of the rule added last when edges follow the rules'
 * order).
 */
export function stratify(headNodes: Iterable<string>, edges: readonly DependencyEdge[]): Stratification | StratificationCycle {
  const heads = new Set<string>(headNodes);
  const all = new Set<string>(heads);
  for (const e of edges) {
    all.add(e.from);
    all.add(e.to);
  }
  const out = new Map<string, DependencyEdge[]>();
  for (const n of all) out.set(n, []);
  for (const e of edges) out.get(e.from)!.push(e);

  // Tarjan's SCC (iterative); components come out in reverse topological order
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const root of all) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; i: number }> = [{ node: root, i: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const succ = out.get(frame.node)!;
      if (frame.i < succ.length) {
        const next = succ[frame.i++]!.to;
        if (!index.has(next)) {
          index.set(next, counter);
          low.set(next, counter++);
          stack.push(next);
          onStack.add(next);
          work.push({ node: next, i: 0 });
        } else if (onStack.has(next)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(next)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const comp: string[] = [];
        for (;;) {
          const n = stack.pop()!;
          onStack.delete(n);
          comp.push(n);
          if (n === frame.node) break;
        }
        components.push(comp);
      }
    }
  }
  components.reverse();
  const compOf = new Map<string, number>();
  components.forEach((c, i) => c.forEach((n) => compOf.set(n, i)));
  for (let k = edges.length - 1; k >= 0; k--) {
    const e = edges[k]!;
    if (e.negative && compOf.get(e.from) === compOf.get(e.to)) {
      const path = findCycle(e, out, compOf);
      return new StratificationCycle([e.to, ...path.map((x) => x.to)], e.rule, path);
    }
  }
  // level = 1 + longest path from a source component over components (topological order)
  const hasIncoming = new Set<number>();
  for (const e of edges) if (compOf.get(e.from) !== compOf.get(e.to)) hasIncoming.add(compOf.get(e.to)!);
  const compLevel = new Array<number>(components.length).fill(0);
  const derived = new Set<number>([...heads].map((n) => compOf.get(n)!));
  for (let i = 0; i < components.length; i++) if (derived.has(i)) compLevel[i] = Math.max(compLevel[i]!, 1);
  for (let i = 0; i < components.length; i++) {
    for (const n of components[i]!) {
      for (const e of out.get(n)!) {
        const j = compOf.get(e.to)!;
        if (j !== i) compLevel[j] = Math.max(compLevel[j]!, compLevel[i]! + 1);
      }
    }
  }
  // renumber levels densely, keeping order; level 0 = nodes no rule derives
  const used = [...new Set(compLevel)].sort((a, b) => a - b);
  const dense = new Map(used.map((l, k) => [l, used[0] === 0 ? k : k + 1]));
  const levelOf = new Map<string, number>();
  components.forEach((c, i) => c.forEach((n) => levelOf.set(n, dense.get(compLevel[i]!)!)));
  const levels = Math.max(0, ...levelOf.values());
  const recursive = new Array<boolean>(levels + 1).fill(false);
  for (const e of edges) {
    if (compOf.get(e.from) === compOf.get(e.to)) recursive[levelOf.get(e.to)!] = true;
  }
  return { levelOf, levels, recursive };
}

/**
 * The edges of a cycle through `e` inside one component, starting at `e.to` and ending with `e`
 * (a shortest path from `e.to` back to `e.from`, then `e`).
 */
function findCycle(e: DependencyEdge, out: Map<string, DependencyEdge[]>, compOf: Map<string, number>): DependencyEdge[] {
  const comp = compOf.get(e.from);
  const via = new Map<string, DependencyEdge>();
  const queue = [e.to];
  const seen = new Set([e.to]);
  for (let head = 0; head < queue.length; head++) {
    const n = queue[head]!;
    if (n === e.from) break;
    for (const x of out.get(n)!) {
      if (compOf.get(x.to) === comp && !seen.has(x.to)) {
        seen.add(x.to);
        via.set(x.to, x);
        queue.push(x.to);
      }
    }
  }
  const path: DependencyEdge[] = [];
  for (let n = e.from; n !== e.to; ) {
    const x = via.get(n);
    if (x === undefined) break;
    path.push(x);
    n = x.from;
  }
  path.reverse();
  return [...path, e];
}
