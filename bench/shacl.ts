/**
 * SHACL benchmark: LUBM(10) (or LUBM(1) with `--dataset lubm1`) with its OWL 2 RL
 * materialisation (univ-bench axioms, `importAxiomsFromTriples`), validated against the 30
 * shapes of `bench/fixtures/univ-bench-shapes.ttl`, held in the named graph
 * `http://example.org/univ-bench-shapes` of the store.
 *
 * Usage: `npm run bench:shacl -- [--dataset lubm1|lubm10] [--runs <n>] [--commits <n>]`
 * (i.e. `node --expose-gc --max-old-space-size=6144 --import tsx bench/shacl.ts …`).
 *
 * In one process:
 * 1. **full validation**: quadlog's `validate({ shapesGraph })` over the default graph
 *    (explicit and derived facts), `--runs` times (default 3), against `shacl-engine`'s
 *    `Validator` over an N3.js `Store` holding the same facts (the default graph as quadlog
 *    exports it, materialisation included; building it is not timed), the same number of times,
 *    alternating; and `shacl-engine` again over quadlog's own RDF/JS `DatasetCore` view of a
 *    snapshot (`DataStoreConnection.dataset()`: the data graph is its default graph, the shapes
 *    graph its named graph of shapes; taking and closing the view are timed). The three
 *    reports must agree: conformance, and the number of results per constraint component.
 * 2. **incremental validation of a 1-triple commit**: a store built the same way with
 *    `shacl-validation-on-commit=on` (the shapes imported last: that commit validates
 *    everything), then `--commits` (default 40) commits that each add one triple (a
 *    graduate student takes one more graduate course) and as many that remove it again; the
 *    same commits on the store without validation; the figure is the median time of a commit
 *    with validation minus the median without (each measured A/B alternating). The commits must
 *    conform (LUBM(10) conforms to the 30 shapes).
 *
 * Figures: wall milliseconds (medians), and the one-minute load average. Goals (reported
 * only): full validation faster than shacl-engine; a 1-triple commit validated in under 5 ms.
 * @module
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DataFactory, Parser, Store } from 'n3';
import type * as RDF from '@rdfjs/types';
import { Validator } from 'shacl-engine';
import type { DataStoreConnection } from '../lib/index.js';
import { checkImport, withStore } from './lib/harness.js';
import { LUBM_FILES, LUBM_ONTOLOGY } from './lib/reason-fixtures.js';

const SHAPES_FILE = fileURLToPath(new URL('./fixtures/univ-bench-shapes.ttl', import.meta.url));
const SHAPES_GRAPH = 'http://example.org/univ-bench-shapes';
const SH = 'http://www.w3.org/ns/shacl#';
const UB = 'http://swat.cse.lehigh.edu/onto/univ-bench.owl#';
const NT = 'application/n-triples';

/** Goal: a 1-triple commit validated in under this many milliseconds. */
export const GOAL_INCREMENTAL_MS = 5;

const { values } = parseArgs({ options: { dataset: { type: 'string', default: 'lubm10' }, runs: { type: 'string', default: '3' }, commits: { type: 'string', default: '40' } } });
const dataset = values.dataset as 'lubm1' | 'lubm10';
if (!(dataset in LUBM_FILES)) throw new Error(`unknown data set '${dataset}' (lubm1 or lubm10)`);
const runs = Number(values.runs);
const commits = Number(values.commits);

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Builds the store: data, ontology and axioms (materialised), then the shapes (last: with validation on commit, that commit validates everything). */
async function build(ds: DataStoreConnection): Promise<void> {
  await checkImport('data', ds.importData('ADD', { path: LUBM_FILES[dataset] }, { mediaType: NT }));
  await checkImport('ontology', ds.importData('ADD', { path: LUBM_ONTOLOGY }));
  await checkImport('axioms', ds.importAxiomsFromTriples());
  await checkImport('shapes', ds.importData('ADD', { path: SHAPES_FILE }, { defaultGraph: SHAPES_GRAPH }));
}

/** The number of results per constraint component (`sh:` names). */
function perComponent(components: Iterable<string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of components) {
    const name = c.replace(SH, 'sh:');
    out[name] = (out[name] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(out).sort());
}

/** shacl-engine's report: conformance and the components of its results. */
interface EngineReport {
  readonly conforms: boolean;
  readonly results: ReadonlyArray<{ readonly constraintComponent?: RDF.Term }>;
}

