/**
 * Component information: a tree of named components with properties, flattened into rows
 * numbered depth-first from the root (ComponentID 1), and the part of a data store's
 * component a role may see.
 * @module
 */
import { AccessDeniedError } from '../model/errors.js';
import { type FactAccess, readableFacts } from '../storage/fact-access.js';
import type { StoreState } from '../storage/fact-store.js';
import { DERIVED, EXPLICIT } from '../storage/tuple-table.js';

/** One component of the diagnostic tree. */
export interface Component {
  /** The component's name. */
  readonly name: string;
  /** Its properties, in order. */
  readonly properties: ReadonlyArray<readonly [string, string | number | boolean]>;
  /** Its children. */
  readonly children: readonly Component[];
}

/** One row of component information. */
export interface ComponentInfoRow {
  /** Depth-first number of the component; the root is 1. */
  readonly componentId: number;
  /** Property name (`Component name`, `Parent component ID`, …). */
  readonly property: string;
  /** Property value. */
  readonly value: string | number | boolean;
}

/** Flattens a component tree into rows (depth-first, root = 1). */
export function componentRows(root: Component): ComponentInfoRow[] {
  const rows: ComponentInfoRow[] = [];
  let nextId = 1;
  const visit = (c: Component, parent: number): void => {
    const id = nextId++;
    rows.push({ componentId: id, property: 'Component name', value: c.name });
    if (parent > 0) rows.push({ componentId: id, property: 'Parent component ID', value: parent });
    for (const [property, value] of c.properties) rows.push({ componentId: id, property, value });
    for (const child of c.children) visit(child, id);
  };
  visit(root, 0);
  return rows;
}

/** The component flattened by {@link componentRows}, rebuilt from its rows. */
export function componentTree(rows: readonly ComponentInfoRow[]): Component {
  interface Building {
    name: string;
    readonly properties: Array<readonly [string, string | number | boolean]>;
    readonly children: Building[];
  }
  const byId = new Map<number, Building>();
  for (const row of rows) {
    let c = byId.get(row.componentId);
    if (!c) {
      c = { name: '', properties: [], children: [] };
      byId.set(row.componentId, c);
    }
    if (row.property === 'Component name') c.name = String(row.value);
    else if (row.property === 'Parent component ID') byId.get(Number(row.value))?.children.push(c);
    else c.properties.push([row.property, row.value]);
  }
  const root = byId.get(1);
  if (!root) throw new Error('component information without a root component');
  return root;
}

/** The properties of a component without those named. */
function without(c: Component, names: readonly string[]): Component {
  return { ...c, properties: c.properties.filter(([p]) => !names.includes(p)) };
}

/** Figures that count what every reader of the store shares (rows, terms, bytes), shown only to a role that may read everything. */
const SHARED_FIGURES = ['Rows (including deleted, not yet compacted)', 'Bytes', 'Number of terms'];

/** The name of the component with the figures of a store's last reasoning run. */
export const REASONING_RUN = 'Last reasoning run';

/**
 * The component of a data store (`Data store`, as `DataStore.component` makes it) as a role
 * with fact access `access` to it may see it, following RDFox's access control: a tuple table
 * the role may not read keeps only its name (the properties of list elements one cannot read
 * are left out); the counts of a table whose named graphs the role may only partly read count
 * only the facts of graphs it may read (the others do not exist for it); the store's number of
 * facts is the sum of what the role sees; and figures that measure the whole store (rows with
 * deleted ones, terms, bytes) are left out once anything is hidden. `access` undefined: the
 * component as it is.
 */
export function readableStoreComponent(component: Component, state: StoreState, access: FactAccess | undefined): Component {
  if (access === undefined) return component;
  let hidden = false;
  let facts = 0;
  const children = component.children.map((child): Component => {
    if (child.name !== 'Tuple table') return child;
    const name = String(child.properties.find(([p]) => p === 'Name')?.[1] ?? '');
    const info = state.catalogue.tupleTables.get(name);
    if (!info) return child;
    let filter: ReturnType<typeof readableFacts>;
    try {
      filter = readableFacts(access, info.id);
    } catch (e) {
      if (!(e instanceof AccessDeniedError)) throw e;
      hidden = true;
      return { name: child.name, properties: [['Name', name]], children: [] };
    }
    if (filter === undefined) {
      const count = child.properties.find(([p]) => p === 'Number of facts')?.[1];
      facts += typeof count === 'number' ? count : 0;
      return child;
    }
    hidden = true;
    const table = state.table(info.id);
    let all = 0;
    let explicit = 0;
    let derived = 0;
    const get = (row: number) => (column: number) => table.get(row, column);
    const view = state.view(info.id);
    table.forEachVisibleRow(view, EXPLICIT | DERIVED, (row) => {
      if (!filter(get(row))) return;
      all++;
      const s = table.statusIn(row, view);
      if (s & EXPLICIT) explicit++;
      if (s & DERIVED) derived++;
    });
    facts += all;
    const counts: Record<string, number> = { 'Number of facts': all, 'Number of explicit facts': explicit, 'Number of derived facts': derived };
    return {
      ...child,
      properties: child.properties.filter(([p]) => !SHARED_FIGURES.includes(p)).map(([p, v]) => [p, counts[p] ?? v] as const),
    };
  });
  const properties = component.properties.map(([p, v]) => [p, p === 'Number of facts' ? facts : v] as const);
  const root: Component = { ...component, properties, children };
  if (!hidden) return component;
  // what reasoning did counts facts of every table: not shown to a reader who may not read them all
  const shown = root.children.filter((c) => c.name !== REASONING_RUN);
  return { ...without(root, SHARED_FIGURES), children: shown.map((c) => (c.name === 'Dictionary' ? without(c, SHARED_FIGURES) : c)) };
}
