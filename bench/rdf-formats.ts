/**
 * Load speed of LUBM(1) as N-Triples, Turtle, JSON-LD and RDF/XML: the data is exported once
 * in each format (in memory), then each text is imported into a fresh in-memory store through
 * `importData`, the formats taking turns, `runs` times each; the median and the fastest time
 * of each are printed with the rate in triples per second.
 *
 * Usage: `node --expose-gc --import tsx bench/rdf-formats.ts [runs]` (default 5).
 * @module
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { ConnectionFactory, Server } from '../lib/index.js';
import { LUBM } from '../spec/helpers/test-data.js';

const RUNS = Number(process.argv[2] ?? 5);
const URL = 'bench-rdf-formats';
const FORMATS = ['application/n-triples', 'text/turtle', 'application/ld+json', 'application/rdf+xml'] as const;

const server = await Server.create({ roleName: 'admin', password: 'pw', url: URL, parameters: { 'password-hashing': 'fast' } });
const sc = await ConnectionFactory.newServerConnection(URL, 'admin', 'pw');
sc.createDataStore('source');
const source = sc.newDataStoreConnection('source');
const nt = gunzipSync(readFileSync(LUBM.lubm1)).toString('utf8');
await source.importData('ADD', nt, { mediaType: 'application/n-triples' });
const triples = await source.countFacts();
await source.setPrefix('ub:', 'http://swat.cse.lehigh.edu/onto/univ-bench.owl#');
const texts = new Map<string, string>();
for (const f of FORMATS) texts.set(f, f === 'application/n-triples' ? nt : await source.exportDataToString(f));
const times = new Map<string, number[]>(FORMATS.map((f) => [f, []]));
let n = 0;
for (let run = 0; run < RUNS; run++) {
  for (const f of FORMATS) {
    const name = `s${++n}`;
    sc.createDataStore(name);
    const ds = sc.newDataStoreConnection(name);
    (globalThis as { gc?: () => void }).gc?.();
    const start = process.hrtime.bigint();
    const r = await ds.importData('ADD', texts.get(f)!, { mediaType: f });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (r.changedFacts !== triples) throw new Error(`${f}: ${r.changedFacts} facts, expected ${triples}`);
    times.get(f)!.push(ms);
    ds.close();
    sc.deleteDataStore(name);
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`LUBM(1): ${triples} triples, ${RUNS} runs each, load average ${(await import('node:os')).loadavg()[0]!.toFixed(2)}`);
for (const f of FORMATS) {
  const t = times.get(f)!;
  const m = median(t);
  console.log(`${f.padEnd(22)} ${(texts.get(f)!.length / 1e6).toFixed(1).padStart(5)} MB  median ${m.toFixed(0).padStart(6)} ms  fastest ${Math.min(...t).toFixed(0).padStart(6)} ms  ${Math.round(triples / (m / 1000)).toLocaleString('en')} triples/s`);
}
source.close();
sc.close();
await server.shutdown();
