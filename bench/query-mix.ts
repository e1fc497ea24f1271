/**
 * The operator mix of the query benchmark (`npm run bench:query -- --mix`, or
 * `node --expose-gc --import tsx bench/query-mix.ts`): every SPARQL 1.1 operator on LUBM(1),
 * quadlog against oxigraph (WASM), each query's first-run and warm time, answers checked equal.
 *
 * Usage: `npm run bench:query -- --mix [--runs N] [--warmups N] [--queries a,b,…] [--no-first]`.
 *
 * The data: LUBM(1) (`lubm1.nt.gz`, 100,543 triples) in the default graph, plus a copy of the
 * graduate students' `ub:takesCourse` triples in the named graph `<urn:graph:courses>` (made
 * by the same SPARQL update in both systems), for the `GRAPH` queries.
 *
 * Two measurements per query and system, each in child processes of its own:
 * - **first run**: a fresh child per (system, query) loads the data, forces two GCs and times
 *   the query's first evaluation: what a user sees on a cold process (quadlog before V8 has
 *   optimised the evaluator; oxigraph's WASM is compiled ahead of time);
 * - **warm**: one child per system runs every query `--warmups` times (and at least 300 ms)
 *   untimed, then `--runs` times timed; the median is reported.
 * A run is timed from the query text to the complete answer in JS objects (quadlog:
 * `evaluateQuery`; oxigraph: `store.query`), one event-loop turn before each run (see
 * `bench/query.ts`). The number of rows (or triples) and an order-independent checksum of
 * the answer must be equal in both systems (and between the two measurements); a mismatch
 * makes the process exit with code 1.
 * @module
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { Server, ConnectionFactory, type QueryAnswer } from '../lib/index.js';
import { DATA_FILES, answerChecksum, type TermLike } from './lib/query-workload.js';
import { collect, runChild, table } from './lib/harness.js';

/** A query of the mix. */
export interface MixQuery {
  /** Short name. */
  readonly name: string;
  /** What it exercises. */
  readonly description: string;
  /** The SPARQL text (without the prefixes, which {@link PREFIXES} adds). */
  readonly text: string;
}

/** The prefixes every query of the mix starts with. */
const PREFIXES = 'PREFIX ub: <http://swat.cse.lehigh.edu/onto/univ-bench.owl#>\nPREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n';

/** The named graph the `GRAPH` queries read. */
const NAMED_GRAPH = 'urn:graph:courses';

/** The update that fills {@link NAMED_GRAPH} after the load. */
const FILL_NAMED_GRAPH = `${PREFIXES}INSERT { GRAPH <${NAMED_GRAPH}> { ?s ub:takesCourse ?c } } WHERE { ?s a ub:GraduateStudent ; ub:takesCourse ?c }`;

const D0 = 'http://www.Department0.University0.edu';

