/**
 * SHACL validation of a store: SHACL Core and SHACL-SPARQL over the store's indexes
 * ({@link validate}), the report as quads ({@link reportQuads}), and the focus nodes a change
 * can affect ({@link affectedFocusNodes}), for validating a commit incrementally.
 * @module
 */
import type { CompiledShapes } from './compiled.js';
import { loadSparqlConstraints } from './lazy-load.js';
import { Validation } from './validator.js';
import type { ShaclDataSelection, ShaclOptions, ShaclReport } from './types.js';

export type { ShaclDataSelection, ShaclOptions, ShaclPath, ShaclReport, ShaclResult } from './types.js';
export { ShaclShapeError } from './errors.js';
export { reportQuads } from './report.js';
export { affectedFocusNodes, changesShapes } from './affected.js';
export { CompiledShapes } from './compiled.js';

/**
 * Validates the selection's data graph against the shapes of its shapes graph (with
 * `compiled`, the shapes as read for another state whose shapes graph held the same).
 * @throws ShaclShapeError when a shape a target reaches is ill-formed or a SPARQL constraint is not allowed.
 * @throws InterruptedError when the interrupter stops it.
 */
export async function validate(selection: ShaclDataSelection, options: ShaclOptions = {}, compiled?: CompiledShapes): Promise<ShaclReport> {
  const validation = new Validation(selection, compiled);
  if (validation.hasSparql()) {
    const { SparqlRunner } = await loadSparqlConstraints();
    validation.sparql = new SparqlRunner(selection);
  }
  return validation.run(options);
}
