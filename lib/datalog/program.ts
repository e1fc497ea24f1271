/**
 * Compiling rules against a store: tables resolved to ids, constants to term ids, variables
 * to slots, predicate nodes and levels (stratification), and the rule indexes the reasoner
 * uses (rules by level, body atoms by node).
 * @module
 */
import { RuleCompilationError } from '../model/errors.js';
import type { TermDictionary } from '../model/dictionary.js';
import { RDF_NS, termToKey } from '../model/terms.js';
import type { Catalogue } from '../storage/catalogue.js';
import { DEFAULT_TRIPLES, QUADS } from '../storage/fact-store.js';
import type { AggregateLiteral, BodyLiteral, DatalogTerm, Rule, TupleAtom } from './ast.js';
import { checkSafety } from './safety.js';
import { stratify, StratificationCycle, type DependencyEdge } from './stratify.js';

/** An atom with table id, constants as term ids (>= 0) and variables as `-(slot + 1)`. */
export interface CompiledAtom {
  /** The tuple table id. */
  readonly tableId: number;
  /** Per position: a term id (>= 0) or `-(slot + 1)` for a variable. */
  readonly args: Int32Array;
  /** The predicate node of the atom (see {@link nodeOfAtom}). */
  readonly node: string;
}

/** A compiled body literal. */
export type CompiledLiteral =
  | { readonly kind: 'atom'; readonly atom: CompiledAtom; readonly vars: readonly number[] }
  | { readonly kind: 'filter'; readonly source: BodyLiteral & { kind: 'filter' }; readonly vars: readonly number[] }
  | { readonly kind: 'bind'; readonly source: BodyLiteral & { kind: 'bind' }; readonly slot: number; readonly vars: readonly number[] }
  | { readonly kind: 'not'; readonly atoms: readonly CompiledAtom[]; readonly local: readonly number[]; readonly vars: readonly number[] }
  | { readonly kind: 'aggregate'; readonly source: AggregateLiteral; readonly inner: readonly CompiledLiteral[]; readonly groupSlots: readonly number[]; readonly resultSlots: readonly number[]; readonly vars: readonly number[] };

