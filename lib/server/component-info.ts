/**
 * Component information: a tree of named components with properties, flattened into rows
 * numbered depth-first from the root (ComponentID 1).
 * @module
 */

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
