/**
 * SPARQL 1.1 Update inside a write transaction: INSERT/DELETE DATA, DELETE/INSERT … WHERE
 * (with USING and WITH), DELETE WHERE, LOAD, CLEAR, DROP, CREATE, ADD, MOVE and COPY. The
 * changes are explicit facts; reasoning follows at commit as for any other change.
 *
 * Parsing is synchronous (parse.ts, which loads the parser on first use); the execution
 * (update-execution.ts, with the engine) is loaded by the first update that runs.
 * @module
 */
import type { Algebra } from '../expressions/sparql-libraries.js';
import { loadedAsCommonJS, requireSparqlModule } from './lazy-load.js';
import type { UpdateTarget } from './types.js';

export { parseUpdate } from './parse.js';
export type { UpdateDataset, UpdateTarget } from './types.js';

let executor: Promise<typeof import('./update-execution.js')> | undefined;

/** Runs every operation of an update (parsed by {@link parseUpdate}), in order. */
export async function executeUpdate(op: Algebra.Operation, target: UpdateTarget, baseIRI: string): Promise<void> {
  executor ??= loadedAsCommonJS ? requireSparqlModule('./update-execution.js') : import('./update-execution.js');
  return (await executor).executeUpdate(op, target, baseIRI);
}
