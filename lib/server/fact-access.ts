/**
 * The {@link FactAccess} of a role to a data store, built from its privileges for one call:
 * reading a tuple table needs read on `|datastores|<ds>|tupletables|<table>`, writing an
 * explicit fact needs write on its table and, for a fact of a named graph, write on
 * `|datastores|<ds>|namedgraphs|<graph>`; named graphs the role may not read are invisible.
 * Changing rules needs write on `|datastores|<ds>|rules`. Answers are remembered for the
 * call only, so a change of privileges applies from the next call on.
 * @module
 */
import type { TermDictionary } from '../model/dictionary.js';
import { AccessDeniedError } from '../model/errors.js';
import type { Catalogue } from '../storage/catalogue.js';
import type { FactAccess } from '../storage/fact-access.js';
import { QUADS_ID } from '../storage/fact-store.js';
import { escapeSegment, parseResourceSpecifier, type ResourcePath, type ResourceSpecifier, resourceName, storeResources } from './resource-specifiers.js';
import type { AccessType, RoleDatabase } from './roles.js';

interface StoreSpecifiers {
  /** Everything in the store: `>datastores|<ds>`. */
  readonly whole: ResourceSpecifier;
  /** Every named graph of the store: `|datastores|<ds>|namedgraphs|*`. */
  readonly allGraphs: ResourceSpecifier;
}

const specifiers = new Map<string, StoreSpecifiers>();

/** The specifiers of a store (parsed once per store name). */
export function specifiersOf(ds: string): StoreSpecifiers {
  let found = specifiers.get(ds);
  if (!found) {
    found = { whole: parseResourceSpecifier(`>datastores|${escapeSegment(ds)}`), allGraphs: parseResourceSpecifier(`|datastores|${escapeSegment(ds)}|namedgraphs|*`) };
    if (specifiers.size >= 10_000) specifiers.clear();
    specifiers.set(ds, found);
  }
  return found;
}

/**
 * The access of `role` to the facts of store `ds`, or undefined when the role may read and
 * write everything in the store (then no check costs anything).
 */
export function storeAccess(roles: RoleDatabase, role: string, ds: string, catalogue: Catalogue, dictionary: TermDictionary): FactAccess | undefined {
  const { whole, allGraphs } = specifiersOf(ds);
  if (roles.allowsAll(role, whole, 'read') && roles.allowsAll(role, whole, 'write')) return undefined;
  const tableName = (id: number): string => {
    for (const info of catalogue.tupleTables.values()) if (info.id === id) return info.name;
    return `#${id}`;
  };
  const memo = new Map<string, boolean>();
  const check = (resource: ResourcePath, access: AccessType): void => {
    const key = `${access}\0${resource.join('\0')}`;
    let allowed = memo.get(key);
    if (allowed === undefined) {
      allowed = roles.allows(role, resource, access);
      memo.set(key, allowed);
    }
    if (!allowed) throw new AccessDeniedError(`role '${role}' has no ${access} access to '${resourceName(resource)}'`);
  };
  const table = (id: number): ResourcePath => storeResources.element(ds, 'tupletables', tableName(id));
  const graph = (id: number): ResourcePath => storeResources.namedGraph(ds, dictionary.keyOf(id));
  const writesAllGraphs = roles.allowsAll(role, allGraphs, 'write');
  let readableGraph: ((g: number) => boolean) | undefined;
  let readableGraphName: ((key: string) => boolean) | undefined;
  if (!roles.allowsAll(role, allGraphs, 'read')) {
    readableGraphName = (key) => roles.allows(role, storeResources.namedGraph(ds, key), 'read');
    const visible = new Map<number, boolean>();
    readableGraph = (g) => {
      let v = visible.get(g);
      if (v === undefined) {
        v = roles.allows(role, graph(g), 'read');
        visible.set(g, v);
      }
      return v;
    };
  }
  return {
    checkRead: (id) => check(table(id), 'read'),
    checkWrite: (id, tuple) => {
      check(table(id), 'write');
      if (id === QUADS_ID && !writesAllGraphs) check(graph(tuple[3]!), 'write');
    },
    readableGraph,
    readableGraphName,
    checkRules: () => check(storeResources.child(ds, 'rules'), 'write'),
  };
}
