/**
 * A large tree as JSON in slices: every array longer than {@link JSON_SLICE} elements is cut into
 * slices of that many elements, each its own JSON text, and stands in the text around it as
 * `{"$slices": [indexes]}`. The parsing thread sends a query's algebra so, and the event loop
 * parses it a slice at a time: one JSON.parse of the whole algebra of a 145 KB VALUES block
 * (2.9 MB of JSON) held the loop 15–64 ms.
 * @module
 */

/** Arrays longer than this are cut into slices of this many elements. */
export const JSON_SLICE = 1024;

/** The key of the object that stands for a cut array. */
export const SLICES_KEY = '$slices';

/** A tree as JSON texts: the skeleton, and the slices its cut arrays refer to by index. */
export interface JsonSlices {
  /** The JSON of the tree, each cut array replaced by `{"$slices": [indexes into slices]}`. */
  readonly skeleton: string;
  /** The JSON of each slice (an array, whose own long arrays are cut the same way). */
  readonly slices: readonly string[];
}

/** `value` as JSON in slices. */
export function toJsonSlices(value: unknown): JsonSlices {
  const slices: string[] = [];
  const cut = (_key: string, v: unknown): unknown => {
    if (!Array.isArray(v) || v.length <= JSON_SLICE) return v;
    const indexes: number[] = [];
    for (let i = 0; i < v.length; i += JSON_SLICE) {
      const at = slices.push('') - 1;
      indexes.push(at);
      slices[at] = JSON.stringify(v.slice(i, i + JSON_SLICE), cut);
    }
    return { [SLICES_KEY]: indexes };
  };
  return { skeleton: JSON.stringify(value, cut), slices };
}

/** The indexes of the slices a parsed object stands for, when it stands for a cut array. */
export function slicesOf(v: object): readonly number[] | undefined {
  const indexes = (v as Record<string, unknown>)[SLICES_KEY];
  return Array.isArray(indexes) && Object.keys(v).length === 1 ? (indexes as number[]) : undefined;
}
