/**
 * Compiling rules against a store: tables resolved to ids, constants to term ids, variables
 * to slots (NOT EXISTS and AGGREGATE with their own scopes), predicate nodes, levels
 * (stratification), and the rule indexes the reasoner uses (rules by level, body atoms by node).
 *
 * Stratification follows RDFox. Each atom gives a pattern: its tuple table and arguments with
 * every variable replaced by ANY. A rule makes its head patterns depend on its body patterns,
 * through a special edge for the atoms under NOT or inside an AGGREGATE; two patterns that
 * unify (they agree wherever both have a constant) depend on each other both ways. A program
 * is rejected when a special edge lies on a cycle; otherwise the strongly connected components,
 * in topological order, are the levels. A fact's level is that of the head patterns it matches
 * (0 when it matches none: no rule derives it).
 *
 * Predicate nodes are coarser than patterns: they partition facts for the semi-naive
 * propagation (every fact an atom matches is in the atom's node), by table, predicate and, for
 * `rdf:type`, class, widened when some atom has a variable there.
 * @module
 */
import { RuleCompilationError } from '../model/errors.js';
import type { TermDictionary } from '../model/dictionary.js';
import { RDF_NS, termToKey } from '../model/terms.js';
import { SKOLEM_TABLE } from '../model/skolem.js';
import { BUILTIN_TABLE_TYPE, type Catalogue, DATA_SOURCE_TABLE_TYPE } from '../storage/catalogue.js';
import { DEFAULT_TRIPLES, QUADS } from '../storage/fact-store.js';
import { aggregateArguments, type AggregateBinding, type AggregateLiteral, type AtomTerm, type BodyLiteral, type Rule, type SourcePosition, type TupleAtom } from './ast.js';
import { forEachVariable, inTermOrder } from '../expressions/index.js';
import { checkSafety } from './safety.js';
import { type CompiledSkolem, isSkolemAtom } from './skolem.js';
import { atomTermText, type CompiledTripleTerm } from './triple-term-patterns.js';
import { stratify, StratificationCycle, type DependencyEdge } from './stratify.js';

/** An atom with table id, constants as term ids (>= 0) and variables as `-(slot + 1)`. */
export interface CompiledAtom {
  /** The tuple table id. */
  readonly tableId: number;
  /** Per position: a term id (>= 0) or `-(slot + 1)` for a variable. */
  readonly args: Int32Array;
  /** The predicate node of the atom (the partition of facts its matches lie in). */
  readonly node: string;
  /** The level of the atom's pattern (see the module documentation); set by {@link compileProgram}. */
  readonly level: number;
}

/** Where each variable of an expression is: variable name (without `?`) → slot. */
export type VariableScope = ReadonlyMap<string, number>;

/**
 * A compiled body literal. The `source` of a FILTER, BIND or AGGREGATE is the rule's literal with
 * its expressions comparing as RDFox's rules compare (`inTermOrder`: any two terms are equal or
 * not and are ordered, IRIs included), the form the evaluator compiles; the rule itself keeps
 * the expressions as written.
 */
export type CompiledLiteral =
  | { readonly kind: 'atom'; readonly atom: CompiledAtom; readonly vars: readonly number[] }
  // an atom over the built-in SKOLEM table: a function of its leading arguments (skolem.ts)
  | CompiledSkolem
  // a triple term pattern of an atom: the triple term and its parts (triple-term-patterns.ts)
  | CompiledTripleTerm
  | { readonly kind: 'filter'; readonly source: BodyLiteral & { kind: 'filter' }; readonly scope: VariableScope; readonly vars: readonly number[] }
  | { readonly kind: 'bind'; readonly source: BodyLiteral & { kind: 'bind' }; readonly scope: VariableScope; readonly slot: number; readonly vars: readonly number[] }
  | {
      readonly kind: 'not';
      readonly atoms: readonly CompiledAtom[];
      /** The triple term patterns of the negated atoms (their slots are among `local`). */
      readonly patterns: readonly CompiledTripleTerm[];
      readonly local: readonly number[];
      readonly vars: readonly number[];
    }
  | {
      readonly kind: 'aggregate';
      readonly source: AggregateLiteral;
      readonly inner: readonly CompiledLiteral[];
      /** The slots of the variables of the aggregated expressions (the aggregate's own scope). */
      readonly scope: VariableScope;
      readonly groupSlots: readonly number[];
      readonly resultSlots: readonly number[];
      readonly vars: readonly number[];
    };