/** The mix: the four shapes of issue 19 first, then one or more queries per SPARQL 1.1 operator. */
export const MIX: readonly MixQuery[] = [
  { name: 'not-exists-ug', description: 'FILTER NOT EXISTS over all undergraduate students', text: 'SELECT ?x WHERE { ?x a ub:UndergraduateStudent FILTER NOT EXISTS { ?x ub:advisor ?a } }' },
  { name: 'sum-bind', description: 'SUM over BIND(1 AS ?one) on all publications', text: 'SELECT (SUM(?one) AS ?n) WHERE { ?p a ub:Publication BIND(1 AS ?one) }' },
  {
    name: 'agg-subquery',
    description: 'MAX/MIN/AVG over a grouped subquery of per-student course counts',
    text: 'SELECT (MAX(?n) AS ?max) (MIN(?n) AS ?min) (xsd:integer(ROUND(AVG(?n) * 1000)) AS ?avg) WHERE { { SELECT ?s (COUNT(?c) AS ?n) WHERE { ?s ub:takesCourse ?c } GROUP BY ?s } }',
  },
  { name: 'group-strafter', description: 'GROUP BY on BIND(STRAFTER(STR(?p), "#")) over every triple', text: 'SELECT ?local (COUNT(*) AS ?n) WHERE { ?s ?p ?o BIND(STRAFTER(STR(?p), "#") AS ?local) } GROUP BY ?local' },
  { name: 'optional', description: 'OPTIONAL: undergraduates and their advisor if any', text: 'SELECT ?x ?a WHERE { ?x a ub:UndergraduateStudent OPTIONAL { ?x ub:advisor ?a } }' },
  { name: 'optional-filter', description: 'OPTIONAL with a FILTER inside', text: 'SELECT ?x ?e WHERE { ?x a ub:GraduateStudent OPTIONAL { ?x ub:emailAddress ?e FILTER(CONTAINS(?e, "Student1")) } }' },
  { name: 'minus', description: 'MINUS: undergraduates without an advisor', text: 'SELECT ?x WHERE { ?x a ub:UndergraduateStudent MINUS { ?x ub:advisor ?a } }' },
  { name: 'exists', description: 'FILTER EXISTS: courses someone takes', text: 'SELECT ?c WHERE { ?c a ub:Course FILTER EXISTS { ?s ub:takesCourse ?c } }' },
  { name: 'not-exists-2', description: 'FILTER NOT EXISTS joining two variables', text: 'SELECT ?s ?c WHERE { ?s ub:takesCourse ?c FILTER NOT EXISTS { ?t ub:teachingAssistantOf ?c . ?s ub:advisor ?t } }' },
  { name: 'union', description: 'UNION of three classes', text: 'SELECT ?x WHERE { { ?x a ub:FullProfessor } UNION { ?x a ub:AssociateProfessor } UNION { ?x a ub:AssistantProfessor } }' },
  {
    name: 'subquery',
    description: 'a grouped subquery joined with a pattern',
    text: 'SELECT ?d ?n WHERE { ?d a ub:Department . { SELECT ?d (COUNT(?s) AS ?n) WHERE { ?s ub:memberOf ?d } GROUP BY ?d } }',
  },
  {
    name: 'group-all-aggs',
    description: 'GROUP BY with COUNT, COUNT DISTINCT, SUM, MIN, MAX, AVG, SAMPLE, GROUP_CONCAT',
    text:
      'SELECT ?c (COUNT(?s) AS ?n) (COUNT(DISTINCT ?nm) AS ?nd) (SUM(?l) AS ?sum) (MIN(?l) AS ?min) (MAX(?l) AS ?max) (xsd:integer(ROUND(AVG(?l) * 1000)) AS ?avg) ' +
      '(SAMPLE(?c) AS ?sample) (STRLEN(GROUP_CONCAT(?nm; separator=",")) AS ?gc) ' +
      'WHERE { ?s ub:takesCourse ?c ; ub:name ?nm BIND(STRLEN(?nm) AS ?l) } GROUP BY ?c',
  },
  { name: 'count-group', description: 'COUNT per group of a two-pattern join', text: 'SELECT ?d (COUNT(?x) AS ?n) WHERE { ?x ub:memberOf ?d ; ub:takesCourse ?c } GROUP BY ?d' },
  { name: 'having', description: 'HAVING on a COUNT', text: 'SELECT ?a (COUNT(?x) AS ?n) WHERE { ?x ub:advisor ?a } GROUP BY ?a HAVING (COUNT(?x) > 5)' },
  { name: 'order-limit', description: 'ORDER BY two keys with LIMIT 10 over every name', text: 'SELECT ?x ?n WHERE { ?x ub:name ?n } ORDER BY DESC(?n) ?x LIMIT 10' },
  { name: 'order-offset', description: 'ORDER BY with OFFSET and LIMIT over a join', text: 'SELECT ?x ?c WHERE { ?x ub:takesCourse ?c } ORDER BY ?c ?x OFFSET 100 LIMIT 20' },
  { name: 'order-all', description: 'ORDER BY of every email address (full sort)', text: 'SELECT ?x ?e WHERE { ?x ub:emailAddress ?e } ORDER BY ?e' },
  { name: 'distinct', description: 'DISTINCT courses taken', text: 'SELECT DISTINCT ?c WHERE { ?s ub:takesCourse ?c }' },
  { name: 'distinct-p', description: 'DISTINCT predicates of every triple', text: 'SELECT DISTINCT ?p WHERE { ?s ?p ?o }' },
  {
    name: 'bind-expr',
    description: 'BIND of string expressions and a FILTER on them',
    text: 'SELECT ?x ?u WHERE { ?x ub:emailAddress ?e BIND(UCASE(STRBEFORE(?e, "@")) AS ?u) FILTER(STRSTARTS(?u, "GRADUATE")) }',
  },
  { name: 'arith', description: 'arithmetic and comparison in BIND and FILTER', text: 'SELECT ?x ?k WHERE { ?x ub:name ?n BIND(STRLEN(?n) * 2 + 1 AS ?k) FILTER(?k > 40 && ?k < 50) }' },
  {
    name: 'values',
    description: 'VALUES of six courses joined with takesCourse',
    text: `SELECT ?x ?c WHERE { VALUES ?c { <${D0}/Course0> <${D0}/Course1> <${D0}/Course2> <${D0}/GraduateCourse0> <${D0}/GraduateCourse1> <${D0}/GraduateCourse2> } ?x ub:takesCourse ?c }`,
  },
  { name: 'path-bound', description: 'subOrganizationOf+ from a bound subject', text: `SELECT ?y WHERE { <http://www.Department0.University0.edu/ResearchGroup0> ub:subOrganizationOf+ ?y }` },
  { name: 'path-bound-o', description: 'memberOf/subOrganizationOf* to a bound object', text: 'SELECT ?x WHERE { ?x ub:memberOf/ub:subOrganizationOf* <http://www.University0.edu> }' },
  { name: 'path-free-seq', description: 'advisor/worksFor with both ends free', text: 'SELECT ?x ?y WHERE { ?x ub:advisor/ub:worksFor ?y }' },
  { name: 'path-alt-inv', description: 'alternative with an inverse, both ends free', text: 'SELECT (COUNT(*) AS ?n) WHERE { ?x (ub:teacherOf|^ub:takesCourse) ?y }' },
  { name: 'graph-var', description: 'GRAPH ?g with a COUNT per graph', text: 'SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g' },
  { name: 'graph-join', description: 'GRAPH <iri> joined with the default graph', text: `SELECT ?s ?c ?a WHERE { GRAPH <${NAMED_GRAPH}> { ?s ub:takesCourse ?c } ?s ub:advisor ?a }` },
  {
    name: 'strings',
    description: 'CONCAT, LCASE, SUBSTR, STRLEN, REPLACE, CONTAINS, REGEX',
    text:
      'SELECT ?x (CONCAT(LCASE(?n), "-", SUBSTR(?e, 1, 5)) AS ?k) (STRLEN(?e) AS ?l) (REPLACE(?n, "Student", "S") AS ?r) (CONTAINS(?e, "Department1") AS ?c) ' +
      'WHERE { ?x ub:name ?n ; ub:emailAddress ?e FILTER(REGEX(?n, "^Undergraduate.*1$")) }',
  },
  {
    name: 'regex-i',
    description: 'REGEX with flag i (no fixed substring) over every name',
    text: 'SELECT ?x ?n WHERE { ?x ub:name ?n FILTER(REGEX(?n, "student1[0-9]*5$", "i")) }',
  },
  {
    name: 'regex-anchored',
    description: 'REGEX anchored at both ends, with an alternation, over every e-mail address',
    text: 'SELECT ?x ?e WHERE { ?x ub:emailAddress ?e FILTER(REGEX(?e, "^(Full|Associate|Assistant)Professor[0-9]+@Department[0-9]\\\\.University0\\\\.edu$")) }',
  },
  {
    name: 'regex-replace',
    description: 'REPLACE with three groups on every e-mail address',
    text: 'SELECT ?x ?r WHERE { ?x ub:emailAddress ?e BIND(REPLACE(?e, "^([A-Za-z]+)([0-9]+)@Department([0-9]+).*$", "$3/$2/$1") AS ?r) }',
  },
  {
    name: 'regex-letters',
    description: 'REGEX with the categories \\p{Lu}, \\p{Ll} and \\p{L} over every name, counted',
    text: 'SELECT (COUNT(*) AS ?n) WHERE { ?x ub:name ?n FILTER(REGEX(?n, "^\\\\p{Lu}\\\\p{Ll}+\\\\p{Lu}\\\\p{L}*[0-9]{2}$")) }',
  },
  {
    name: 'dates',
    description: 'xsd:date and xsd:dateTime casts, YEAR/MONTH/DAY/HOURS, grouped',
    text:
      'SELECT ?y ?m ?day ?h (COUNT(*) AS ?n) WHERE { ?x ub:name ?nm BIND(xsd:date(CONCAT("2001-", IF(STRLEN(?nm) > 15, "11", "03"), "-", IF(CONTAINS(?nm, "1"), "21", "09"))) AS ?d) ' +
      'BIND(xsd:dateTime(CONCAT(STR(?d), IF(STRLEN(?nm) > 18, "T18", "T07"), ":30:00Z")) AS ?t) BIND(YEAR(?d) AS ?y) BIND(MONTH(?d) AS ?m) BIND(DAY(?d) AS ?day) BIND(HOURS(?t) AS ?h) } GROUP BY ?y ?m ?day ?h',
  },
  { name: 'construct', description: 'CONSTRUCT two triples per advisor link', text: 'CONSTRUCT { ?x ub:hasAdvisor ?a . ?a ub:advises ?x } WHERE { ?x ub:advisor ?a }' },
  { name: 'describe', description: 'DESCRIBE one professor', text: `DESCRIBE <${D0}/FullProfessor0>` },
];

