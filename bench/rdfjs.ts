/**
 * RDF/JS benchmark: quadlog as a consumer and a source of RDF/JS quads, in one process.
 *
 * Usage: `npm run bench:rdfjs -- [--runs N] [--part import|comunica] [--file <nt.gz>]`
 * (i.e. `node --expose-gc --import tsx bench/rdfjs.ts …`; default: both parts, 3 runs,
 * LUBM(10) for the import and LUBM(1) for Comunica).
 *
 * - **import**: the gunzipped N-Triples of LUBM(10) loaded into a fresh store three ways,
 *   alternating, `--runs` times each (medians): `importData('ADD', bytes)` (the N-Triples text
 *   path, parsing included); `importData('ADD', quads)` with `quads` an array N3.js's `Parser`
 *   made before the clock starts (the cost of taking RDF/JS terms in); and N3.js's
 *   `StreamParser` piped into `importData` (parsing by N3.js included). The goal: the array
 *   within 1.5× of the text path.
 * - **comunica**: the 14 LUBM queries on LUBM(1) by `@comunica/query-sparql-rdfjs`, once over a
 *   quadlog connection (its `match()` and `countQuads()`) and once over an N3.js `Store` with
 *   the same triples, alternating, `--runs` times each (medians); every answer count is checked
 *   against test-data/lubm/answers-lubm1.tsv (without reasoning).
 *
 * The one-minute load average is printed with every figure: the machine may be shared.
 * @module
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { Parser, Store as N3Store, StreamParser } from 'n3';
import type * as RDF from '@rdfjs/types';
import { N_TRIPLES } from '../lib/index.js';
import { checkImport, num, table, timed, withStore } from './lib/harness.js';
import { LUBM, lubmQuery } from '../spec/helpers/test-data.js';
import { comunicaEngine, type SparqlEngine } from '../spec/helpers/rdfjs-packages.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    part: { type: 'string', multiple: true },
    file: { type: 'string' },
  },
});
const RUNS = Math.max(1, Number(values.runs));
const PARTS = values.part && values.part.length > 0 ? new Set(values.part) : new Set(['import', 'comunica']);

/** The median of some numbers. */
function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The load average now, for the figures. */
function load(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

// ---------------------------------------------------------------- import

/** The ways of importing that the import part compares. */
const IMPORTS = ['n-triples text', 'RDF/JS array', 'RDF/JS stream (N3 parsing included)'] as const;

async function importPart(): Promise<void> {
  const file = values.file ?? LUBM.lubm10;
  const bytes = gunzipSync(readFileSync(file));
  const quads = new Parser({ format: 'N-Triples' }).parse(bytes.toString('utf8'));
  console.log(`import: ${file}, ${num(quads.length)} triples, ${RUNS} runs each, load average before: ${load()}`);
  const seconds = new Map<string, number[]>(IMPORTS.map((m) => [m, []]));
  const loads: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    for (const way of IMPORTS) {
      await withStore({}, async (ds) => {
        const { value, timing } = await timed(way, () => {
          switch (way) {
            case 'n-triples text':
              return checkImport(way, ds.importData('ADD', bytes, { mediaType: N_TRIPLES }));
            case 'RDF/JS array':
              return checkImport(way, ds.importData('ADD', quads));
            default:
              return checkImport(way, ds.importData('ADD', Readable.from([bytes]).pipe(new StreamParser({ format: 'N-Triples' }))));
          }
        });
        if (value.changedFacts !== quads.length) throw new Error(`${way}: ${value.changedFacts} facts changed, expected ${quads.length}`);
        seconds.get(way)!.push(timing.seconds);
        loads.push(timing.load1);
      });
    }
  }
  const text = median(seconds.get('n-triples text')!);
  console.log(
    table(
      ['import', 'median s', 'triples/s', 'vs text'],
      IMPORTS.map((way) => {
        const s = median(seconds.get(way)!);
        return [way, s.toFixed(3), num(quads.length / s), `${(s / text).toFixed(2)}x`];
      }),
    ),
  );
  const ratio = median(seconds.get('RDF/JS array')!) / text;
  console.log(`goal: RDF/JS array within 1.5x of the text path: ${ratio.toFixed(2)}x ${ratio <= 1.5 ? 'met' : 'NOT met'} (load average during: ${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)})\n`);
}

// ---------------------------------------------------------------- comunica

/** The answer counts of the LUBM queries on LUBM(1) without reasoning, by query number. */
function expectedCounts(): Map<number, number> {
  const rows = readFileSync(LUBM.answers, 'utf8').trim().split('\n').slice(1);
  return new Map(rows.map((r) => r.split('\t')).map((c) => [Number(c[0]!.slice(1)), Number(c[3])]));
}

/** The number of answers of a SELECT query by Comunica over `source`. */
async function countAnswers(engine: SparqlEngine, query: string, source: RDF.Source): Promise<number> {
  const bindings = await engine.queryBindings(query, { sources: [source] });
  let n = 0;
  for await (const solution of bindings) n += solution.size >= 0 ? 1 : 0;
  return n;
}

async function comunicaPart(): Promise<void> {
  const bytes = gunzipSync(readFileSync(LUBM.lubm1));
  const quads = new Parser({ format: 'N-Triples' }).parse(bytes.toString('utf8'));
  const n3 = new N3Store(quads);
  const expected = expectedCounts();
  const engine = await comunicaEngine();
  console.log(`comunica: LUBM(1), ${num(quads.length)} triples, ${RUNS} runs each, load average before: ${load()}`);
  await withStore({}, async (ds) => {
    await checkImport('LUBM(1)', ds.importData('ADD', bytes, { mediaType: N_TRIPLES }));
    const rows: string[][] = [];
    const problems: string[] = [];
    const totals = { quadlog: 0, n3: 0 };
    for (const [q, want] of expected) {
      const query = readFileSync(lubmQuery(q), 'utf8');
      const times = { quadlog: [] as number[], n3: [] as number[] };
      for (let run = 0; run < RUNS; run++) {
        for (const [name, source] of [['quadlog', ds], ['n3', n3]] as const) {
          const { value, timing } = await timed(`q${q} ${name}`, () => countAnswers(engine, query, source));
          if (value !== want) problems.push(`Q${q} over ${name}: ${value} answers, expected ${want}`);
          times[name].push(timing.seconds * 1000);
        }
      }
      const a = median(times.quadlog);
      const b = median(times.n3);
      totals.quadlog += a;
      totals.n3 += b;
      rows.push([`Q${q}`, String(want), a.toFixed(1), b.toFixed(1), `${(a / b).toFixed(2)}x`]);
    }
    rows.push(['total', '', totals.quadlog.toFixed(1), totals.n3.toFixed(1), `${(totals.quadlog / totals.n3).toFixed(2)}x`]);
    console.log(table(['query', 'answers', 'quadlog ms', 'N3 Store ms', 'ratio'], rows));
    console.log(`load average after: ${load()}`);
    if (problems.length > 0) {
      console.error(`\n!!! WRONG ANSWERS !!!\n  ${problems.join('\n  ')}`);
      process.exitCode = 1;
    } else console.log('every answer count is right');
  });
}

if (PARTS.has('import')) await importPart();
if (PARTS.has('comunica')) await comunicaPart();
