/**
 * RDFox's five built-in SHACL tuple tables, whose facts are the triples of a validation
 * report (see docs/shacl.md):
 *
 * ```
 * SHACL    { DataGraph [FactDomain] ShapesGraph S P O }
 * SHACL_NN { DataGraph [FactDomain] ShapesGraph S P O }
 * SHACL_ND { DataGraph [FactDomain] S P O }
 * SHACL_DN { [FactDomain] ShapesGraph S P O }
 * SHACL_DD { [FactDomain] S P O }
 * ```
 *
 * `N` stands for a named graph given as an argument, `D` for the default graph (data graph
 * first, shapes graph second); FactDomain is `rdfox:all` (the default), `rdfox:explicit` or
 * `rdfox:derived`, and selects the facts of the data graph. The arguments before S P O must be constants of the query; the report of each
 * combination is computed once per query, before it is evaluated ({@link ComputedTables} of
 * the sparql layer), as the role may read it (`checkValidationAccess`).
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { type Interrupter, withDeadline } from '../model/control.js';
import type { TermDictionary } from '../model/dictionary.js';
import { QueryCompilationError } from '../model/errors.js';
import { BUILTIN_TABLE_TYPE, type TupleTableInfo } from '../storage/catalogue.js';
import type { FactAccess } from '../storage/fact-access.js';
import type { StoreState } from '../storage/fact-store.js';
import type { ComputedTables } from '../sparql/types.js';
import { RDFOX_NS } from '../sparql/tuple-table-syntax.js';
import type { ValidationOptions } from './shacl-report.js';
import { checkValidationAccess, reportInTerms, validateState } from './shacl-validation.js';

/** The SHACL tables: whether each takes a data graph and a shapes graph as arguments. */
export const SHACL_TABLES: ReadonlyMap<string, { readonly data: boolean; readonly shapes: boolean }> = new Map([
  ['SHACL', { data: true, shapes: true }],
  ['SHACL_NN', { data: true, shapes: true }],
  ['SHACL_ND', { data: true, shapes: false }],
  ['SHACL_DN', { data: false, shapes: true }],
  ['SHACL_DD', { data: false, shapes: false }],
]);

/** The catalogue entry of the SHACL table `name` with an id (arity: its graphs, an optional fact domain, S P O). */
export function shaclTableInfo(name: string): (id: number) => TupleTableInfo {
  const table = SHACL_TABLES.get(name)!;
  const graphs = (table.data ? 1 : 0) + (table.shapes ? 1 : 0);
  return (id) => ({ name, id, type: BUILTIN_TABLE_TYPE, minArity: graphs + 3, maxArity: graphs + 4, parameters: {} });
}

/** The validation options of an atom's leading arguments (graphs and fact domain). */
function optionsOf(table: string, args: readonly RDF.Term[]): ValidationOptions {
  const shape = SHACL_TABLES.get(table)!;
  const graphs = (shape.data ? 1 : 0) + (shape.shapes ? 1 : 0);
  const withDomain = args.length === graphs + 1;
  let i = 0;
  const graph = (what: string): string => {
    const t = args[i++]!;
    if (t.termType !== 'NamedNode') throw new QueryCompilationError(`the ${what} of ${table} must be the IRI of a named graph (${table.endsWith('D') || what === 'data graph' ? 'the table takes the default graph where its name says D' : ''})`.replace(' ()', ''));
    return t.value;
  };
  const dataGraph = shape.data ? graph('data graph') : undefined;
  let factDomain: ValidationOptions['factDomain'];
  if (withDomain) {
    const t = args[i++]!;
    if (t.termType === 'NamedNode' && t.value === `${RDFOX_NS}all`) factDomain = 'all';
    else if (t.termType === 'NamedNode' && t.value === `${RDFOX_NS}explicit`) factDomain = 'explicit';
    else if (t.termType === 'NamedNode' && t.value === `${RDFOX_NS}derived`) factDomain = 'derived';
    else throw new QueryCompilationError(`${table}: the fact domain must be rdfox:all, rdfox:explicit or rdfox:derived`);
  }
  const shapesGraph = shape.shapes ? graph('shapes graph') : undefined;
  return { dataGraph, shapesGraph, factDomain };
}

/** The SHACL tables of a query on `state`, by the role whose access is `access`. */
export function shaclTables(state: StoreState, dictionary: TermDictionary, access: FactAccess | undefined, interrupter: Interrupter): ComputedTables {
  return {
    width: 3,
    has: (table) => SHACL_TABLES.has(table),
    async rows(table, args, deadline) {
      const options = optionsOf(table, args);
      checkValidationAccess(access, state, dictionary, options);
      const report = reportInTerms(await validateState(state, dictionary, options, withDeadline(interrupter, deadline, 'the query exceeded its time limit')), dictionary);
      return report.quads.map((q) => [q.subject, q.predicate, q.object]);
    },
  };
}
