/**
 * SHACL-SPARQL: sh:sparql constraints (SELECT) and SPARQL-based constraint components (ASK
 * and SELECT validators), evaluated by quadlog's SPARQL engine over the data graph (the
 * query's default graph; the shapes graph, when it is a named graph, is a named graph of the
 * dataset). `$this`, `$value`, `$currentShape`, `$shapesGraph` and the parameters are
 * pre-bound: put into the query's algebra as terms (`bound()` of them is true); `$PATH` is
 * replaced in the text by the shape's path. Queries are compiled once per text. A query SHACL
 * does not allow (MINUS, VALUES, SERVICE, a subquery that does not return `$this`, a
 * pre-bound variable given a value by the query) fails validation with ShaclShapeError.
 * Loaded by validate() only when the shapes graph has SPARQL constraints.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import { Algebra } from '../expressions/sparql-libraries.js';
import { forEachVariable } from '../expressions/variables.js';
import { Interrupter } from '../model/control.js';
import { QuadlogError } from '../model/errors.js';
import { termToKey } from '../model/terms.js';
import { bindParameters } from '../sparql/bound-parameters.js';
import { StoreQuadSource, type DatasetGraphs } from '../sparql/dataset.js';
import { Engine } from '../sparql/engine.js';
import { compileQuery } from '../sparql/parse.js';
import { DEFAULT_GRAPH } from '../sparql/quad-source.js';
import { QueryTerms } from '../sparql/query-terms.js';
import { factDomainMask } from '../storage/tuple-table.js';
import { ShaclShapeError } from './errors.js';
import type { Constraint, Shape, SparqlText } from './shapes.js';
import type { ShaclDataSelection, ShaclPath, ShaclResult } from './types.js';
import type { SparqlConstraints, Validation } from './validator.js';

type Op = Algebra.Operation;

/** The variables SHACL pre-binds besides the parameters of a component. */
const PRE_BOUND = ['this', 'value', 'currentShape', 'shapesGraph'];

/** A path in SPARQL's property path syntax. */
function pathText(path: ShaclPath, terms: Validation['terms']): string {
  switch (path.kind) {
    case 'predicate':
      return `<${terms.term(path.predicate).value}>`;
    case 'inverse':
      return `^(${pathText(path.path, terms)})`;
    case 'sequence':
      return `(${path.paths.map((p) => pathText(p, terms)).join('/')})`;
    case 'alternative':
      return `(${path.paths.map((p) => pathText(p, terms)).join('|')})`;
    case 'zeroOrMore':
      return `(${pathText(path.path, terms)})*`;
    case 'oneOrMore':
      return `(${pathText(path.path, terms)})+`;
    case 'zeroOrOne':
      return `(${pathText(path.path, terms)})?`;
  }
}

/** Refuses what SHACL does not allow in a query with pre-bound variables. */
function checkAllowed(op: Op, preBound: ReadonlySet<string>): void {
  const walk = (x: unknown, top: boolean): void => {
    if (x === null || typeof x !== 'object') return;
    if (Array.isArray(x)) {
      for (const item of x) walk(item, top);
      return;
    }
    const node = x as { type?: unknown; variable?: RDF.Variable; variables?: RDF.Variable[]; input?: unknown };
    switch (node.type) {
      case Algebra.types.MINUS:
        throw new ShaclShapeError('a SHACL-SPARQL query may not use MINUS');
      case Algebra.types.VALUES:
        throw new ShaclShapeError('a SHACL-SPARQL query may not use VALUES');
      case Algebra.types.SERVICE:
        throw new ShaclShapeError('a SHACL-SPARQL query may not use SERVICE');
      case Algebra.types.EXTEND:
        if (node.variable !== undefined && preBound.has(node.variable.value)) throw new ShaclShapeError(`a SHACL-SPARQL query may not give the pre-bound variable $${node.variable.value} a value`);
        break;
      case Algebra.types.PROJECT:
        if (!top && !(node.variables ?? []).some((v) => v.value === 'this')) throw new ShaclShapeError('a subquery of a SHACL-SPARQL query must return $this');
        walk(node.input, false);
        return;
      default:
        break;
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'type' && typeof value === 'object') walk(value, top);
  };
  // the outermost projection (under DISTINCT, ORDER BY, slices…) is the query's own
  let op0: Op = op;
  while (op0.type !== Algebra.types.PROJECT && op0.type !== Algebra.types.ASK && 'input' in op0 && !Array.isArray(op0.input)) op0 = op0.input as Op;
  const outer = op0.type === Algebra.types.PROJECT || op0.type === Algebra.types.ASK ? (op0 as { input: Op }).input : op0;
  walk(outer, false);
}

