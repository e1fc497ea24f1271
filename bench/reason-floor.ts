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
 *
 * It then probes the same tuples in batches, each sorted by the block of hash slots its tuples
 * fall into (a counting sort, as the hash's growth does), to test whether probing in slot
 * order would beat derivation order: the sort and the probes are timed together.
 *
 * Last, the whole storage work of the materialisation with no rule evaluation: a table holding
 * the rows the store held before reasoning (appended one by one, as a load does, so that it
 * has the same slack) takes every recorded derivation in order (`findOrAdd`: probes, the
 * appends of the new facts, the growth of the row arrays and of the membership hash); then a
 * second such table takes them as a set-at-a-time engine would apply a round: in batches
 * whose duplicates are dropped first (in a small hash set), each distinct tuple probed once.
 * Whatever evaluates the rules, a materialisation over this table costs at least that.
 * @module
 */
import { DEFAULT_TRIPLES_ID } from '../lib/storage/fact-store.js';
import { DERIVED, hashTuple, TupleTable } from '../lib/storage/tuple-table.js';
import { LUBM_FILES, LUBM_ONTOLOGY, RDFS_DATALOG } from './lib/reason-fixtures.js';
import { collect, num, withStore } from './lib/harness.js';

const dataset = process.argv[2] === 'lubm1' ? 'lubm1' : 'lubm10';

await withStore({}, async (ds, server) => {
  await ds.importData('ADD', { path: LUBM_FILES[dataset] }, { mediaType: 'application/n-triples' });
  await ds.importData('ADD', { path: LUBM_ONTOLOGY });

  // record the lookups of the materialisation; the original method is called with the table as `this`
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const findOrAdd = TupleTable.prototype.findOrAdd;
  const before = server.dataStore(ds.dataStoreName).facts.table(DEFAULT_TRIPLES_ID).exportRows();
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
  const slotBits = Math.log2(table.membershipSlots);
  const shift = Math.max(0, slotBits - 12);
  const mask = table.membershipSlots - 1;
  for (const batch of [1 << 12, 1 << 16, 1 << 18]) {
    const starts = new Uint32Array((mask >>> shift) + 2);
    const hashes = new Uint32Array(batch);
    const order = new Uint32Array(batch);
    for (let run = 1; run <= 2; run++) {
      collect();
      start = performance.now();
      let found = 0;
      for (let b0 = 0; b0 < derivations; b0 += batch) {
        const b1 = Math.min(derivations, b0 + batch);
        starts.fill(0);
        for (let k = b0; k < b1; k++) {
          const h = hashTuple(tuples, k * 3, 3);
          hashes[k - b0] = h;
          starts[((h & mask) >>> shift) + 1]!++;
        }
        for (let b = 1; b < starts.length; b++) starts[b]! += starts[b - 1]!;
        for (let k = b0; k < b1; k++) order[starts[(hashes[k - b0]! & mask) >>> shift]!++] = k;
        for (let j = 0; j < b1 - b0; j++) {
          const k = order[j]! * 3;
          probe[0] = tuples[k]!;
          probe[1] = tuples[k + 1]!;
          probe[2] = tuples[k + 2]!;
          if (table.findOrAdd(probe, 0) >= 0) found++;
        }
      }
      const ms = performance.now() - start;
      if (found !== derivations) throw new Error(`${derivations - found} of the recorded tuples were missing`);
      console.log(`  run ${run}: in slot order, batches of ${num(batch)}, sorting included: ${ms.toFixed(0)} ms (${((ms * 1e6) / derivations).toFixed(0)} ns each)`);
    }
  }
  const newFacts = (await ds.countFacts()) - before.flags.length;
  const rate = (ms: number): string => `${((newFacts / ms) * 1000 / 1e6).toFixed(2)}M new facts/s at most`;
  for (let run = 1; run <= 2; run++) {
    const fresh = tableOf(before);
    collect();
    start = performance.now();
    for (let i = 0; i < tuples.length; i += 3) {
      probe[0] = tuples[i]!;
      probe[1] = tuples[i + 1]!;
      probe[2] = tuples[i + 2]!;
      fresh.findOrAdd(probe, DERIVED);
    }
    const ms = performance.now() - start;
    console.log(`  run ${run}: storage alone, derivation order (probes, appends, growth): ${ms.toFixed(0)} ms, ${rate(ms)}`);
  }
  for (let run = 1; run <= 2; run++) {
    const fresh = tableOf(before);
    collect();
    start = performance.now();
    const distinct = applyInBatches(fresh, tuples, 1 << 16);
    const ms = performance.now() - start;
    console.log(`  run ${run}: storage alone, batches of 65,536 deduplicated first (${num(distinct)} probes): ${ms.toFixed(0)} ms, ${rate(ms)}`);
  }
});

/** A triple table holding `rows`, appended one by one (the slack of a loaded table). */
function tableOf(rows: { data: Uint32Array; flags: Uint8Array }): TupleTable {
  const table = new TupleTable(3);
  const t = new Uint32Array(3);
  for (let r = 0; r < rows.flags.length; r++) {
    t[0] = rows.data[r * 3]!;
    t[1] = rows.data[r * 3 + 1]!;
    t[2] = rows.data[r * 3 + 2]!;
    table.findOrAdd(t, rows.flags[r]!);
  }
  return table;
}

/**
 * Applies the tuples to `table` a batch at a time, each batch's duplicates dropped first (an
 * open-addressing set of tuple indexes, cleared per batch); returns how many tuples were probed.
 */
function applyInBatches(table: TupleTable, tuples: Uint32Array, batch: number): number {
  const seen = new Int32Array(batch * 2);
  const mask = seen.length - 1;
  const probe = new Uint32Array(3);
  let probed = 0;
  for (let b0 = 0; b0 < tuples.length / 3; b0 += batch) {
    seen.fill(-1);
    const b1 = Math.min(tuples.length / 3, b0 + batch);
    for (let k = b0; k < b1; k++) {
      let i = hashTuple(tuples, k * 3, 3) & mask;
      let dup = false;
      for (;;) {
        const o = seen[i]!;
        if (o < 0) break;
        if (tuples[o * 3] === tuples[k * 3] && tuples[o * 3 + 1] === tuples[k * 3 + 1] && tuples[o * 3 + 2] === tuples[k * 3 + 2]) {
          dup = true;
          break;
        }
        i = (i + 1) & mask;
      }
      if (dup) continue;
      seen[i] = k;
      probe[0] = tuples[k * 3]!;
      probe[1] = tuples[k * 3 + 1]!;
      probe[2] = tuples[k * 3 + 2]!;
      table.findOrAdd(probe, DERIVED);
      probed++;
    }
  }
  return probed;
}
