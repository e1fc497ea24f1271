/**
 * Test helper for the SHACL specs: a data store filled through the public API with data
 * (default graph) and shapes (a named graph, or the default graph too), and the selection
 * `validate` reads (the store's committed state), plus a comparable form of results.
 * @module
 */
import { ConnectionFactory, type DataStoreConnection, Server, type ServerConnection } from '../../lib/index.js';
import type { ShaclDataSelection, ShaclResult } from '../../lib/shacl/index.js';
import type { FactStore } from '../../lib/storage/fact-store.js';

/** The named graph the shapes go to. */
export const SHAPES_GRAPH = 'http://example.org/shapes';

/** Turtle prefixes the specs' texts use. */
export const PREFIXES = `@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix ex: <http://example.org/> .
`;

/** A server for a spec file (before/after hooks) and a way to make stores. */
export function useShaclServer(name: string): { store(data: string, shapes: string, options?: { readonly shapesInDefault?: boolean }): Promise<ShaclStore> } {
  const url = `shacl-${name}-${Math.random().toString(36).slice(2)}`;
  let server: Server | undefined;
  let sc: ServerConnection | undefined;
  let count = 0;
  before(async () => {
    server = await Server.create({ roleName: 'admin', password: 'pw', url, parameters: { 'password-hashing': 'fast' } });
    sc = await ConnectionFactory.newServerConnection(url, 'admin', 'pw');
  });
  after(async () => {
    sc?.close();
    await server?.shutdown();
  });
  return {
    async store(data, shapes, options = {}): Promise<ShaclStore> {
      const storeName = `s${++count}`;
      sc!.createDataStore(storeName);
      const ds = sc!.newDataStoreConnection(storeName);
      await ds.importData('ADD', PREFIXES + data);
      await ds.importData('ADD', PREFIXES + shapes, options.shapesInDefault === true ? {} : { defaultGraph: SHAPES_GRAPH });
      return new ShaclStore(ds, server!.dataStore(storeName).facts, options.shapesInDefault === true);
    },
  };
}

/** A store of a spec. */
export class ShaclStore {
  /** Wraps a connection and the store's facts. */
  constructor(readonly ds: DataStoreConnection, readonly facts: FactStore, private readonly shapesInDefault: boolean) {}

  /** The selection of the committed state. */
  selection(): ShaclDataSelection {
    const shapesGraph = this.shapesInDefault ? 'default' : this.facts.dictionary.lookup(`<${SHAPES_GRAPH}>`);
    return { state: this.facts.committed, dictionary: this.facts.dictionary, dataGraph: 'default', shapesGraph, factDomain: 'all' };
  }

  /** The id of a term written as `ex:local`, `<iri>` or a canonical key. */
  id(term: string): number {
    const key = term.startsWith('ex:') ? `<http://example.org/${term.slice(3)}>` : term;
    return this.facts.dictionary.lookup(key);
  }

  /** The canonical key of an id, with http://example.org/ written ex:. */
  key(id: number): string {
    const key = this.facts.dictionary.keyOf(id);
    return key.startsWith('<http://example.org/') ? `ex:${key.slice(20, -1)}` : key;
  }

  /** A result as one line: focus, component local name, value, path, shape. */
  line(r: ShaclResult): string {
    const component = r.sourceConstraintComponent.replace('http://www.w3.org/ns/shacl#', 'sh:');
    const shape = this.facts.dictionary.kindOf(r.sourceShape) === 0x5f ? '_' : this.key(r.sourceShape);
    return `${this.key(r.focusNode)} ${component} ${r.value === undefined ? '-' : this.key(r.value)} ${r.resultPath === undefined ? '-' : JSON.stringify(r.resultPath)} ${shape} ${r.severity.replace('http://www.w3.org/ns/shacl#', 'sh:')}`;
  }
}
