/**
 * Loading the SHACL-SPARQL runner (and with it the SPARQL evaluator) the first time a shapes
 * graph needs it, not when quadlog is imported: `import()` under ES modules, `require` where
 * lib/ was loaded as CommonJS (one copy of each module either way, so that `instanceof` holds
 * for error classes; see sparql/lazy-load.ts).
 * @module
 */
import { createRequire } from 'node:module';
import { loadedAsCommonJS } from '../sparql/lazy-load.js';

type Runner = typeof import('./sparql-constraints.js');

let runner: Promise<Runner> | undefined;

/** The SHACL-SPARQL runner module, loaded on first use. */
export function loadSparqlConstraints(): Promise<Runner> {
  return (runner ??= loadedAsCommonJS ? Promise.resolve(createRequire(import.meta.url)('./sparql-constraints.js') as Runner) : import('./sparql-constraints.js'));
}
