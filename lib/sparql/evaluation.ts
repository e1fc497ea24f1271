/**
 * The evaluation of SPARQL queries: the dataset (FROM / FROM NAMED, the protocol's graphs or
 * the store's), the engine, and the answer as rows, a boolean or quads. Rows and the triples of
 * CONSTRUCT and DESCRIBE go to the answer sink as they are produced (a sink that takes a graph
 * only whole gets it collected). Loaded by query.ts on the first query, not when quadlog is
 * imported.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { directionOf, languageLiteral } from '../model/terms.js';
import { DataFactory } from 'n3';
import type { SparqlQuery } from 'sparqljs';
import { Algebra } from '../expressions/sparql-libraries.js';
import type { Interrupter } from '../model/control.js';
import type { TermDictionary } from '../model/dictionary.js';
import { QueryCompilationError } from '../model/errors.js';
import type { StoreState } from '../storage/fact-store.js';
import { factDomainMask } from '../storage/tuple-table.js';
import { StoreQuadSource, type DatasetGraphs } from './dataset.js';
import { Engine } from './engine.js';
import { compileQueryOffThread } from './parse-off-thread.js';
import { applyLimits, HOLDERS, keyBytes, tripleBytes } from './query-budget.js';
import { DEFAULT_GRAPH, UNBOUND } from './quad-source.js';
import { QueryTerms, type QueryTerm } from './query-terms.js';
import { TupleTableReader } from './tuple-table-access.js';
import { bindParameters } from './bound-parameters.js';
import type { AnswerIds, AnswerSink, EvaluationOptions, QueryAnswer } from './types.js';

/**
 * One evaluation's context: the state it reads, the store's dictionary, the options (limits,
 * dataset, the role's access), the interrupter that stops it and, for a streamed answer, the
 * pause awaited between batches (backpressure). A session builds one for each query.
 */
export interface QueryRun {
  /** The store state the query reads. */
  readonly state: StoreState;
  /** The store's term dictionary. */
  readonly dictionary: TermDictionary;
  /** Base IRI, dataset, fact domain, limits and the role's access. */
  readonly options: EvaluationOptions;
  /** Stops the evaluation. */
  readonly interrupter: Interrupter;
  /** Called between batches of the driving scan; may return a promise to wait for (backpressure). */
  readonly pause?: (() => Promise<void> | undefined) | undefined;
}

/**
 * Evaluates a query, pushing the answer into `sink` as it is produced. The evaluation yields
 * to the event loop between batches of its driving scan (so that it can be interrupted), and
 * calls the run's `pause` there too. `plan`, when given, receives the join order chosen for
 * each basic graph pattern.
 */
