/**
 * Constraints on a store's content, as RDFox has them: a transaction whose result has an
 * instance of `rdfox:ConstraintViolation` in the default graph (an explicit fact, or one that
 * rules derive) is not committed. Rules that derive such instances (say, from a NOT EXISTS, or
 * from an update of the commit procedure reading the SHACL tables) therefore act as
 * constraints. The check runs after the commit procedure and reasoning, before the commit is
 * written; it reads one index lookup when no violation exists.
 * @module
 */
import type { TermDictionary } from '../model/dictionary.js';
import { ConstraintViolationError } from '../model/errors.js';
import { RDF_NS } from '../model/terms.js';
import { RDFOX_NS } from '../sparql/tuple-table-syntax.js';
import { DEFAULT_TRIPLES_ID, type StoreState } from '../storage/fact-store.js';
import { TableCursor } from '../storage/table-cursor.js';
import { ANY, DERIVED, EXPLICIT } from '../storage/tuple-table.js';

/** The class whose instances in the default graph make a commit fail. */
export const CONSTRAINT_VIOLATION = `${RDFOX_NS}ConstraintViolation`;

const RDF_TYPE = `${RDF_NS}type`;

/** How many violations, and how many properties of each, an error shows. */
const SHOWN = 10;

/** The facts of the default graph matching `s p o` (ANY where free), up to `max`, and whether there are more. */
function subjects(state: StoreState, s: number, p: number, o: number, max: number): { readonly rows: number[][]; readonly more: boolean } {
  const table = state.table(DEFAULT_TRIPLES_ID);
  const cursor = new TableCursor().open(table, state.view(DEFAULT_TRIPLES_ID), Int32Array.of(s, p, o), EXPLICIT | DERIVED);
  const rows: number[][] = [];
  let more = false;
  for (let row = cursor.next(); row >= 0; row = cursor.next()) {
    if (rows.length === max) {
      more = true;
      break;
    }
    rows.push([table.get(row, 0), table.get(row, 1), table.get(row, 2)]);
  }
  cursor.close();
  return { rows, more };
}

/** Counts the instances of `rdfox:ConstraintViolation` in the default graph of `state`. */
function countViolations(state: StoreState, type: number, violation: number): number {
  const table = state.table(DEFAULT_TRIPLES_ID);
  const cursor = new TableCursor().open(table, state.view(DEFAULT_TRIPLES_ID), Int32Array.of(ANY, type, violation), EXPLICIT | DERIVED);
  let n = 0;
  for (let row = cursor.next(); row >= 0; row = cursor.next()) n++;
  return n;
}

/**
 * Throws {@link ConstraintViolationError} when the default graph of `state` has an instance of
 * `rdfox:ConstraintViolation`; the message shows up to ten properties of up to ten of them
 * unless `shown()` says no (asked only when there are violations).
 */
export function checkConstraints(state: StoreState, dictionary: TermDictionary, shown: () => boolean): void {
  const type = dictionary.lookup(`<${RDF_TYPE}>`);
  const violation = dictionary.lookup(`<${CONSTRAINT_VIOLATION}>`);
  if (type < 0 || violation < 0) return;
  const instances = subjects(state, ANY, type, violation, SHOWN);
  if (instances.rows.length === 0) return;
  const count = instances.more ? countViolations(state, type, violation) : instances.rows.length;
  if (!shown()) throw new ConstraintViolationError(count, undefined);
  const blocks = instances.rows.map(([subject]) => {
    const { rows, more } = subjects(state, subject!, ANY, ANY, SHOWN);
    const lines = rows.map(([, p, o]) => `    ${dictionary.keyOf(p!)} ${dictionary.keyOf(o!)}`);
    if (more) lines.push('    …');
    return `  ${dictionary.keyOf(subject!)}\n${lines.join('\n')}`;
  });
  if (instances.more) blocks.push(`  … and ${count - SHOWN} more`);
  throw new ConstraintViolationError(count, blocks.join('\n'));
}