/** The systems compared. */
const SYSTEMS = ['quadlog', 'oxigraph'] as const;
type SystemName = (typeof SYSTEMS)[number];

/** An answer as rows of `(name, term)` pairs (a triple is a row of s, p, o). */
interface Answer {
  readonly count: number;
  rows(): Iterable<Iterable<readonly [string, TermLike]>>;
}

/** A system loaded with the data. */
interface Driver {
  run(text: string): Promise<Answer>;
  close(): void;
}

/** The measurements of one query in one child. */
interface Measured {
  readonly name: string;
  readonly count: number;
  readonly checksum: string;
  /** Wall ms of the first evaluation in this child. */
  readonly firstMs: number;
  /** Wall ms of the timed runs (empty in first-run children). */
  readonly wallMs: readonly number[];
  readonly error?: string;
}

/** What a child prints. */
interface ChildOutput {
  readonly system: SystemName;
  readonly queries: readonly Measured[];
}

interface TripleLike {
  readonly subject: TermLike;
  readonly predicate: TermLike;
  readonly object: TermLike;
}

function tripleRows(quads: readonly TripleLike[]): Answer {
  return {
    count: quads.length,
    rows: () => quads.map((q) => [['s', q.subject] as const, ['p', q.predicate] as const, ['o', q.object] as const]),
  };
}