export async function runQuery(run: QueryRun, text: string, sink: AnswerSink, plan?: string[]): Promise<void> {
  const { state, dictionary, options, interrupter, pause } = run;
  const baseIRI = options.baseIRI ?? state.catalogue.baseIRI;
  const prefixes = state.catalogue.prefixes;
  // the time limit covers parsing (a long text is parsed on the parsing thread)
  const started = performance.now();
  const deadline = options.timeLimitMs !== undefined ? started + options.timeLimitMs : Infinity;
  const compiled = await compileQueryOffThread(text, prefixes, baseIRI, { interrupter, deadline });
  const parsed = compiled.parsed;
  let algebra = compiled.algebra;
  const terms = new QueryTerms(dictionary);
  // the dataset: protocol parameters, else FROM / FROM NAMED, else the store's graphs
  let dataset: DatasetGraphs = {};
  const ids = (iris: readonly RDF.NamedNode[] | readonly string[]): number[] =>
    iris.map((i) => dictionary.lookup(`<${typeof i === 'string' ? i : i.value}>`)).filter((id) => id >= 0);
  if (algebra.type === Algebra.types.FROM) {
    dataset = { defaultGraphs: ids(algebra.default), namedGraphs: ids(algebra.named) };
    algebra = algebra.input;
  }
  // OFFSET and LIMIT of a CONSTRUCT or DESCRIBE apply to the solutions of its WHERE clause (the
  // translation puts the slice around the template)
  if (algebra.type === Algebra.types.SLICE && (algebra.input.type === Algebra.types.CONSTRUCT || algebra.input.type === Algebra.types.DESCRIBE)) {
    const shape = algebra.input;
    algebra = { ...shape, input: { ...algebra, input: shape.input } };
  }
  algebra = bindParameters(algebra, options.bindings);
  if (options.defaultGraphs || options.namedGraphs) dataset = { defaultGraphs: ids(options.defaultGraphs ?? []), namedGraphs: ids(options.namedGraphs ?? []) };
  const source = new StoreQuadSource(state, dictionary, factDomainMask(options.factDomain, 'all', QueryCompilationError), dataset, options.access);
  const engine = new Engine(source, terms, interrupter, parsed.base ?? baseIRI, () => source.graphNames());
  engine.tupleTables = new TupleTableReader(state, dictionary, terms, factDomainMask(options.factDomain, 'all', QueryCompilationError), options.access);
  engine.tupleTables.deadline = () => engine.deadline;
  engine.tupleTables.computed = options.computedTables;
  // (the limits first: computing a built-in table's rows counts against the time limit)
  applyLimits(engine, options, started);
  await engine.tupleTables.prepare(algebra);
  engine.plan = plan;
  engine.pause = pause;
  engine.agent = options.agent;
  engine.collectVariables(algebra);
  // LIMIT 0 leaves no Slice in the algebra (sparqlalgebrajs treats 0 as absent)
  const limitZero = 'limit' in parsed && parsed.limit === 0;

  switch (algebra.type) {
    case Algebra.types.ASK:
      sink.boolean(await engine.runAsync(algebra.input, engine.empty(), () => true));
      return;
    case Algebra.types.CONSTRUCT: {
      const out = graphOutput(sink, engine, HOLDERS.construct);
      if (!limitZero) await construct(engine, algebra, out);
      out.end();
      return;
    }
    case Algebra.types.DESCRIBE: {
      const out = graphOutput(sink, engine, HOLDERS.describe);
      await describe(engine, terms, source, algebra, out);
      out.end();
      return;
    }
    default: {
      const variables = selectVariables(parsed, algebra);
      const slots = variables.map((v) => engine.slot(v));
      sink.variables(variables, hasOrderBy(algebra));
      if (!limitZero && sink.rowIds !== undefined) {
        const ids = new Int32Array(slots.length);
        const answerIds: AnswerIds = { dictionary, termOf: (id) => terms.termOf(id) };
        await engine.runAsync(algebra, engine.empty(), (s) => {
          for (let k = 0; k < slots.length; k++) ids[k] = s[slots[k]!]!;
          sink.rowIds!(ids, answerIds);
        });
      } else if (!limitZero) {
        await engine.runAsync(algebra, engine.empty(), (s) => {
          sink.row(slots.map((slot) => (s[slot]! === UNBOUND ? undefined : terms.termOf(s[slot]!))));
        });
      }
      sink.end();
    }
  }
}

/**
 * The plan of a query as text: its algebra, and the join order chosen for each basic graph
 * pattern (found by evaluating the query, since orders depend on the bindings that reach a
 * pattern), with the number of answers and the time taken.
 */
export async function explainQuery(run: QueryRun, text: string): Promise<string> {
  const { state, options, interrupter } = run;
  const baseIRI = options.baseIRI ?? state.catalogue.baseIRI;
  const deadline = options.timeLimitMs !== undefined ? performance.now() + options.timeLimitMs : Infinity;
  const { algebra } = await compileQueryOffThread(text, state.catalogue.prefixes, baseIRI, { interrupter, deadline });
  const plan: string[] = [];
  let answers = 0;
  const start = performance.now();
  await runQuery(run, text, {
    variables: () => undefined,
    row: () => void answers++,
    boolean: (v) => void (answers = v ? 1 : 0),
    quad: () => void answers++,
    quads: (q) => void (answers = q.length),
    end: () => undefined,
  }, plan);
  const ms = performance.now() - start;
  return `algebra:\n${describeAlgebra(algebra, 1)}\n${plan.join('\n')}\nanswers: ${answers}, evaluated in ${ms.toFixed(1)} ms\n`;
}