async function main(): Promise<void> {
  const problems: string[] = [];
  const factory = { ...DataFactory, dataset: (quads?: RDF.Quad[]) => new Store(quads) };
  await withStore({}, async (ds) => {
    const start = process.hrtime.bigint();
    await build(ds);
    console.log(`${dataset}: ${await ds.countFacts()} facts after materialisation (built in ${(ms(start) / 1000).toFixed(1)} s)`);
    // LUBM conforms to the shapes: some faults make the reports worth comparing (100 professors
    // lose their name, 100 students get a second advisor who is a course)
    await ds.evaluateUpdate(`PREFIX ub: <${UB}>
      DELETE { ?s ub:name ?n } WHERE { { SELECT ?s ?n WHERE { ?s a ub:FullProfessor ; ub:name ?n } ORDER BY ?s LIMIT 100 } } ;
      INSERT { ?s ub:advisor ?c } WHERE { { SELECT ?s (MIN(?course) AS ?c) WHERE { ?s a ub:GraduateStudent ; ub:takesCourse ?course } GROUP BY ?s ORDER BY ?s LIMIT 100 } }`);

    // the same facts for shacl-engine: the default graph (explicit and derived) and the shapes
    const data = new Store();
    for await (const q of ds.match(null, null, null, DataFactory.defaultGraph())) data.addQuad(DataFactory.quad(q.subject, q.predicate, q.object));
    const shapes = new Store(new Parser().parse(readFileSync(SHAPES_FILE, 'utf8')));
    console.log(`N3.js store: ${data.size} triples; shapes: ${shapes.size} triples`);

    const quadlogMs: number[] = [];
    const engineMs: number[] = [];
    const viewMs: number[] = [];
    let ours = await ds.validate({ shapesGraph: SHAPES_GRAPH });
    let theirs: EngineReport | undefined;
    let overView: EngineReport | undefined;
    for (let r = 0; r < runs; r++) {
      let t = process.hrtime.bigint();
      ours = await ds.validate({ shapesGraph: SHAPES_GRAPH });
      quadlogMs.push(ms(t));
      t = process.hrtime.bigint();
      const validator = new Validator(shapes, { factory });
      theirs = await validator.validate({ dataset: data });
      engineMs.push(ms(t));
      // shacl-engine over quadlog's snapshot view: shapes and data are views of the same snapshot
      t = process.hrtime.bigint();
      const view = await ds.dataset();
      try {
        const overQuadlog = new Validator(view.match(null, null, null, DataFactory.namedNode(SHAPES_GRAPH)), { factory });
        overView = await overQuadlog.validate({ dataset: view.match(null, null, null, DataFactory.defaultGraph()) });
      } finally {
        view.close();
      }
      viewMs.push(ms(t));
    }
    const oursByComponent = perComponent(ours.results.map((x) => x.sourceConstraintComponent));
    const byComponent = (report: EngineReport | undefined): Record<string, number> => perComponent((report?.results ?? []).map((x) => x.constraintComponent?.value ?? '?'));
    const rows: Array<[string, number[], boolean | undefined, number | undefined, Record<string, number>]> = [
      ['quadlog validate()', quadlogMs, ours.conforms, ours.results.length, oursByComponent],
      ['shacl-engine over an N3.js Store', engineMs, theirs?.conforms, theirs?.results.length, byComponent(theirs)],
      ["shacl-engine over quadlog's dataset() view", viewMs, overView?.conforms, overView?.results.length, byComponent(overView)],
    ];
    console.log(`full validation (${runs} run(s) each, alternating; load ${loadavg()[0]!.toFixed(2)}):`);
    console.log(`| validator | median ms | runs (ms) | conforms | results |`);
    console.log(`|---|---|---|---|---|`);
    for (const [name, times, conforms, count] of rows) console.log(`| ${name} | ${median(times).toFixed(0)} | ${times.map((x) => x.toFixed(0)).join(', ')} | ${conforms} | ${count} |`);
    for (const [name, , , , components] of rows) console.log(`results of ${name}: ${JSON.stringify(components)}`);
    for (const [name, , conforms, , components] of rows.slice(1)) {
      if (ours.conforms !== conforms || JSON.stringify(oursByComponent) !== JSON.stringify(components)) problems.push(`the reports of quadlog and ${name} differ`);
    }
    if (median(quadlogMs) >= median(engineMs)) problems.push('goal missed: full validation is not faster than shacl-engine');
  });

  // incremental: the same 1-triple commits with and without validation on commit, alternating
  const students: string[] = [];
  const courses: string[] = [];
  const timings = { on: [] as number[], off: [] as number[] };
  await withStore({ 'shacl-validation-on-commit': 'on', 'shacl-shapes-graph': SHAPES_GRAPH }, async (on) => {
    await build(on);
    await withStore({}, async (off) => {
      await build(off);
      const rows = await on.evaluateQuery(`SELECT ?s ?c WHERE { ?s a <${UB}GraduateStudent> . ?c a <${UB}GraduateCourse> } LIMIT ${commits * 50}`);
      if (rows.type !== 'bindings') throw new Error('expected bindings');
      for (const row of rows.rows) {
        students.push(row[0]!.value);
        courses.push(row[1]!.value);
      }
      for (let i = 0; i < commits; i++) {
        const k = (i * 37) % students.length;
        const triple = `<${students[k]}> <${UB}takesCourse> <${courses[(k * 7) % courses.length]}> .`;
        for (const [store, list] of (i % 2 === 0 ? [[on, timings.on], [off, timings.off]] : [[off, timings.off], [on, timings.on]]) as Array<[DataStoreConnection, number[]]>) {
          let t = process.hrtime.bigint();
          await store.importData('ADD', triple, { mediaType: NT });
          list.push(ms(t));
          t = process.hrtime.bigint();
          await store.importData('DELETE', triple, { mediaType: NT });
          list.push(ms(t));
        }
      }
    });
  });
  const extra = median(timings.on) - median(timings.off);
  console.log(`1-triple commit: ${median(timings.on).toFixed(2)} ms with validation on commit, ${median(timings.off).toFixed(2)} ms without (medians of ${timings.on.length}); validation ${extra.toFixed(2)} ms; load ${loadavg()[0]!.toFixed(2)}`);
  if (extra >= GOAL_INCREMENTAL_MS) problems.push(`goal missed: a 1-triple commit's validation takes ${extra.toFixed(2)} ms (goal < ${GOAL_INCREMENTAL_MS} ms)`);
  for (const p of problems) console.log(`! ${p}`);
  if (problems.some((p) => !p.startsWith('goal'))) process.exitCode = 1;
}

await main();