function quadlogAnswer(answer: QueryAnswer): Answer {
  if (answer.type === 'quads') return tripleRows(answer.quads);
  if (answer.type === 'boolean') return { count: 1, rows: () => [[['ask', { termType: 'Literal', value: String(answer.value) }]]] };
  const { variables, rows } = answer;
  return {
    count: rows.length,
    *rows() {
      for (const row of rows) {
        const cells: Array<readonly [string, TermLike]> = [];
        row.forEach((t, i) => {
          if (t !== undefined) cells.push([variables[i]!, t]);
        });
        yield cells;
      }
    },
  };
}

async function quadlogDriver(): Promise<Driver> {
  const server = await Server.create({ roleName: 'admin', password: 'pw' });
  const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'pw');
  sc.createDataStore('bench');
  const ds = sc.newDataStoreConnection('bench');
  await ds.importData('ADD', { path: DATA_FILES.lubm1 }, { mediaType: 'application/n-triples' });
  await ds.evaluateUpdate(FILL_NAMED_GRAPH);
  return {
    run: async (text) => quadlogAnswer(await ds.evaluateQuery(text)),
    close: () => void server.shutdown(),
  };
}

/** The part of oxigraph's `Store` used here. */
interface OxigraphStore {
  load(input: Iterable<Uint8Array>, options: { readonly format: string }): void;
  query(query: string): boolean | ReadonlyArray<ReadonlyMap<string, TermLike>> | ReadonlyArray<TripleLike>;
  update(update: string): void;
}

