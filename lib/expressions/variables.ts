/**
 * The variables an algebra tree mentions: a walk over sparqlalgebrajs operations and
 * expressions (EXISTS patterns included) that reports every RDF/JS variable it meets.
 * @module
 */

/**
 * Calls `visit` with the name (without `?`) of each variable in `tree`, an algebra operation,
 * expression or any plain structure of them, in the order the walk meets them (a variable used
 * twice is reported twice).
 */
export function forEachVariable(tree: unknown, visit: (name: string) => void): void {
  const walk = (x: unknown): void => {
    if (x === null || typeof x !== 'object') return;
    if (Array.isArray(x)) {
      for (const item of x) walk(item);
      return;
    }
    const o = x as { termType?: unknown; value?: unknown; type?: unknown; variables?: unknown };
    if (o.termType === 'Variable' && typeof o.value === 'string') {
      visit(o.value);
      return;
    }
    // a VALUES block's variables are listed once: its rows (thousands, perhaps) hold only terms
    if (o.type === 'values' && Array.isArray(o.variables)) {
      walk(o.variables);
      return;
    }
    for (const v of Object.values(o)) walk(v);
  };
  walk(tree);
}