/** A rule ready for evaluation. */
export interface CompiledRule {
  /** The rule's key (its canonical text). */
  readonly key: string;
  /** The source rule. */
  readonly rule: Rule;
  /** Number of variable slots. */
  readonly slotCount: number;
  /** Variable name per slot. */
  readonly slotNames: readonly string[];
  /** Head atoms. */
  readonly heads: readonly CompiledAtom[];
  /** Body literals, in source order. */
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
  /** The level of a predicate node (0 when no rule derives it). */
  levelOfNode(node: string): number;
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
function where(rule: Rule): string {
  return `line ${rule.position.line}: column ${rule.position.column}`;
}

/** Compiles rules for a store state; throws RuleCompilationError (with positions) on the first problem. */
export function compileProgram(entries: ReadonlyArray<{ key: string; rule: Rule }>, catalogue: Catalogue, dictionary: TermDictionary): CompiledProgram {
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

  const edges: DependencyEdge[] = [];
  const headNodes: string[] = [];
  for (const r of compiled) {
    const label = `rule at ${where(r.rule)}`;
    for (const h of r.heads) {
      headNodes.push(h.node);
      const walk = (ls: readonly CompiledLiteral[], negative: boolean): void => {
        for (const l of ls) {
          if (l.kind === 'atom') edges.push({ from: l.atom.node, to: h.node, negative, rule: label });
          else if (l.kind === 'not') for (const a of l.atoms) edges.push({ from: a.node, to: h.node, negative: true, rule: label });
          else if (l.kind === 'aggregate') walk(l.inner, true);
        }
      };
      walk(r.body, false);
    }
  }
  const strata = stratify(headNodes, edges);
  if (strata instanceof StratificationCycle) {
    const names = strata.nodes.map((n) => describeNode(n, dictionary, catalogue)).join(' -> ');
    throw new RuleCompilationError(`the program cannot be stratified: ${strata.rule} makes ${names} depend on itself through NOT or AGGREGATE`);
  }
  for (const r of compiled) r.level = Math.max(...r.heads.map((h) => strata.levelOf.get(h.node) ?? 0));
  return {
    rules: compiled,
    levels: strata.levels,
    levelOfNode: (node) => strata.levelOf.get(node) ?? 0,
    nodeOfFact: nodeCache(triples, quads, rdfType, collapseTriples, collapseQuads),
    tripleTables: { triples, quads },
  };
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

/** A readable name for a predicate node. */
function describeNode(node: string, dictionary: TermDictionary, catalogue: Catalogue): string {
  const m = /^T(\d+)(?:\|(\*|\d+)(?:\|(\d+))?)?$/.exec(node)!;
  const table = [...catalogue.tupleTables.values()].find((t) => t.id === Number(m[1]))?.name ?? `#${m[1]}`;
  if (m[2] === undefined) return table;
  if (m[2] === '*') return `${table}[?s, ?p, ?o]`;
  return `${table}[?s, ${dictionary.keyOf(Number(m[2]))}, ${m[3] !== undefined ? dictionary.keyOf(Number(m[3])) : '?o'}]`;
}

class SlotAllocator {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  slot(name: string): number {
    let s = this.index.get(name);
    if (s === undefined) {
      s = this.names.length;
      this.names.push(name);
      this.index.set(name, s);
    }
    return s;
  }
}

function compileRule(key: string, rule: Rule, catalogue: Catalogue, dictionary: TermDictionary): CompiledRule {
  checkSafety(rule);
  const slots = new SlotAllocator();
  const atom = (a: TupleAtom): CompiledAtom => {
    const info = catalogue.tupleTables.get(a.table);
    if (!info) throw new RuleCompilationError(`line ${a.position.line}: column ${a.position.column}: tuple table '${a.table}' does not exist`);
    if (a.args.length < info.minArity || a.args.length > info.maxArity) {
      throw new RuleCompilationError(`line ${a.position.line}: column ${a.position.column}: tuple table '${a.table}' takes ${info.minArity === info.maxArity ? info.minArity : `${info.minArity} to ${info.maxArity}`} arguments, not ${a.args.length}`);
    }
    const args = new Int32Array(a.args.length);
    a.args.forEach((t: DatalogTerm, i) => {
      args[i] = t.kind === 'var' ? -(slots.slot(t.name) + 1) : dictionary.intern(termToKey(t.term));
    });
    return { tableId: info.id, args, node: '' };
  };
  const varsOfAtom = (a: CompiledAtom): number[] => [...new Set([...a.args].filter((x) => x < 0).map((x) => -x - 1))];
  const exprVars = (vars: readonly string[]): number[] => vars.map((v) => slots.slot(v));
  const literal = (l: BodyLiteral): CompiledLiteral => {
    switch (l.kind) {
      case 'atom': {
        const a = atom(l);
        return { kind: 'atom', atom: a, vars: varsOfAtom(a) };
      }
      case 'filter':
        return { kind: 'filter', source: l, vars: exprVars(expressionVariables(l.expression)) };
      case 'bind':
        return { kind: 'bind', source: l, slot: slots.slot(l.variable), vars: exprVars(expressionVariables(l.expression)) };
      case 'not': {
        const atoms = l.atoms.map(atom);
        const local = l.existentialVariables.map((v) => slots.slot(v));
        const all = [...new Set(atoms.flatMap(varsOfAtom))];
        return { kind: 'not', atoms, local, vars: all.filter((v) => !local.includes(v)) };
      }
      case 'aggregate': {
        const inner = l.body.map((b) => literal(b));
        const groupSlots = l.groupBy.map((v) => slots.slot(v));
        const resultSlots = l.bindings.map((b) => slots.slot(b.variable));
        for (const b of l.bindings) if (b.expression) expressionVariables(b.expression).forEach((v) => slots.slot(v));
        return { kind: 'aggregate', source: l, inner, groupSlots, resultSlots, vars: [...groupSlots, ...resultSlots] };
      }
    }
  };
  const body = rule.body.map(literal);
  const heads = rule.head.map(atom);
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
  const visit = (x: unknown): void => {
    if (x === null || typeof x !== 'object') return;
    if (Array.isArray(x)) {
      x.forEach(visit);
      return;
    }
    const o = x as { termType?: string; value?: string };
    if (o.termType === 'Variable' && typeof o.value === 'string') {
      out.add(o.value);
      return;
    }
    for (const v of Object.values(o)) visit(v);
  };
  visit(expression);
  return [...out];
}
