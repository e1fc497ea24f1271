/**
 * Parsing large SPARQL texts on a worker thread, so that a query or update of megabytes (a long
 * VALUES block, thousands of PREFIX lines, a flat expression of 100,000 terms) never holds the
 * event loop: parsing and translation take time proportional to the text, seconds for the
 * largest, and cannot yield. Texts shorter than {@link OFF_THREAD_PARSE_CHARS} and nesting at
 * most {@link OFF_THREAD_PARSE_DEPTH} levels are parsed in place, where handing the work over
 * costs more than the parse.
 *
 * One worker serves the process, one text at a time (requests queue); it is started on first
 * use and runs `parse.ts` itself (the TypeScript source under tsx, the compiled module in the
 * package). The caller's interrupter and deadline are watched while the worker runs: an
 * interrupt or a time limit ends the worker at once (the next request starts a fresh one) and
 * the call fails with InterruptedError. The algebra comes back as JSON in slices
 * (`json-slices.ts`; with what evaluation reads of the syntax tree), parsed and its RDF terms
 * rebuilt as n3 terms a slice at a time; errors come back as the same error classes.
 * @module
 */
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import type { SparqlQuery } from 'sparqljs';
import type { Algebra } from '../expressions/sparql-libraries.js';
import type { Interrupter } from '../model/control.js';
import { BadRequestError, InterruptedError, QueryCompilationError } from '../model/errors.js';
import { cachedCompiledQuery, type CompiledQuery, compileQuery, parseUpdate, rememberCompiledQuery } from './parse.js';
import { type JsonSlices, slicesOf } from './json-slices.js';
import { tooDeepBracket } from './nesting.js';
import type { UpdateDataset } from './types.js';
import { languageLiteral } from '../model/terms.js';

/** Texts at least this long are parsed on the worker thread. */
export const OFF_THREAD_PARSE_CHARS = 32 * 1024;
/** So are texts whose brackets nest deeper than this (the parser's time grows with the depth: 400 levels take about 140 ms). */
export const OFF_THREAD_PARSE_DEPTH = 64;

/** Whether a text is parsed on the worker thread. */
function parsedOffThread(text: string): boolean {
  return text.length >= OFF_THREAD_PARSE_CHARS || tooDeepBracket(text, OFF_THREAD_PARSE_DEPTH) !== undefined;
}

/** How often the caller's interrupter and deadline are looked at while the worker parses (ms). */
const WATCH_INTERVAL_MS = 10;

/** When to give up waiting for the worker. */
export interface ParseStop {
  /** Interrupted: the parse stops. */
  readonly interrupter: Interrupter;
  /** performance.now() after which the parse stops (Infinity: none). */
  readonly deadline: number;
}

/** What the worker is asked. */
type ParseRequest =
  | { readonly kind: 'query'; readonly text: string; readonly prefixes: ReadonlyArray<[string, string]>; readonly baseIRI: string }
  | { readonly kind: 'update'; readonly text: string; readonly prefixes: ReadonlyArray<[string, string]>; readonly baseIRI: string; readonly dataset: UpdateDataset | undefined };

/** What the worker answers: the algebra as JSON in slices (cheaper to receive than a structured clone of its objects, and parsed a slice at a time). */
type ParseReply = { readonly ok: true; readonly parsed?: unknown; readonly algebra: JsonSlices } | { readonly ok: false; readonly name: string; readonly message: string };

/** The worker's program: parse.ts's functions on each message, their algebra sent as JSON in slices. */
function workerCode(moduleUrl: string, slicesUrl: string, typescript: boolean): string {
  const both = `Promise.all([import(${JSON.stringify(moduleUrl)}), import(${JSON.stringify(slicesUrl)})]).then(([parse, slices]) => ({ ...parse, ...slices }))`;
  const load = typescript ? `import('tsx/esm/api').then((t) => { t.register(); return ${both}; })` : both;
  return `
const { parentPort } = require('node:worker_threads');
const ready = ${load};
parentPort.on('message', async (request) => {
  let parse;
  try {
    parse = await ready;
    const prefixes = new Map(request.prefixes);
    if (request.kind === 'query') {
      const compiled = parse.compileQuery(request.text, prefixes, request.baseIRI);
      const p = compiled.parsed;
      // of the syntax tree, only what evaluation reads besides the algebra (the rest can be large)
      parentPort.postMessage({ ok: true, parsed: { type: p.type, queryType: p.queryType, base: p.base, limit: p.limit }, algebra: parse.toJsonSlices(compiled.algebra) });
    } else {
      parentPort.postMessage({ ok: true, algebra: parse.toJsonSlices(parse.parseUpdate(request.text, prefixes, request.baseIRI, request.dataset)) });
    }
  } catch (e) {
    parentPort.postMessage({ ok: false, name: e && e.name || 'Error', message: e && e.message || String(e) });
  }
});`;
}