/** `bound(?v)` of a pre-bound variable made `true` (the variable becomes a term, which BOUND does not take). */
function boundOfPreBound(node: unknown, names: ReadonlySet<string>): unknown {
  if (node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map((n) => boundOfPreBound(n, names));
  const record = node as Record<string, unknown>;
  if (typeof record['termType'] === 'string') return node;
  const e = node as Partial<Algebra.OperatorExpression>;
  if (e.type === Algebra.types.EXPRESSION && e.expressionType === Algebra.expressionTypes.OPERATOR && e.operator?.toLowerCase() === 'bound') {
    const arg = e.args?.[0];
    if (arg?.expressionType === Algebra.expressionTypes.TERM && arg.term.termType === 'Variable' && names.has(arg.term.value)) {
      return { type: Algebra.types.EXPRESSION, expressionType: Algebra.expressionTypes.TERM, term: DataFactory.literal('true', DataFactory.namedNode('http://www.w3.org/2001/XMLSchema#boolean')) };
    }
  }
  const copy: Record<string, unknown> = Object.create(Object.getPrototypeOf(node) as object | null) as Record<string, unknown>;
  for (const key of Object.keys(record)) copy[key] = boundOfPreBound(record[key], names);
  return copy;
}

/** Messages with `{?name}` and `{$name}` replaced by the value of the variable (left as they are when it has none). */
function fillMessages(messages: readonly RDF.Literal[], valueOf: (name: string) => RDF.Term | undefined): RDF.Literal[] {
  return messages.map((m) => {
    if (!m.value.includes('{')) return m;
    const text = m.value.replace(/\{[?$]([A-Za-z0-9_]+)\}/g, (all, name: string) => valueOf(name)?.value ?? all);
    return text === m.value ? m : m.language !== '' ? DataFactory.literal(text, m.language) : DataFactory.literal(text, m.datatype);
  });
}

/** A compiled query: its algebra, whether it is ASK, and the variables it mentions. */
interface Prepared {
  readonly algebra: Op;
  readonly ask: boolean;
  readonly variables: ReadonlySet<string>;
}

/** Runs the SPARQL constraints of one validation. */
export class SparqlRunner implements SparqlConstraints {
  private readonly source: StoreQuadSource;
  private readonly queryTerms: QueryTerms;
  private readonly prepared = new Map<string, Prepared>();
  private readonly interrupter = new Interrupter();
  private readonly baseIRI: string;
  private readonly shapesGraphTerm: RDF.NamedNode | undefined;

  /** A runner over the selection's data graph. */
  constructor(private readonly selection: ShaclDataSelection) {
    const { state, dictionary, dataGraph, shapesGraph } = selection;
    const named = shapesGraph === 'default' ? [] : [shapesGraph];
    const dataset: DatasetGraphs = dataGraph === 'default' ? {} : { defaultGraphs: [dataGraph], namedGraphs: named };
    this.source = new StoreQuadSource(state, dictionary, factDomainMask(selection.factDomain, 'all'), dataset);
    this.queryTerms = new QueryTerms(dictionary);
    this.baseIRI = state.catalogue.baseIRI;
    this.shapesGraphTerm = shapesGraph === 'default' ? undefined : DataFactory.namedNode(dictionary.keyOf(shapesGraph).slice(1, -1));
  }

  private prepare(query: SparqlText, path: ShaclPath | undefined, validation: Validation, parameterNames: readonly string[]): Prepared {
    let text = query.text;
    if (path !== undefined) text = text.replace(/\$PATH\b/g, pathText(path, validation.terms));
    const key = `${[...query.prefixes].map(([p, n]) => `${p}=${n}`).join(' ')}\u0000${text}`;
    let prepared = this.prepared.get(key);
    if (prepared !== undefined) return prepared;
    let algebra: Op;
    try {
      algebra = compileQuery(text, query.prefixes, this.baseIRI).algebra;
    } catch (e) {
      throw new ShaclShapeError(`a SHACL-SPARQL query cannot be compiled: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    const preBound = new Set([...PRE_BOUND, ...parameterNames]);
    checkAllowed(algebra, preBound);
    const variables = new Set<string>();
    forEachVariable(algebra, (name) => void variables.add(name));
    algebra = boundOfPreBound(algebra, preBound) as Op;
    prepared = { algebra, ask: algebra.type === Algebra.types.ASK, variables };
    this.prepared.set(key, prepared);
    return prepared;
  }

  /** Evaluates a prepared query with pre-bound values; `onSolution` gets a reader of each solution's variables and returns true to stop. */
  private run(prepared: Prepared, values: ReadonlyMap<string, RDF.Term>, onSolution: (get: (name: string) => number) => boolean | void): void {
    const bindings: Record<string, RDF.Term> = {};
    for (const [name, term] of values) if (prepared.variables.has(name)) bindings[name] = term;
    let algebra: Op;
    try {
      algebra = bindParameters(prepared.algebra, bindings);
    } catch (e) {
      if (e instanceof QuadlogError) throw new ShaclShapeError(`a SHACL-SPARQL query cannot take its pre-bound values: ${e.message}`, { cause: e });
      throw e;
    }
    const engine = new Engine(this.source, this.queryTerms, this.interrupter, this.baseIRI, () => this.source.graphNames());
    engine.collectVariables(algebra);
    const get = (s: Int32Array) => (name: string): number => {
      const slot = engine.slots.get(name);
      return slot === undefined ? -1 : s[slot]!;
    };
    if (algebra.type === Algebra.types.ASK) {
      let answer = false;
      engine.evaluate(algebra.input, engine.empty(), DEFAULT_GRAPH, () => {
        answer = true;
        return true;
      });
      if (answer) onSolution(() => -1);
      return;
    }
    engine.evaluate(algebra, engine.empty(), DEFAULT_GRAPH, (s) => onSolution(get(s)));
  }

  /** The store id of a solution's term id (a term the query made is added to the dictionary). */
  private storeId(id: number, validation: Validation): number {
    if (id >= 0) return id;
    const term = this.queryTerms.termOf(id);
    return validation.terms.idOf(term, termToKey(term));
  }

  private literalOf(id: number): RDF.Literal | undefined {
    if (id === -1) return undefined;
    const t = this.queryTerms.termOf(id);
    return t.termType === 'Literal' ? t : undefined;
  }

  /** See {@link SparqlConstraints.check}. */
  check(validation: Validation, shape: Shape, c: Extract<Constraint, { type: 'sparql' | 'custom' }>, focus: number, values: readonly number[], out: ShaclResult[] | null): boolean {
    const terms = validation.terms;
    const bound = new Map<string, RDF.Term>([
      ['this', terms.term(focus)],
      ['currentShape', terms.term(shape.node)],
    ]);
    if (this.shapesGraphTerm !== undefined) bound.set('shapesGraph', this.shapesGraphTerm);
    let ok = true;
    const report = (value: number | undefined, path: ShaclPath | undefined, message: RDF.Literal | undefined, messages: readonly RDF.Literal[], constraint: number | undefined): boolean => {
      ok = false;
      if (out === null) return true;
      validation.fail(out, shape, c, focus, value, {
        ...(path !== undefined ? { path } : {}),
        messages: message !== undefined ? [message] : messages,
        ...(constraint !== undefined ? { constraint } : {}),
      });
      return false;
    };
    const solution = (get: (name: string) => number, messages: readonly RDF.Literal[], constraint: number | undefined, fallbackValue: number | undefined): boolean => {
      const failure = this.literalOf(get('failure'));
      if (failure !== undefined && failure.value === 'true') throw new ShaclShapeError('a SHACL-SPARQL query reported a failure');
      const valueId = get('value');
      const pathId = get('path');
      const path: ShaclPath | undefined = pathId >= 0 && terms.isIri(pathId) ? { kind: 'predicate', predicate: pathId } : shape.path;
      const valueOf = (name: string): RDF.Term | undefined => {
        const id = get(name);
        return id !== -1 ? this.queryTerms.termOf(id) : bound.get(name);
      };
      return report(valueId !== -1 ? this.storeId(valueId, validation) : fallbackValue, path, this.literalOf(get('message')), fillMessages(messages, valueOf), constraint);
    };
    if (c.type === 'sparql') {
      const prepared = this.prepare(c.query, shape.path, validation, []);
      if (prepared.ask) throw new ShaclShapeError('sh:select of a SPARQL constraint must be a SELECT query');
      this.run(prepared, bound, (get) => solution(get, c.messages, c.constraint, shape.path === undefined ? focus : undefined));
      return ok;
    }
    const parameters = [...c.parameters.keys()];
    for (const [name, id] of c.parameters) bound.set(name, terms.term(id));
    const prepared = this.prepare(c.validator.query, shape.path, validation, parameters);
    if (c.validator.ask) {
      for (const v of values) {
        bound.set('value', terms.term(v));
        let conforming = false;
        this.run(prepared, bound, () => void (conforming = true));
        if (!conforming && report(v, shape.path, undefined, fillMessages(c.validator.messages, (name) => bound.get(name)), undefined) && out === null) return false;
      }
      return ok;
    }
    this.run(prepared, bound, (get) => solution(get, c.validator.messages, undefined, shape.path === undefined ? focus : undefined));
    return ok;
  }
}