/** A rule ready for evaluation. */
export interface CompiledRule {
  /** The rule's key (its canonical text). */
  readonly key: string;
  /** The source rule. */
  readonly rule: Rule;
  /** Number of variable slots. */
  readonly slotCount: number;
  /** Variable name per slot (a name occurs more than once when NOT EXISTS or AGGREGATE has its own variable of that name). */
  readonly slotNames: readonly string[];
  /** Head atoms. */
  readonly heads: readonly CompiledAtom[];
  /**
   * Body literals, in source order (the literal at index i is the rule's body literal i), then
   * the triple term patterns of the body's positive atoms and of the heads.
   */
  readonly body: readonly CompiledLiteral[];
  /** The level of the rule (the level of its head nodes). */
  level: number;
  /** Whether the body has NOT or AGGREGATE. */
  readonly nonMonotonic: boolean;
  /** Whether the body has AGGREGATE. */
  readonly aggregates: boolean;
}

/** A compiled program: rules with levels and indexes. */
export interface CompiledProgram {
  /** All rules. */
  readonly rules: readonly CompiledRule[];
  /** Number of levels (rules have levels 1..levels). */
  readonly levels: number;
  /** The levels of the facts of a predicate node that some rule derives (empty when no rule derives any). */
  levelsOfNode(node: string): readonly number[];
  /**
   * The level of the fact at `row` of `table`: that of the head patterns it matches, 0 when it
   * matches none. `node` is the fact's node.
   */
  levelOfFact(node: string, table: { get(row: number, column: number): number }, row: number): number;
  /** The node a fact belongs to, given its predicate and object term ids (ignored for other tables). */
  nodeOfFact(tableId: number, predicate: number, object: number): string;
  /** Ids of the DefaultTriples and Quads tables. */
  readonly tripleTables: { readonly triples: number; readonly quads: number };
}

/**
 * The predicate node of a triple or quad with predicate `p` and object `o` (term ids, or -1
 * for variables): `T<id>|*` for any predicate, `T<id>|<p>` for one predicate, and for
 * rdf:type with a constant class `T<id>|<p>|<o>`; `collapse` widens to the coarser nodes
 * when some atom of the program has a variable there.
 */
function tripleNode(tableId: number, p: number, o: number, rdfType: number, collapse: { predicate: boolean; type: boolean }): string {
  if (p < 0 || collapse.predicate) return `T${tableId}|*`;
  if (p === rdfType && o >= 0 && !collapse.type) return `T${tableId}|${p}|${o}`;
  return `T${tableId}|${p}`;
}

/** Describes a rule position for error messages. */
function where(position: SourcePosition): string {
  return `line ${position.line}: column ${position.column}`;
}

/** A pattern: a table and, per position, a term id or -1 for ANY. */
interface Pattern {
  readonly tableId: number;
  readonly args: Int32Array;
}

/** The key of an atom's pattern. */
function patternKey(atom: CompiledAtom): string {
  let k = `${atom.tableId}`;
  for (const a of atom.args) k += a >= 0 ? `,${a}` : ',*';
  return k;
}

/** Union-find over pattern indexes. */
class Classes {
  private readonly parent: number[] = [];
  add(): number {
    this.parent.push(this.parent.length);
    return this.parent.length - 1;
  }
  find(i: number): number {
    let r = i;
    while (this.parent[r] !== r) r = this.parent[r]!;
    while (this.parent[i] !== r) {
      const next = this.parent[i]!;
      this.parent[i] = r;
      i = next;
    }
    return r;
  }
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
}

/**
 * Puts every two patterns of one table that unify in one class. Two patterns unify when they
 * agree on the positions where both have a constant: for each two sets of constant positions,
 * the patterns are bucketed by their constants on the positions the sets share, and a bucket
 * with patterns of both sets is one class.
 */