/** An indented outline of an algebra tree. */
function describeAlgebra(op: Algebra.Operation, depth: number): string {
  const pad = '  '.repeat(depth);
  const term = (t: RDF.Term): string => (t.termType === 'Variable' ? `?${t.value}` : t.termType === 'Literal' ? JSON.stringify(t.value) : t.termType === 'DefaultGraph' ? '' : `<${t.value}>`);
  const extra =
    op.type === Algebra.types.PROJECT ? ` ${op.variables.map(term).join(' ')}` :
    op.type === Algebra.types.SLICE ? ` offset ${op.start}${op.length !== undefined ? ` limit ${op.length}` : ''}` :
    op.type === Algebra.types.EXTEND ? ` ?${op.variable.value}` :
    op.type === Algebra.types.GRAPH ? ` ${term(op.name)}` : '';
  const lines = [`${pad}${op.type}${extra}`];
  if (op.type === Algebra.types.BGP) for (const p of op.patterns) lines.push(`${pad}  ${term(p.subject)} ${term(p.predicate)} ${term(p.object)}`);
  const input = (op as { input?: Algebra.Operation | Algebra.Operation[] }).input;
  if (Array.isArray(input)) for (const c of input) lines.push(describeAlgebra(c, depth + 1));
  else if (input && typeof input === 'object' && 'type' in input) lines.push(describeAlgebra(input, depth + 1));
  return lines.join('\n');
}

/** Evaluates a query on a store state and returns the whole answer. */
export async function evaluateQuery(run: QueryRun, text: string): Promise<QueryAnswer> {
  let answer: QueryAnswer | undefined;
  let variables: readonly string[] = [];
  let ordered = false;
  const rows: Array<ReadonlyArray<QueryTerm | undefined>> = [];
  await runQuery(run, text, {
    variables: (names, isOrdered) => {
      variables = names;
      ordered = isOrdered;
    },
    row: (values) => void rows.push(values),
    boolean: (value) => void (answer = { type: 'boolean', value }),
    quads: (quads) => void (answer = { type: 'quads', quads }),
    end: () => undefined,
  });
  return answer ?? { type: 'bindings', variables, rows, ordered };
}

function selectVariables(parsed: SparqlQuery, algebra: Algebra.Operation): string[] {
  let op: Algebra.Operation = algebra;
  while (op.type !== Algebra.types.PROJECT && 'input' in op && !Array.isArray(op.input)) op = op.input as Algebra.Operation;
  if (op.type === Algebra.types.PROJECT) return op.variables.map((v) => v.value);
  void parsed;
  return [];
}

function hasOrderBy(op: Algebra.Operation): boolean {
  for (let cur: Algebra.Operation | undefined = op; cur; ) {
    if (cur.type === Algebra.types.ORDER_BY) return true;
    if (cur.type === Algebra.types.PROJECT || cur.type === Algebra.types.DISTINCT || cur.type === Algebra.types.REDUCED || cur.type === Algebra.types.SLICE || cur.type === Algebra.types.EXTEND) {
      cur = cur.input;
    } else return false;
  }
  return false;
}

/**
 * Where a CONSTRUCT or DESCRIBE sends the triples of its answer, each once (the producer removes
 * duplicates): to the sink as they come when it has {@link AnswerSink.quad}, otherwise into an
 * array handed to {@link AnswerSink.quads} after the last one.
 */
interface GraphOutput {
  /** One triple of the answer; `key` identifies it within the query (its length sizes the estimate of a collected triple). */
  send(quad: RDF.Quad, key: string): void;
  /** After the last triple. */
  end(): void;
}

/**
 * The output of a CONSTRUCT or DESCRIBE to `sink`: streamed when the sink takes triples one by
 * one (its {@link AnswerSink.graphBegin} is called now), otherwise collected, each triple
 * held against the budget as `what`.
 */
function graphOutput(sink: AnswerSink, engine: Engine, what: string): GraphOutput {
  if (sink.quad !== undefined) {
    sink.graphBegin?.();
    return { send: (q) => sink.quad!(q), end: () => sink.end() };
  }
  const held = engine.budget?.account(what);
  const quads: RDF.Quad[] = [];
  return {
    send: (q, key) => {
      held?.add(tripleBytes(key));
      quads.push(q);
    },
    end: () => sink.quads(quads),
  };
}