function* slices(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, Math.min(bytes.length, i + size));
}

function oxigraphDriver(): Promise<Driver> {
  // loaded through require and typed by the interface above (see bench/query.ts)
  const { Store } = createRequire(import.meta.url)('oxigraph') as { Store: new () => OxigraphStore };
  const store = new Store();
  store.load(slices(gunzipSync(readFileSync(DATA_FILES.lubm1)), 1 << 20), { format: 'application/n-triples' });
  store.update(FILL_NAMED_GRAPH);
  return Promise.resolve({
    run(text) {
      const answer = store.query(text);
      if (typeof answer === 'boolean') return Promise.resolve({ count: 1, rows: () => [[['ask', { termType: 'Literal', value: String(answer) }] as const]] });
      if (typeof answer === 'string') throw new Error('oxigraph: unexpected string answer');
      const first = answer[0];
      if (first !== undefined && !(first instanceof Map)) return Promise.resolve(tripleRows(answer as readonly TripleLike[]));
      const rows = answer as ReadonlyArray<ReadonlyMap<string, TermLike>>;
      return Promise.resolve({ count: rows.length, rows: () => rows.map((m) => [...m]) });
    },
    close() {},
  });
}

async function timedRun(driver: Driver, text: string): Promise<{ answer: Answer; ms: number }> {
  await nextTurn();
  const start = process.hrtime.bigint();
  const answer = await driver.run(text);
  return { answer, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

const WARMUP_MS = 300;

/** Child mode: one system, the named queries; `first` only times each query's first evaluation. */
async function child(system: SystemName, names: readonly string[], first: boolean, runs: number, warmups: number): Promise<void> {
  const driver = system === 'quadlog' ? await quadlogDriver() : await oxigraphDriver();
  collect();
  const out: Measured[] = [];
  try {
    for (const q of MIX.filter((m) => names.includes(m.name))) {
      const text = PREFIXES + q.text;
      try {
        const r = await timedRun(driver, text);
        const checksum = answerChecksum(r.answer.rows());
        const wallMs: number[] = [];
        if (!first) {
          const start = performance.now();
          for (let i = 1; i < warmups || performance.now() - start < WARMUP_MS; i++) await timedRun(driver, text);
          for (let i = 0; i < runs; i++) {
            const t = await timedRun(driver, text);
            if (t.answer.count !== r.answer.count) throw new Error(`run ${i + 1} gave ${t.answer.count} rows, the first ${r.answer.count}`);
            wallMs.push(t.ms);
          }
        }
        out.push({ name: q.name, count: r.answer.count, checksum, firstMs: r.ms, wallMs });
      } catch (e) {
        out.push({ name: q.name, count: -1, checksum: '', firstMs: 0, wallMs: [], error: (e as Error).message });
      }
    }
  } finally {
    driver.close();
  }
  process.stdout.write(`${JSON.stringify({ system, queries: out } satisfies ChildOutput)}\n`);
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function ms(x: number): string {
  return Number.isNaN(x) ? '-' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

/** Runs the mix (parent mode) with the arguments after `--mix`. */
export async function runMix(argv: readonly string[]): Promise<void> {
  let runs = 20;
  let warmups = 10;
  let names = MIX.map((q) => q.name);
  let firstRuns = true;
  let one: { system: SystemName; first: boolean } | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--runs') runs = Number(value());
    else if (a === '--warmups') warmups = Number(value());
    else if (a === '--queries') {
      names = value().split(',');
      for (const n of names) if (!MIX.some((q) => q.name === n)) throw new Error(`--queries: unknown query '${n}'`);
    } else if (a === '--no-first') firstRuns = false;
    else if (a === '--one' || a === '--first-one') {
      const s = value();
      if (s !== 'quadlog' && s !== 'oxigraph') throw new Error(`unknown system '${s}'`);
      one = { system: s, first: a === '--first-one' };
    } else if (a !== '--mix') throw new Error(`unknown argument '${a}'`);
  }
  if (one) {
    await child(one.system, names, one.first, runs, warmups);
    return;
  }
  const script = fileURLToPath(import.meta.url);
  const cpu = cpus();
  console.log(`query mix on LUBM(1): first run (a fresh child per system and query) and median of ${runs} warm runs after ${warmups}+ warm-ups`);
  console.log(`node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? '?'}, load average at start ${loadavg()[0]!.toFixed(2)}`);
  const warm = new Map<SystemName, ChildOutput>();
  for (const system of SYSTEMS) warm.set(system, await runChild<ChildOutput>(script, ['--one', system, '--queries', names.join(','), '--runs', String(runs), '--warmups', String(warmups)], `${system} warm`));
  const firsts = new Map<string, Measured>();
  if (firstRuns) {
    for (const name of names) {
      for (const system of SYSTEMS) {
        const r = await runChild<ChildOutput>(script, ['--first-one', system, '--queries', name], `${system} ${name} first run`);
        firsts.set(`${system} ${name}`, r.queries[0]!);
      }
      process.stderr.write(`  first runs: ${name}\n`);
    }
  }
  let ok = true;
  const rows: string[][] = [];
  let slowerWarm = 0;
  let slowerFirst = 0;
  for (const name of names) {
    const q = warm.get('quadlog')!.queries.find((m) => m.name === name)!;
    const o = warm.get('oxigraph')!.queries.find((m) => m.name === name)!;
    const qf = firsts.get(`quadlog ${name}`);
    const of = firsts.get(`oxigraph ${name}`);
    const same = (a: Measured | undefined, b: Measured): boolean => a === undefined || (a.count === b.count && a.checksum === b.checksum);
    const agree = !q.error && !o.error && same(q, o) && same(qf, q) && same(of, o);
    if (!agree) {
      ok = false;
      console.error(`MISMATCH ${name}: quadlog ${q.error ?? `${q.count} (${q.checksum})`}, oxigraph ${o.error ?? `${o.count} (${o.checksum})`}`);
    }
    const wq = median(q.wallMs);
    const wo = median(o.wallMs);
    if (wq > wo) slowerWarm++;
    if (qf && of && qf.firstMs > of.firstMs) slowerFirst++;
    rows.push([
      name,
      String(q.count),
      agree ? 'yes' : 'NO',
      qf ? ms(qf.firstMs) : '-',
      of ? ms(of.firstMs) : '-',
      qf && of ? (qf.firstMs / of.firstMs).toFixed(2) : '-',
      ms(wq),
      ms(wo),
      (wq / wo).toFixed(2),
    ]);
  }
  console.log(table(['query', 'answers', 'agree', 'first quadlog', 'first oxigraph', 'ratio', 'warm quadlog', 'warm oxigraph', 'ratio'], rows, ['query']));
  console.log(`\n  ms; ratio = quadlog / oxigraph (< 1: quadlog is faster). Load average at end ${loadavg()[0]!.toFixed(2)}`);
  console.log(`goal check (every query at most oxigraph's time): warm ${names.length - slowerWarm}/${names.length}${firstRuns ? `, first run ${names.length - slowerFirst}/${names.length}` : ''}`);
  console.log(`answers: ${ok ? 'all agree' : 'MISMATCH (see above)'}`);
  if (!ok) process.exitCode = 1;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await runMix(process.argv.slice(2));