let worker: Worker | undefined;
/** The request being served, and those waiting. */
let queue: Promise<unknown> = Promise.resolve();

/** node:worker_threads, loaded when the first worker starts rather than when quadlog is imported. */
const requireBuiltin = createRequire(import.meta.url);

function startWorker(): Worker {
  const { Worker } = requireBuiltin('node:worker_threads') as typeof import('node:worker_threads');
  const typescript = import.meta.url.endsWith('.ts');
  const moduleUrl = (name: string): string => new URL(typescript ? `./${name}.ts` : `./${name}.js`, import.meta.url).href;
  const started = new Worker(workerCode(moduleUrl('parse'), moduleUrl('json-slices'), typescript), { eval: true });
  started.unref();
  started.on('error', () => {
    if (worker === started) worker = undefined;
  });
  started.on('exit', () => {
    if (worker === started) worker = undefined;
  });
  return started;
}

/** Runs one request on the worker, watching `stop`. */
function runOnWorker(request: ParseRequest, stop: ParseStop): Promise<ParseReply> {
  const run = async (): Promise<ParseReply> => {
    const w = (worker ??= startWorker());
    return new Promise<ParseReply>((resolve, reject) => {
      const watch = setInterval(() => {
        const interrupted = stop.interrupter.interrupted;
        if (!interrupted && performance.now() <= stop.deadline) return;
        finish();
        if (worker === w) worker = undefined;
        void w.terminate();
        reject(new InterruptedError(interrupted ? 'the operation was interrupted' : 'the query exceeded its time limit'));
      }, WATCH_INTERVAL_MS);
      const onMessage = (reply: ParseReply): void => {
        finish();
        resolve(reply);
      };
      const onExit = (): void => {
        finish();
        reject(new Error('internal error: the SPARQL parsing thread stopped'));
      };
      const finish = (): void => {
        clearInterval(watch);
        w.off('message', onMessage);
        w.off('exit', onExit);
      };
      w.on('message', onMessage);
      w.on('exit', onExit);
      w.postMessage(request);
    });
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}

/** The error of a failed reply, as the class the parse threw. */
function replyError(reply: { readonly name: string; readonly message: string }): Error {
  if (reply.name === 'QueryCompilationError') return new QueryCompilationError(reply.message);
  if (reply.name === 'BadRequestError') return new BadRequestError(reply.message);
  return new Error(reply.message);
}

/**
 * The term types rebuilt as n3 terms. Quads stay plain objects with their terms rebuilt: the
 * algebra's triple patterns are quads with fields of their own (`type: 'pattern'`).
 */
const TERM_TYPES = new Set(['NamedNode', 'BlankNode', 'Literal', 'Variable', 'DefaultGraph']);

/** A term that came as JSON, as an n3 term. */
function reviveTerm(value: Record<string, unknown>, revive: (v: unknown) => unknown): RDF.Term {
  switch (value.termType) {
    case 'NamedNode':
      return DataFactory.namedNode(value.value as string);
    case 'BlankNode':
      return DataFactory.blankNode(value.value as string);
    case 'Variable':
      return DataFactory.variable(value.value as string);
    case 'Literal': {
      const language = value.language as string;
      const direction = value.direction as string | undefined;
      // a base direction (SPARQL 1.2) is kept
      return language ? languageLiteral(value.value as string, language, direction) : DataFactory.literal(value.value as string, revive(value.datatype) as RDF.NamedNode);
    }
    default:
      return DataFactory.defaultGraph();
  }
}

/** A cut array to be read from its slices into `into`. */
class SlicedArray {
  constructor(
    readonly indexes: readonly number[],
    readonly into: unknown[],
  ) {}
}

/**
 * Rebuilds the RDF terms of a tree that came as JSON in slices (or cloned, without slices),
 * keeping objects shared as they were, parsing the slices of its cut arrays one at a time, and
 * yielding to the event loop whenever `due` says the time slice is used up (a tree may hold
 * 100,000 nodes).
 */
async function reviveTree<T>(tree: unknown, slices: readonly string[], due: () => boolean): Promise<T> {
  const done = new Map<object, unknown>();
  const revive = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    const seen = done.get(v);
    if (seen !== undefined) return seen;
    const indexes = slices.length > 0 ? slicesOf(v) : undefined;
    if (indexes) {
      const into: unknown[] = [];
      done.set(v, into);
      pending.push(new SlicedArray(indexes, into));
      return into;
    }
    const record = v as Record<string, unknown>;
    if (typeof record.termType === 'string' && TERM_TYPES.has(record.termType)) {
      const term = reviveTerm(record, revive);
      done.set(v, term);
      return term;
    }
    done.set(v, v);
    pending.push(v);
    return v;
  };
  // objects whose fields are still to be revived (breadth first, so that deep trees need no deep recursion)
  const pending: object[] = [];
  const root = revive(tree);
  for (let i = 0; i < pending.length; i++) {
    const v = pending[i]!;
    if (v instanceof SlicedArray) {
      for (const at of v.indexes) {
        for (const element of JSON.parse(slices[at]!) as unknown[]) v.into.push(revive(element));
        if (due()) await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } else if (Array.isArray(v)) for (let k = 0; k < v.length; k++) v[k] = revive(v[k]);
    else for (const key of Object.keys(v)) (v as Record<string, unknown>)[key] = revive((v as Record<string, unknown>)[key]);
    if ((i & 1023) === 0 && due()) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return root as T;
}

/**
 * Parses and translates a query ({@link compileQuery}), on the worker thread when the text is
 * long; the result is cached as compileQuery's is.
 * @throws QueryCompilationError for a syntax error; InterruptedError when `stop` says so first.
 */
export async function compileQueryOffThread(text: string, prefixes: ReadonlyMap<string, string>, baseIRI: string, stop: ParseStop): Promise<CompiledQuery> {
  // a text seen before is neither scanned nor parsed again
  const cached = cachedCompiledQuery(text, prefixes, baseIRI);
  if (cached) return cached;
  if (!parsedOffThread(text)) return compileQuery(text, prefixes, baseIRI);
  const reply = await runOnWorker({ kind: 'query', text, prefixes: [...prefixes], baseIRI }, stop);
  if (!reply.ok) throw replyError(reply);
  const due = (): boolean => stop.interrupter.due();
  const algebra = reply.algebra;
  const compiled: CompiledQuery = { parsed: await reviveTree<SparqlQuery>(reply.parsed, [], due), algebra: await reviveTree<Algebra.Operation>(JSON.parse(algebra.skeleton), algebra.slices, due) };
  rememberCompiledQuery(text, prefixes, baseIRI, compiled);
  return compiled;
}

/**
 * Parses an update ({@link parseUpdate}), on the worker thread when the text is long.
 * @throws QueryCompilationError for a syntax error; InterruptedError when `stop` says so first.
 */
export async function parseUpdateOffThread(text: string, prefixes: ReadonlyMap<string, string>, baseIRI: string, dataset: UpdateDataset | undefined, stop: ParseStop): Promise<Algebra.Operation> {
  if (!parsedOffThread(text)) return parseUpdate(text, prefixes, baseIRI, dataset);
  const reply = await runOnWorker({ kind: 'update', text, prefixes: [...prefixes], baseIRI, dataset }, stop);
  if (!reply.ok) throw replyError(reply);
  return reviveTree<Algebra.Operation>(JSON.parse(reply.algebra.skeleton), reply.algebra.slices, () => stop.interrupter.due());
}