/** A position of a CONSTRUCT template, compiled: a variable's slot, a constant's query id and term, or a blank node's label. */
type TemplatePosition =
  | { readonly slot: number }
  | { readonly id: number; readonly term: QueryTerm }
  | { readonly label: string }
  /** A triple term with variables or blank nodes (`<<( ?s :p _:b )>>`): built from its parts per solution. */
  | { readonly triple: readonly [TemplatePosition, TemplatePosition, TemplatePosition] };

/** Whether a template position is, or holds, a blank node of the template. */
function holdsLabel(p: TemplatePosition): boolean {
  return 'label' in p || ('triple' in p && p.triple.some(holdsLabel));
}

/**
 * The graph of a CONSTRUCT: template instances, fresh blank nodes per solution, invalid triples
 * skipped, each triple sent to `out` once, as the solution that gives it first is emitted.
 *
 * What is held: the keys (three query ids) of the triples sent that have no blank node of the
 * template, to remove duplicates, charged to the budget. A triple with a blank node of the
 * template is new with each solution and cannot repeat one sent for another; only when the
 * template has several such triples are one solution's keys compared (and dropped with it).
 */
async function construct(engine: Engine, op: Algebra.Construct, out: GraphOutput): Promise<void> {
  const terms = engine.terms;
  const position = (t: RDF.Term): TemplatePosition => {
    if (t.termType === 'Variable') return { slot: engine.slot(t.value) };
    if (t.termType === 'BlankNode') return { label: t.value };
    if (t.termType === 'Quad' && !isGround(t)) return { triple: [position(t.subject), position(t.predicate), position(t.object)] };
    const term = toN3(t);
    return { id: terms.idOf(term), term };
  };
  const template = op.template.map((q) => [position(q.subject), position(q.predicate), position(q.object)] as const);
  /** Whether each triple of the template has a blank node of the template. */
  const fresh = template.map((triple) => triple.some(holdsLabel));
  // two such triples may coincide within a solution (`_:b :p ?x . _:b :p ?y` with ?x = ?y)
  const freshTwice = fresh.filter((f) => f).length > 1;
  const sent = new Set<string>();
  const held = engine.budget?.account(HOLDERS.construct);
  const defaultGraph = DataFactory.defaultGraph();
  let solutionIndex = 0;
  // per solution: the nodes of the template's blank nodes, made on first use
  let bnodes: Map<string, RDF.BlankNode> | undefined;
  // per solution, when the template has several triples with blank nodes: their keys
  let solutionKeys: Set<string> | undefined;
  /** The key part of the term {@link value} gave last: its id, or the label of a template's blank node. */
  let keyPart = '';
  /** The term at a position for solution `s` (undefined: unbound); sets {@link keyPart}. */
  const value = (p: TemplatePosition, s: Int32Array): QueryTerm | undefined => {
    if ('slot' in p) {
      const id = s[p.slot] ?? UNBOUND;
      if (id === UNBOUND) return undefined;
      keyPart = String(id);
      return terms.termOf(id);
    }
    if ('term' in p) {
      keyPart = String(p.id);
      return p.term;
    }
    if ('triple' in p) {
      const subject = value(p.triple[0], s);
      const sk = keyPart;
      const predicate = value(p.triple[1], s);
      const pk = keyPart;
      const object = value(p.triple[2], s);
      if (!subject || !predicate || !object || (subject.termType !== 'NamedNode' && subject.termType !== 'BlankNode') || predicate.termType !== 'NamedNode') return undefined;
      keyPart = `(${sk} ${pk} ${keyPart})`;
      return DataFactory.quad(subject, predicate, object);
    }
    bnodes ??= new Map();
    let b = bnodes.get(p.label);
    if (!b) bnodes.set(p.label, (b = DataFactory.blankNode(`c${solutionIndex}_${p.label}`)));
    // a template's blank node is new per solution: its label is its identity
    keyPart = `_${b.value}`;
    return b;
  };
  await engine.runAsync(op.input, engine.empty(), (s) => {
    solutionIndex++;
    bnodes = undefined;
    solutionKeys = undefined;
    for (let t = 0; t < template.length; t++) {
      const [sp, pp, op_] = template[t]!;
      const subject = value(sp, s);
      if (!subject || subject.termType === 'Literal') continue;
      const sk = keyPart;
      const predicate = value(pp, s);
      if (!predicate || predicate.termType !== 'NamedNode') continue;
      const pk = keyPart;
      const object = value(op_, s);
      if (!object) continue;
      // a term has one id within the query, so ids identify the triple
      const key = `${sk} ${pk} ${keyPart}`;
      if (!fresh[t]) {
        if (sent.has(key)) continue;
        held?.add(keyBytes(key));
        sent.add(key);
      } else if (freshTwice) {
        solutionKeys ??= new Set();
        if (solutionKeys.has(key)) continue;
        solutionKeys.add(key);
      }
      out.send(DataFactory.quad(subject, predicate, object, defaultGraph), key);
    }
  });
}