function unifyPatterns(patterns: readonly Pattern[], indexes: readonly number[], classes: Classes): void {
  const byMask = new Map<string, { positions: number[]; members: number[] }>();
  for (const i of indexes) {
    const args = patterns[i]!.args;
    const positions: number[] = [];
    for (let c = 0; c < args.length; c++) if (args[c]! >= 0) positions.push(c);
    const mask = `${args.length}:${positions.join(',')}`;
    let group = byMask.get(mask);
    if (!group) byMask.set(mask, (group = { positions, members: [] }));
    group.members.push(i);
  }
  const groups = [...byMask.values()];
  for (let g = 0; g < groups.length; g++) {
    for (let h = g + 1; h < groups.length; h++) {
      const x = groups[g]!;
      const y = groups[h]!;
      if (patterns[x.members[0]!]!.args.length !== patterns[y.members[0]!]!.args.length) continue;
      const shared = x.positions.filter((c) => y.positions.includes(c));
      const project = (i: number): string => shared.map((c) => patterns[i]!.args[c]).join(',');
      const buckets = new Map<string, { x: number[]; y: number[] }>();
      for (const i of x.members) {
        const k = project(i);
        let b = buckets.get(k);
        if (!b) buckets.set(k, (b = { x: [], y: [] }));
        b.x.push(i);
      }
      for (const i of y.members) buckets.get(project(i))?.y.push(i);
      for (const b of buckets.values()) {
        if (b.y.length === 0) continue;
        for (const i of b.x) classes.union(i, b.y[0]!);
        for (const i of b.y) classes.union(i, b.y[0]!);
      }
    }
  }
}

/** What a dependency edge stands for, to describe a cycle. */
interface EdgeInfo {
  /** The body atom's pattern index. */
  readonly body: number;
  /** The head atom's pattern index. */
  readonly head: number;
  /** The rule. */
  readonly rule: Rule;
  /** The rule as a message names it: by its position when it is new, else by its text. */
  readonly name: string;
  /** NOT or AGGREGATE for special edges. */
  readonly through: 'NOT' | 'AGGREGATE' | undefined;
  /** The position of the NOT or AGGREGATE (special edges). */
  readonly position: SourcePosition | undefined;
}

/** Options of {@link compileProgram}. */
export interface CompileOptions {
  /**
   * Which rules are being added (by key): messages name them by their position in the text
   * being imported, and the others by their text. All rules count as new when absent.
   */
  readonly isNew?: (key: string) => boolean;
}

/** An aggregate binding whose argument expressions compare in RDFox's order of terms (see {@link CompiledLiteral}). */
function bindingInTermOrder(b: AggregateBinding): AggregateBinding {
  const expression = b.expression === undefined ? undefined : inTermOrder(b.expression);
  return b.expressions === undefined ? { ...b, expression } : { ...b, expression, expressions: b.expressions.map(inTermOrder) };
}

