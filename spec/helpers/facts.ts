/**
 * Test helper: every fact of a store's latest version with its status, read through the
 * store internals, as sorted lines `Table(term …) E|D|ED`.
 */
import type { Server } from '../../lib/index.js';
import { DERIVED, EXPLICIT } from '../../lib/storage/tuple-table.js';

/** The facts of `storeName` (only of `table`, when given) with their status, sorted. */
export function factsWithStatus(server: Server, storeName: string, table?: string): string[] {
  const store = server.dataStore(storeName);
  const state = store.facts.committed;
  const lines: string[] = [];
  for (const info of state.catalogue.tupleTables.values()) {
    if ((table !== undefined && info.name !== table) || info.type === 'builtin') continue;
    const t = state.table(info.id);
    const view = state.view(info.id);
    for (let row = 0; row < view.limit; row++) {
      if (!t.visible(row, view)) continue;
      const terms: string[] = [];
      for (let c = 0; c < t.arity; c++) terms.push(store.facts.dictionary.keyOf(t.get(row, c)));
      const s = t.statusIn(row, view);
      lines.push(`${info.name}(${terms.join(' ')}) ${s & EXPLICIT ? 'E' : ''}${s & DERIVED ? 'D' : ''}`);
    }
  }
  return lines.sort();
}