/** Whether a term holds neither variables nor blank nodes (at any depth). */
function isGround(t: RDF.Term): boolean {
  if (t.termType === 'Variable' || t.termType === 'BlankNode') return false;
  return t.termType !== 'Quad' || (isGround(t.subject) && isGround(t.predicate) && isGround(t.object));
}

/** The n3 term equal to an RDF/JS term (template terms come from another factory). */
function toN3(t: RDF.Term): QueryTerm {
  if (t.termType === 'NamedNode') return DataFactory.namedNode(t.value);
  if (t.termType === 'BlankNode') return DataFactory.blankNode(t.value);
  if (t.termType === 'Quad') return DataFactory.quad(toN3(t.subject) as RDF.Quad_Subject, toN3(t.predicate) as RDF.Quad_Predicate, toN3(t.object));
  const l = t as RDF.Literal;
  const direction = directionOf(l);
  return l.language ? languageLiteral(l.value, l.language, direction) : DataFactory.literal(l.value, DataFactory.namedNode(l.datatype.value));
}

/** Rows of a described node's scan between two pauses (as many as a basic graph pattern's steps between two). */
const DESCRIBE_BATCH = 256;

/** The estimated bytes of a node id a DESCRIBE keeps in a set (the entry of a small integer). */
const NODE_BYTES = 32;

/**
 * DESCRIBE: the concise bounded description of each resource, sent to `out` one resource after
 * the other: its triples, then those of the blank nodes they reach, and so on. The resources are
 * the IRIs named and the values of the variables in the WHERE clause's solutions (collected
 * first, as ids). A resource's scan pauses every {@link DESCRIBE_BATCH} rows (backpressure, the
 * time limit, interrupts). Held, and charged: the ids of the resources and of the nodes
 * described; a node is described once, so no triple repeats.
 */
async function describe(engine: Engine, terms: QueryTerms, source: StoreQuadSource, op: Algebra.Describe, out: GraphOutput): Promise<void> {
  const held = engine.budget?.account(HOLDERS.describe);
  const resources: number[] = [];
  const listed = new Set<number>();
  const list = (id: number): void => {
    if (id < 0 || listed.has(id)) return;
    held?.add(NODE_BYTES);
    listed.add(id);
    resources.push(id);
  };
  for (const t of op.terms) if (t.termType === 'NamedNode') list(terms.idOf(t));
  const vars = op.terms.filter((t) => t.termType === 'Variable').map((t) => engine.slot(t.value));
  if (vars.length > 0) {
    await engine.runAsync(op.input, engine.empty(), (s) => {
      for (const v of vars) list(s[v]!);
    });
  }
  const defaultGraph = DataFactory.defaultGraph();
  const visited = new Set<number>();
  const pending: number[] = [];
  const found = (s: number, p: number, o: number): boolean => {
    const object = terms.termOf(o);
    out.send(DataFactory.quad(terms.termOf(s) as RDF.NamedNode, terms.termOf(p) as RDF.NamedNode, object, defaultGraph), `${s},${p},${o}`);
    if (object.termType === 'BlankNode' && !visited.has(o)) pending.push(o);
    return false;
  };
  for (const resource of resources) {
    pending.push(resource);
    while (pending.length > 0) {
      const node = pending.pop()!;
      if (visited.has(node)) continue;
      held?.add(NODE_BYTES);
      visited.add(node);
      const scan = source.matcher(node, UNBOUND, UNBOUND, DEFAULT_GRAPH, found);
      while (!scan(DESCRIBE_BATCH)) await engine.pauseBetweenBatches();
    }
    await engine.pauseBetweenBatches();
  }
}