/** Compiles rules for a store state; throws RuleCompilationError (with positions) on the first problem. */
export function compileProgram(entries: ReadonlyArray<{ key: string; rule: Rule }>, catalogue: Catalogue, dictionary: TermDictionary, options: CompileOptions = {}): CompiledProgram {
  const tables = catalogue.tupleTables;
  const triples = tables.get(DEFAULT_TRIPLES)!.id;
  const quads = tables.get(QUADS)!.id;
  const rdfType = dictionary.intern(`<${RDF_NS}type>`);
  const compiled: CompiledRule[] = [];
  for (const { key, rule } of entries) compiled.push(compileRule(key, rule, catalogue, dictionary));

  // widen triple nodes when a variable predicate (or class) occurs anywhere
  const collapseTriples = { predicate: false, type: false };
  const collapseQuads = { predicate: false, type: false };
  const visitAtoms = (r: CompiledRule, f: (a: CompiledAtom) => void): void => {
    r.heads.forEach(f);
    const walk = (ls: readonly CompiledLiteral[]): void => {
      for (const l of ls) {
        if (l.kind === 'atom') f(l.atom);
        else if (l.kind === 'not') l.atoms.forEach(f);
        else if (l.kind === 'aggregate') walk(l.inner);
      }
    };
    walk(r.body);
  };
  for (const r of compiled) {
    visitAtoms(r, (a) => {
      const c = a.tableId === triples ? collapseTriples : a.tableId === quads ? collapseQuads : undefined;
      if (!c) return;
      if (a.args[1]! < 0) c.predicate = true;
      if (a.args[1] === rdfType && a.args[2]! < 0) c.type = true;
    });
  }
  const nodeOf = (a: CompiledAtom): string => {
    if (a.tableId === triples) return tripleNode(triples, a.args[1]!, a.args[2]!, rdfType, collapseTriples);
    if (a.tableId === quads) return tripleNode(quads, a.args[1]!, a.args[2]!, rdfType, collapseQuads);
    return `T${a.tableId}`;
  };
  for (const r of compiled) visitAtoms(r, (a) => ((a as { node: string }).node = nodeOf(a)));

  // the patterns, and their classes of unifying patterns
  const patterns: Pattern[] = [];
  const patternIndex = new Map<string, number>();
  const classes = new Classes();
  const patternOf = (a: CompiledAtom): number => {
    const k = patternKey(a);
    let i = patternIndex.get(k);
    if (i === undefined) {
      i = classes.add();
      patterns.push({ tableId: a.tableId, args: a.args.map((x) => (x >= 0 ? x : -1)) });
      patternIndex.set(k, i);
    }
    return i;
  };
  for (const r of compiled) visitAtoms(r, patternOf);
  const byTable = new Map<number, number[]>();
  patterns.forEach((p, i) => {
    let list = byTable.get(p.tableId);
    if (!list) byTable.set(p.tableId, (list = []));
    list.push(i);
  });
  for (const indexes of byTable.values()) unifyPatterns(patterns, indexes, classes);
  const classOf = (a: CompiledAtom): string => `c${classes.find(patternOf(a))}`;

  const edges: DependencyEdge[] = [];
  const info = new Map<DependencyEdge, EdgeInfo>();
  const headNodes: string[] = [];
  for (const r of compiled) {
    const label = `rule at ${where(r.rule.position)}`;
    for (const h of r.heads) {
      const to = classOf(h);
      headNodes.push(to);
      const edge = (a: CompiledAtom, through: EdgeInfo['through'], position: SourcePosition | undefined): void => {
        const e: DependencyEdge = { from: classOf(a), to, negative: through !== undefined, rule: label };
        edges.push(e);
        const name = options.isNew === undefined || options.isNew(r.key) ? `rule at ${where(r.rule.position)}` : `rule ${r.key}`;
        info.set(e, { body: patternOf(a), head: patternOf(h), rule: r.rule, name, through, position });
      };
      r.body.forEach((l, i) => {
        const source = r.rule.body[i]!;
        if (l.kind === 'atom') edge(l.atom, undefined, undefined);
        else if (l.kind === 'not') for (const a of l.atoms) edge(a, 'NOT', source.position);
        else if (l.kind === 'aggregate') {
          const walk = (ls: readonly CompiledLiteral[]): void => {
            for (const x of ls) if (x.kind === 'atom') edge(x.atom, 'AGGREGATE', source.position);
          };
          walk(l.inner);
        }
      });
    }
  }
  const strata = stratify(headNodes, edges);
  if (strata instanceof StratificationCycle) throw new RuleCompilationError(describeCycle(strata, info, patterns, dictionary, catalogue));
  const levelOfPattern = (i: number): number => strata.levelOf.get(`c${classes.find(i)}`) ?? 0;
  for (const r of compiled) {
    visitAtoms(r, (a) => ((a as { level: number }).level = levelOfPattern(patternOf(a))));
    r.level = Math.max(...r.heads.map((h) => h.level));
  }

  // the head patterns of each node, to find the level of a fact
  const headPatterns = new Map<string, { general: boolean; level: number; patterns: Array<{ args: Int32Array; level: number }> }>();
  const seen = new Set<number>();
  for (const r of compiled) {
    for (const h of r.heads) {
      const i = patternOf(h);
      if (seen.has(i)) continue;
      seen.add(i);
      let entry = headPatterns.get(h.node);
      if (!entry) headPatterns.set(h.node, (entry = { general: false, level: h.level, patterns: [] }));
      entry.patterns.push({ args: patterns[i]!.args, level: h.level });
      if (generalInNode(h, triples, quads, rdfType, h.tableId === triples ? collapseTriples : collapseQuads)) entry.general = true;
    }
  }
  const levelsOfNode = new Map<string, number[]>();
  for (const [node, entry] of headPatterns) levelsOfNode.set(node, [...new Set(entry.patterns.map((p) => p.level))]);
  return {
    rules: compiled,
    levels: strata.levels,
    levelsOfNode: (node) => levelsOfNode.get(node) ?? [],
    levelOfFact: (node, table, row) => {
      const entry = headPatterns.get(node);
      if (!entry) return 0;
      // a head pattern that matches every fact of the node unifies with all the others there
      if (entry.general) return entry.level;
      for (const p of entry.patterns) {
        let match = true;
        for (let c = 0; c < p.args.length && match; c++) if (p.args[c]! >= 0 && p.args[c] !== table.get(row, c)) match = false;
        if (match) return p.level;
      }
      return 0;
    },
    nodeOfFact: nodeCache(triples, quads, rdfType, collapseTriples, collapseQuads),
    tripleTables: { triples, quads },
  };
}

