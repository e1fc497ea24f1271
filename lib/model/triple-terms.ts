/**
 * The triple terms of a dictionary (RDF 1.2 `<<( s p o )>>`), indexed by their parts.
 *
 * A triple term is a term of the dictionary like any other: it has an id, and its canonical
 * key holds the keys of its parts (see `terms.ts`). The dictionary interns the parts before the
 * triple term, so a triple term's parts always have smaller ids, and records each new triple
 * term here with the ids of its parts. This index answers, in time proportional to the answer,
 * the lookups a query or a rule makes of a triple term pattern with some parts bound
 * (`<<( ?s :p :o )>>`): by subject, by predicate, by object, or by any two or three of them
 * (the shortest of the lists of the bound parts is read and the others are checked).
 *
 * Triple terms are never removed, except by a dictionary rolled back to an earlier size
 * ({@link TripleTermIndex.truncate}), which removes the newest first.
 * @module
 */

/** The lists of triple term ids by the id of one of their parts. */
class PartLists {
  private readonly lists = new Map<number, number[]>();

  add(part: number, id: number): void {
    const list = this.lists.get(part);
    if (list === undefined) this.lists.set(part, [id]);
    else list.push(id);
  }

  get(part: number): readonly number[] {
    return this.lists.get(part) ?? NONE;
  }

  /** Removes `id`, the newest triple term of the list of `part`. */
  removeLast(part: number, id: number): void {
    const list = this.lists.get(part);
    if (list === undefined || list[list.length - 1] !== id) return;
    list.pop();
    if (list.length === 0) this.lists.delete(part);
  }
}

const NONE: readonly number[] = [];

/** The triple terms of a dictionary, each with the ids of its subject, predicate and object. */
export class TripleTermIndex {
  /** Triple term ids in the order they were added (increasing). */
  private ids = new Int32Array(64);
  /** The parts of the triple term at the same position of `ids`: subject, predicate, object. */
  private parts = new Int32Array(192);
  private count = 0;
  /** Position in `ids` of a triple term id. */
  private readonly positions = new Map<number, number>();
  private readonly bySubject = new PartLists();
  private readonly byPredicate = new PartLists();
  private readonly byObject = new PartLists();

  /** The number of triple terms. */
  get size(): number {
    return this.count;
  }

  /** Records a new triple term (its id above every id recorded before) and the ids of its parts. */
  add(id: number, subject: number, predicate: number, object: number): void {
    if (this.count > 0 && id <= this.ids[this.count - 1]!) throw new RangeError(`triple term ${id} is not newer than the last one recorded`);
    if (this.count === this.ids.length) {
      const ids = new Int32Array(this.ids.length * 2);
      ids.set(this.ids);
      this.ids = ids;
      const parts = new Int32Array(this.parts.length * 2);
      parts.set(this.parts);
      this.parts = parts;
    }
    const at = this.count++;
    this.ids[at] = id;
    this.parts[3 * at] = subject;
    this.parts[3 * at + 1] = predicate;
    this.parts[3 * at + 2] = object;
    this.positions.set(id, at);
    this.bySubject.add(subject, id);
    this.byPredicate.add(predicate, id);
    this.byObject.add(object, id);
  }

  /** Whether the id is a triple term's. */
  has(id: number): boolean {
    return this.positions.has(id);
  }

  /** The id of a triple term's subject (0), predicate (1) or object (2); -1 when `id` is not a triple term. */
  part(id: number, which: 0 | 1 | 2): number {
    const at = this.positions.get(id);
    return at === undefined ? -1 : this.parts[3 * at + which]!;
  }

  /** The id of the triple term with these parts, or -1 when there is none. */
  find(subject: number, predicate: number, object: number): number {
    let found = -1;
    this.match(subject, predicate, object, (id) => {
      found = id;
      return false;
    });
    return found;
  }

  /**
   * Calls `onMatch` with every triple term whose parts equal the given ones (-1: any), in
   * increasing id order, until it returns false. Gives false when stopped.
   */
  match(subject: number, predicate: number, object: number, onMatch: (id: number, subject: number, predicate: number, object: number) => boolean): boolean {
    const parts = this.parts;
    const positions = this.positions;
    let candidates: readonly number[] | undefined;
    if (subject >= 0) candidates = this.bySubject.get(subject);
    if (predicate >= 0) candidates = shorter(candidates, this.byPredicate.get(predicate));
    if (object >= 0) candidates = shorter(candidates, this.byObject.get(object));
    if (candidates === undefined) {
      for (let at = 0; at < this.count; at++) {
        if (!onMatch(this.ids[at]!, parts[3 * at]!, parts[3 * at + 1]!, parts[3 * at + 2]!)) return false;
      }
      return true;
    }
    for (const id of candidates) {
      const at = positions.get(id)!;
      const s = parts[3 * at]!;
      const p = parts[3 * at + 1]!;
      const o = parts[3 * at + 2]!;
      if ((subject >= 0 && s !== subject) || (predicate >= 0 && p !== predicate) || (object >= 0 && o !== object)) continue;
      if (!onMatch(id, s, p, o)) return false;
    }
    return true;
  }

  /** The number of triple terms {@link TripleTermIndex.match} would give at most (for plans). */
  estimate(subject: number, predicate: number, object: number): number {
    let n = this.count;
    if (subject >= 0) n = Math.min(n, this.bySubject.get(subject).length);
    if (predicate >= 0) n = Math.min(n, this.byPredicate.get(predicate).length);
    if (object >= 0) n = Math.min(n, this.byObject.get(object).length);
    return n;
  }

  /** Forgets every triple term whose id is `mark` or more. */
  truncate(mark: number): void {
    while (this.count > 0 && this.ids[this.count - 1]! >= mark) {
      const at = --this.count;
      const id = this.ids[at]!;
      this.positions.delete(id);
      this.bySubject.removeLast(this.parts[3 * at]!, id);
      this.byPredicate.removeLast(this.parts[3 * at + 1]!, id);
      this.byObject.removeLast(this.parts[3 * at + 2]!, id);
    }
  }

  /** Bytes held by the index's arrays (an estimate for the maps), for component info. */
  get byteSize(): number {
    return this.ids.byteLength + this.parts.byteLength + this.count * 64;
  }
}

function shorter(a: readonly number[] | undefined, b: readonly number[]): readonly number[] {
  return a === undefined || b.length < a.length ? b : a;
}
