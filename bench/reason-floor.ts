/**
 * The storage floor of materialising LUBM(10) with the RDFS rules of `bench/reason.ts`: the
 * time the derivations' membership probes take alone, with no rule evaluation around them.
 *
 * Usage: `node --expose-gc --import tsx bench/reason-floor.ts [lubm1|lubm10]`.
 *
 * The run loads the data and the ontology, materialises the RDFS rules while recording every
 * tuple the materialisation looks up in the triple table's membership hash (each derivation is
 * one `findOrAdd`), then probes the materialised table for the same tuples in the same order,
 * three times, and prints the times next to the materialisation's. Every probe then finds its
 * fact, as the repeated derivations of the materialisation did. Appending the new rows and
 * growing the hash come on top of it in a real run.
 * @module
 */
import { DEFAULT_TRIPLES_ID } from '../lib/storage/fact-store.js';
import { TupleTable } from '../lib/storage/tuple-table.js';
import { LUBM_FILES, LUBM_ONTOLOGY, RDFS_DATALOG } from './lib/reason-fixtures.js';
import { collect, num, withStore } from './lib/harness.js';

const dataset = process.argv[2] === 'lubm1' ? 'lubm1' : 'lubm10';

await withStore({}, async (ds, server) => {
  await ds.importData('ADD', { path: LUBM_FILES[dataset] }, { mediaType: 'application/n-triples' });
  await ds.importData('ADD', { path: LUBM_ONTOLOGY });

  // record the lookups of the materialisation; the original method is called with the table as `this`
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const findOrAdd = TupleTable.prototype.findOrAdd;
  const recorded: number[] = [];
  TupleTable.prototype.findOrAdd = function (this: TupleTable, tuple: ArrayLike<number>, status: number): number {
    if (this.arity === 3) recorded.push(tuple[0]!, tuple[1]!, tuple[2]!);
    return findOrAdd.call(this, tuple, status);
  };
  collect();
  let start = performance.now();
  try {
    await ds.importData('ADD', RDFS_DATALOG, { mediaType: 'application/x.datalog' });
  } finally {
    TupleTable.prototype.findOrAdd = findOrAdd;
  }
  const materialise = performance.now() - start;

  const table = server.dataStore(ds.dataStoreName).facts.table(DEFAULT_TRIPLES_ID);
  const tuples = Uint32Array.from(recorded);
  const probe = new Uint32Array(3);
  const derivations = tuples.length / 3;
  console.log(`${dataset}: materialisation ${materialise.toFixed(0)} ms, ${num(derivations)} derivations (membership lookups), ${num(await ds.countFacts())} facts after`);
  for (let run = 1; run <= 3; run++) {
    collect();
    start = performance.now();
    let found = 0;
    for (let i = 0; i < tuples.length; i += 3) {
      probe[0] = tuples[i]!;
      probe[1] = tuples[i + 1]!;
      probe[2] = tuples[i + 2]!;
      if (table.findOrAdd(probe, 0) >= 0) found++;
    }
    const ms = performance.now() - start;
    if (found !== derivations) throw new Error(`${derivations - found} of the recorded tuples were missing`);
    console.log(`  run ${run}: the same ${num(derivations)} lookups alone take ${ms.toFixed(0)} ms (${((ms * 1e6) / derivations).toFixed(0)} ns each)`);
  }
});