/** Whether a head atom matches every fact of its node (its constants are only those the node is defined by). */
function generalInNode(atom: CompiledAtom, triples: number, quads: number, rdfType: number, collapse: { predicate: boolean; type: boolean }): boolean {
  const args = atom.args;
  for (let c = 0; c < args.length; c++) {
    if (args[c]! < 0) continue;
    if (atom.tableId !== triples && atom.tableId !== quads) return false;
    if (c === 1 && !collapse.predicate) continue;
    if (c === 2 && args[1] === rdfType && !collapse.predicate && !collapse.type) continue;
    return false;
  }
  return true;
}

/** Whether two patterns unify: same table and arity, and the same constant wherever both have one. */
function unify(p: Pattern, q: Pattern): boolean {
  if (p.tableId !== q.tableId || p.args.length !== q.args.length) return false;
  for (let c = 0; c < p.args.length; c++) if (p.args[c]! >= 0 && q.args[c]! >= 0 && p.args[c] !== q.args[c]) return false;
  return true;
}

/** A pattern as text: `[ANY, <p>, ANY]`, `[ANY, <p>, ANY] <g>` or `Table(ANY, …)`. */
function describePattern(p: Pattern, dictionary: TermDictionary, catalogue: Catalogue): string {
  const terms = [...p.args].map((a) => (a >= 0 ? dictionary.keyOf(a) : 'ANY'));
  const table = [...catalogue.tupleTables.values()].find((t) => t.id === p.tableId)?.name ?? `#${p.tableId}`;
  if (table === DEFAULT_TRIPLES && terms.length === 3) return `[${terms.join(', ')}]`;
  if (table === QUADS && terms.length === 4) return `[${terms.slice(0, 3).join(', ')}] ${terms[3]!}`;
  return `${table}(${terms.join(', ')})`;
}

/**
 * The message of an unstratifiable program, at the position of the NOT or AGGREGATE that
 * closes the cycle: the chain of patterns, each depending on the next (through which rule, and
 * whether through NOT or AGGREGATE), back to the first.
 */
function describeCycle(cycle: StratificationCycle, info: ReadonlyMap<DependencyEdge, EdgeInfo>, patterns: readonly Pattern[], dictionary: TermDictionary, catalogue: Catalogue): string {
  const edges = [...cycle.edges].reverse().map((e) => info.get(e)!);
  const closing = edges[0]!;
  const text = (i: number): string => describePattern(patterns[i]!, dictionary, catalogue);
  // from one pattern to another of its class, through patterns that unify one with the next
  const unifying = (from: number, to: number): string => {
    const via = new Map<number, number>([[from, from]]);
    const queue = [from];
    for (let k = 0; k < queue.length && !via.has(to); k++) {
      const p = queue[k]!;
      patterns.forEach((q, i) => {
        if (!via.has(i) && unify(patterns[p]!, q)) {
          via.set(i, p);
          queue.push(i);
        }
      });
    }
    const steps: number[] = [];
    for (let i = to; i !== from && via.has(i); i = via.get(i)!) steps.unshift(i);
    return steps.map((i) => `, which unifies with ${text(i)}`).join('');
  };
  let chain = text(closing.head);
  let last = closing.head;
  for (const e of edges) {
    if (e.head !== last) chain += `${unifying(last, e.head)},`;
    chain += ` ${e === closing ? 'depends' : 'which depends'}${e.through ? ` through ${e.through}` : ''} on ${text(e.body)} (${e.name})`;
    if (e !== edges.at(-1)) chain += ',';
    last = e.body;
  }
  if (last !== closing.head) chain += unifying(last, closing.head);
  const at = closing.position ?? closing.rule.position;
  return `${where(at)}: the program cannot be stratified: ${closing.through ?? 'NOT'} in the ${closing.name} is on a cycle of dependencies: ${chain}`;
}

/** A node lookup for facts that caches nodes by the only term ids that matter. */
function nodeCache(
  triples: number,
  quads: number,
  rdfType: number,
  collapseTriples: { predicate: boolean; type: boolean },
  collapseQuads: { predicate: boolean; type: boolean },
): (tableId: number, predicate: number, object: number) => string {
  const caches = new Map<number, Map<number, string>>();
  const other = new Map<number, string>();
  return (tableId, predicate, object) => {
    if (tableId !== triples && tableId !== quads) {
      let n = other.get(tableId);
      if (n === undefined) other.set(tableId, (n = `T${tableId}`));
      return n;
    }
    const collapse = tableId === triples ? collapseTriples : collapseQuads;
    if (collapse.predicate) return `T${tableId}|*`;
    const byClass = predicate === rdfType && !collapse.type;
    const k = byClass ? -object - 1 : predicate;
    const key = tableId * 2 + (byClass ? 1 : 0);
    let cache = caches.get(key);
    if (!cache) caches.set(key, (cache = new Map<number, string>()));
    let n = cache.get(k);
    if (n === undefined) cache.set(k, (n = tripleNode(tableId, predicate, object, rdfType, collapse)));
    return n;
  };
}

/** Slots by variable name for the rule's scope; fresh slots for the variables local to NOT EXISTS and AGGREGATE. */
class SlotAllocator {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  /** The slot of a variable of the rule's scope. */
  slot(name: string): number {
    let s = this.index.get(name);
    if (s === undefined) {
      s = this.fresh(name);
      this.index.set(name, s);
    }
    return s;
  }
  /** A new slot, for a variable of an inner scope. */
  fresh(name: string): number {
    this.names.push(name);
    return this.names.length - 1;
  }
}

/** Gives the slot of a variable, by name, in one scope. */
type Resolve = (name: string) => number;

function compileRule(key: string, rule: Rule, catalogue: Catalogue, dictionary: TermDictionary): CompiledRule {
  checkSafety(rule);
  const slots = new SlotAllocator();
  const top: Resolve = (name) => slots.slot(name);
  // the triple term patterns of the atoms compiled into `patterns` (see triple-term-patterns.ts)
  let patterns: CompiledTripleTerm[] = [];
  let build = false;
  const argument = (t: AtomTerm, resolve: Resolve, fresh: (name: string) => number): number => {
    if (t.kind === 'var') return -(resolve(t.name) + 1);
    if (t.kind === 'const') return dictionary.intern(termToKey(t.term));
    const args = new Int32Array(4);
    args[0] = argument(t.subject, resolve, fresh);
    args[1] = argument(t.predicate, resolve, fresh);
    args[2] = argument(t.object, resolve, fresh);
    args[3] = -(fresh(atomTermText(t)) + 1);
    const vars = [...new Set([...args].filter((x) => x < 0).map((x) => -x - 1))];
    patterns.push({ kind: 'tripleTerm', args, build, vars });
    return args[3];
  };
  const atom = (a: TupleAtom, resolve: Resolve, fresh: (name: string) => number = (name) => slots.fresh(name)): CompiledAtom => {
    const info = catalogue.tupleTables.get(a.table);
    if (!info) throw new RuleCompilationError(`line ${a.position.line}: column ${a.position.column}: tuple table '${a.table}' does not exist`);
    // (SKOLEM atoms are compiled apart, skolem.ts); the other built-in tables (SHACL's) are computed for a query's evaluation only
    if (info.type === BUILTIN_TABLE_TYPE && info.name !== SKOLEM_TABLE) throw new RuleCompilationError(`line ${a.position.line}: column ${a.position.column}: tuple table '${a.table}' is a built-in table that queries compute when they read it: as in RDFox, rules cannot read or write it (read it in a query, an update or the commit procedure)`);
    if (a.args.length < info.minArity || a.args.length > info.maxArity) {
      throw new RuleCompilationError(`line ${a.position.line}: column ${a.position.column}: tuple table '${a.table}' takes ${info.minArity === info.maxArity ? info.minArity : `${info.minArity} to ${info.maxArity}`} arguments, not ${a.args.length}`);
    }
    const args = new Int32Array(a.args.length);
    a.args.forEach((t, i) => {
      args[i] = argument(t, resolve, fresh);
    });
    return { tableId: info.id, args, node: '', level: 0 };
  };
  const varsOfAtom = (a: CompiledAtom): number[] => [...new Set([...a.args].filter((x) => x < 0).map((x) => -x - 1))];
  const scopeOf = (names: readonly string[], resolve: Resolve): VariableScope => new Map(names.map((v) => [v, resolve(v)]));
  const literal = (l: BodyLiteral, resolve: Resolve): CompiledLiteral => {
    switch (l.kind) {
      case 'atom': {
        const a = atom(l, resolve);
        if (isSkolemAtom(l)) return { kind: 'skolem', args: a.args, vars: varsOfAtom(a) };
        return { kind: 'atom', atom: a, vars: varsOfAtom(a) };
      }
      case 'filter': {
        const scope = scopeOf(expressionVariables(l.expression), resolve);
        return { kind: 'filter', source: { ...l, expression: inTermOrder(l.expression) }, scope, vars: [...scope.values()] };
      }
      case 'bind': {
        const scope = scopeOf(expressionVariables(l.expression), resolve);
        return { kind: 'bind', source: { ...l, expression: inTermOrder(l.expression) }, scope, slot: resolve(l.variable), vars: [...scope.values()] };
      }
      case 'not': {
        // the variables after NOT EXISTS are the negation's own
        const own = new Map(l.existentialVariables.map((v) => [v, slots.fresh(v)]));
        const inner: Resolve = (name) => own.get(name) ?? resolve(name);
        // the slots of the negation's triple term patterns are its own too
        const outer = patterns;
        patterns = [];
        const hidden: number[] = [];
        const atoms = l.atoms.map((a) => atom(a, inner, (name) => hidden[hidden.push(slots.fresh(name)) - 1]!));
        const negated = patterns;
        patterns = outer;
        const local = [...own.values(), ...hidden];
        const all = [...new Set([...atoms.flatMap(varsOfAtom), ...negated.flatMap((p) => p.vars)])];
        return { kind: 'not', atoms, patterns: negated, local, vars: all.filter((v) => !local.includes(v)) };
      }
      case 'aggregate': {
        // every variable inside an AGGREGATE but its group variables is the aggregate's own
        const groups = new Set(l.groupBy);
        const own = new Map<string, number>();
        const inner: Resolve = (name) => {
          if (groups.has(name)) return resolve(name);
          let s = own.get(name);
          if (s === undefined) own.set(name, (s = slots.fresh(name)));
          return s;
        };
        // the aggregate's triple term patterns are evaluated inside it
        const outer = patterns;
        patterns = [];
        const body: CompiledLiteral[] = l.body.map((b) => literal(b, inner));
        body.push(...patterns);
        patterns = outer;
        const groupSlots = l.groupBy.map((v) => resolve(v));
        const resultSlots = l.bindings.map((b) => resolve(b.variable));
        const scope = scopeOf([...new Set(l.bindings.flatMap((b) => aggregateArguments(b).flatMap(expressionVariables)))], inner);
        return { kind: 'aggregate', source: { ...l, bindings: l.bindings.map(bindingInTermOrder) }, inner: body, scope, groupSlots, resultSlots, vars: [...groupSlots, ...resultSlots] };
      }
    }
  };
  const body: CompiledLiteral[] = rule.body.map((l) => literal(l, top));
  for (const h of rule.head) {
    // a table mounted on a data source is read from the source: nothing can be derived into it
    if (catalogue.tupleTables.get(h.table)?.type === DATA_SOURCE_TABLE_TYPE) {
      throw new RuleCompilationError(`line ${h.position.line}: column ${h.position.column}: tuple table '${h.table}' is mounted on a data source and cannot be used in a rule head`);
    }
  }
  build = true;
  const heads = rule.head.map((h) => atom(h, top));
  body.push(...patterns);
  return {
    key,
    rule,
    slotCount: slots.names.length,
    slotNames: slots.names,
    heads,
    body,
    level: 0,
    nonMonotonic: body.some((l) => l.kind === 'not' || l.kind === 'aggregate'),
    aggregates: body.some((l) => l.kind === 'aggregate'),
  };
}

/** Variables (without `?`) mentioned in an expression, including inside EXISTS patterns. */
export function expressionVariables(expression: unknown): string[] {
  const out = new Set<string>();
  forEachVariable(expression, (name) => out.add(name));
  return [...out];
}
