/**
 * The triple terms of a dictionary (RDF 1.2 `<<( s p o )>>`), indexed by their parts.
 *
 * A triple term is a term of the dictionary like any other: it has an id, and its canonical
 * key holds the keys of its parts (see `terms.ts`). The dictionary interns the parts before the
 * triple term, so a triple term's parts always have smaller ids, and records each new triple
 * term here with the ids of its parts. This index answers, in time proportional to the answer,
 * the lookups a query or a rule makes of a triple term pattern with some parts bound
 * (`<<( ?s :p :o )>>`): by subject, by predicate, by object, or by any two or three of them
 * (the shortest of the lists of the bound parts is read and the others are checked). It is
 * made of typed arrays: lists linked through the triple terms' positions, and open-addressing
 * tables from a part's term id to its list.
 *
 * Triple terms are never removed, except by a dictionary rolled back to an earlier size
 * ({@link TripleTermIndex.truncate}), which removes the newest first. A new triple term joins
 * the lists when they are next read, not when it is added, so that a load of many triple terms
 * fills the lists in one sequential pass.
 * @module
 */

/**
 * For one part (subject, predicate or object): the triple terms holding each term there, as
 * lists linked through the triple terms' positions (newest first), with an open-addressing
 * table of typed arrays from the part's term id to the head of its list and the list's length.
 */
class PartLists {
  /** Term id + 1 by slot (0: empty). */
  private keys = new Int32Array(64);
  /** Position of the newest triple term of the slot's term, by slot. */
  private heads = new Int32Array(64);
  /** Length of the slot's list, by slot. */
  private lengths = new Int32Array(64);
  private used = 0;
  /** The next (older) position of the same list, by position; -1 at the end. */
  next = new Int32Array(64);

  private slot(term: number): number {
    const mask = this.keys.length - 1;
    let i = Math.imul(term, 0x9e3779b1) >>> 0 & mask;
    while (this.keys[i] !== 0 && this.keys[i] !== term + 1) i = (i + 1) & mask;
    return i;
  }

  /** Puts the triple term at `position` first in the list of `term`. */
  add(term: number, position: number): void {
    if (position >= this.next.length) {
      const next = new Int32Array(this.next.length * 2);
      next.set(this.next);
      this.next = next;
    }
    if ((this.used + 1) * 2 > this.keys.length) this.grow();
    const i = this.slot(term);
    if (this.keys[i] === 0) {
      this.keys[i] = term + 1;
      this.heads[i] = -1;
      this.used++;
    }
    this.next[position] = this.heads[i]!;
    this.heads[i] = position;
    this.lengths[i]!++;
  }

  /** The newest position of the list of `term`, or -1 when empty. */
  head(term: number): number {
    const i = this.slot(term);
    return this.keys[i] === 0 ? -1 : this.heads[i]!;
  }

  /** The length of the list of `term`. */
  length(term: number): number {
    const i = this.slot(term);
    return this.keys[i] === 0 ? 0 : this.lengths[i]!;
  }

  /** Removes `position`, the newest of the list of `term` (an emptied list keeps its slot). */
  removeHead(term: number, position: number): void {
    const i = this.slot(term);
    if (this.keys[i] === 0 || this.heads[i] !== position) return;
    this.heads[i] = this.next[position]!;
    this.lengths[i]!--;
  }

  private grow(): void {
    const { keys, heads, lengths } = this;
    this.keys = new Int32Array(keys.length * 2);
    this.heads = new Int32Array(keys.length * 2);
    this.lengths = new Int32Array(keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === 0) continue;
      const j = this.slot(keys[i]! - 1);
      this.keys[j] = keys[i]!;
      this.heads[j] = heads[i]!;
      this.lengths[j] = lengths[i]!;
    }
  }
}

/**
 * Where a resumable walk over the triple terms matching a pattern stands (see
 * {@link TripleTermIndex.walk}): the list it follows, or every position in turn.
 */
export interface TripleTermWalk {
  /** The pattern's parts (-1: any). */
  readonly subject: number;
  /** The predicate of the pattern (-1: any). */
  readonly predicate: number;
  /** The object of the pattern (-1: any). */
  readonly object: number;
  /** The position to read next (-1: done). */
  at: number;
  /** The number of triple terms when the walk started (those added since are not read). */
  readonly end: number;
  /** The lists it follows (of the part with the shortest list); undefined: it reads every position, oldest first. */
  readonly lists: unknown;
  /** The index's truncations when the walk started (a truncation since invalidates it). */
  readonly truncations: number;
}

/** The triple terms of a dictionary, each with the ids of its subject, predicate and object. */
export class TripleTermIndex {
  /** Triple term ids in the order they were added (increasing): a triple term's position is found by binary search. */
  private ids = new Int32Array(64);
  /** The parts of the triple term at the same position of `ids`: subject, predicate, object. */
  private parts = new Int32Array(192);
  private count = 0;
  /** The positions below this are in the lists. */
  private listed = 0;
  /** How many times {@link TripleTermIndex.truncate} removed triple terms. */
  private truncations = 0;
  /** The term whose list {@link TripleTermIndex.shortest} chose last. */
  private chosen = -1;
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
  }

  /** Puts the triple terms added since the lists were last read in them. */
  private list(): void {
    const parts = this.parts;
    for (let at = this.listed; at < this.count; at++) {
      this.bySubject.add(parts[3 * at]!, at);
      this.byPredicate.add(parts[3 * at + 1]!, at);
      this.byObject.add(parts[3 * at + 2]!, at);
    }
    this.listed = this.count;
  }

  /** The position of a triple term id, or -1. */
  private positionOf(id: number): number {
    const ids = this.ids;
    let lo = 0;
    let hi = this.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ids[mid]!;
      if (v === id) return mid;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Whether the id is a triple term's. */
  has(id: number): boolean {
    return this.positionOf(id) >= 0;
  }

  /** The id of a triple term's subject (0), predicate (1) or object (2); -1 when `id` is not a triple term. */
  part(id: number, which: 0 | 1 | 2): number {
    const at = this.positionOf(id);
    return at < 0 ? -1 : this.parts[3 * at + which]!;
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
   * The lists of the bound part whose list is the shortest (undefined when no part is bound),
   * with the part's term left in {@link TripleTermIndex.chosen}; the new triple terms are
   * listed first. (Plain assignments and no result object: this runs once per solution.)
   */
  private shortest(subject: number, predicate: number, object: number): PartLists | undefined {
    if (this.listed < this.count) this.list();
    let lists: PartLists | undefined;
    let term = -1;
    let length = Infinity;
    if (subject >= 0) {
      lists = this.bySubject;
      term = subject;
      length = lists.length(subject);
    }
    if (predicate >= 0 && this.byPredicate.length(predicate) < length) {
      lists = this.byPredicate;
      term = predicate;
      length = lists.length(predicate);
    }
    if (object >= 0 && this.byObject.length(object) < length) {
      lists = this.byObject;
      term = object;
    }
    this.chosen = term;
    return lists;
  }

  /**
   * Calls `onMatch` with every triple term whose parts equal the given ones (-1: any), until
   * it returns false (newest first when a part is bound). Gives false when stopped. Reads the
   * shortest of the lists of the bound parts, checking the other parts.
   */
  match(subject: number, predicate: number, object: number, onMatch: (id: number, subject: number, predicate: number, object: number) => boolean): boolean {
    const lists = this.shortest(subject, predicate, object);
    const term = this.chosen;
    const parts = this.parts;
    const ids = this.ids;
    if (lists === undefined) {
      for (let at = 0; at < this.count; at++) {
        if (!onMatch(ids[at]!, parts[3 * at]!, parts[3 * at + 1]!, parts[3 * at + 2]!)) return false;
      }
      return true;
    }
    const next = lists.next;
    for (let at = lists.head(term); at >= 0; at = next[at]!) {
      const s = parts[3 * at]!;
      const p = parts[3 * at + 1]!;
      const o = parts[3 * at + 2]!;
      if ((subject >= 0 && s !== subject) || (predicate >= 0 && p !== predicate) || (object >= 0 && o !== object)) continue;
      if (!onMatch(ids[at]!, s, p, o)) return false;
    }
    return true;
  }

  /**
   * Starts a resumable walk over the triple terms whose parts equal the given ones (-1: any),
   * read by {@link TripleTermIndex.resume} a budget at a time: a walk over many triple terms
   * can stop between two reads while other work runs. It follows the list
   * {@link TripleTermIndex.match} would read (newest first), or every triple term (oldest
   * first) when no part is bound.
   */
  walk(subject: number, predicate: number, object: number): TripleTermWalk {
    const lists = this.shortest(subject, predicate, object);
    const at = lists === undefined ? (this.count > 0 ? 0 : -1) : lists.head(this.chosen);
    return { subject, predicate, object, at, lists, end: this.count, truncations: this.truncations };
  }

  /**
   * Goes on with a walk: calls `onMatch` with each match, until it returns false, the walk
   * ends, or `budget` triple terms were read (matching or not). Returns true when the walk is
   * over (ended or stopped), false when there is more to read.
   * @throws RangeError when triple terms were removed (a rolled-back transaction) since the walk began.
   */
  resume(walk: TripleTermWalk, budget: number, onMatch: (id: number, subject: number, predicate: number, object: number) => boolean): boolean {
    if (walk.truncations !== this.truncations) throw new RangeError('triple terms were removed while a walk over them was suspended');
    const parts = this.parts;
    const ids = this.ids;
    const { subject, predicate, object } = walk;
    const next = (walk.lists as PartLists | undefined)?.next;
    let at = walk.at;
    for (let n = 0; n < budget && at >= 0; n++) {
      const here = at;
      at = next !== undefined ? next[here]! : here + 1 < walk.end ? here + 1 : -1;
      const s = parts[3 * here]!;
      const p = parts[3 * here + 1]!;
      const o = parts[3 * here + 2]!;
      if ((subject >= 0 && s !== subject) || (predicate >= 0 && p !== predicate) || (object >= 0 && o !== object)) continue;
      if (!onMatch(ids[here]!, s, p, o)) {
        walk.at = -1;
        return true;
      }
    }
    walk.at = at;
    return at < 0;
  }

  /**
   * {@link TripleTermIndex.match} with the triple term itself given too (-1: any): a given
   * triple term is checked against the given parts, by its own parts, without a list.
   */
  matchTerm(tripleTerm: number, subject: number, predicate: number, object: number, onMatch: (id: number, subject: number, predicate: number, object: number) => boolean): boolean {
    if (tripleTerm < 0) return this.match(subject, predicate, object, onMatch);
    const at = this.positionOf(tripleTerm);
    if (at < 0) return true;
    const s = this.parts[3 * at]!;
    const p = this.parts[3 * at + 1]!;
    const o = this.parts[3 * at + 2]!;
    if ((subject >= 0 && s !== subject) || (predicate >= 0 && p !== predicate) || (object >= 0 && o !== object)) return true;
    return onMatch(tripleTerm, s, p, o);
  }

  /** The number of triple terms {@link TripleTermIndex.match} would give at most (for plans). */
  estimate(subject: number, predicate: number, object: number): number {
    if (this.listed < this.count) this.list();
    let n = this.count;
    if (subject >= 0) n = Math.min(n, this.bySubject.length(subject));
    if (predicate >= 0) n = Math.min(n, this.byPredicate.length(predicate));
    if (object >= 0) n = Math.min(n, this.byObject.length(object));
    return n;
  }

  /** Forgets every triple term whose id is `mark` or more. */
  truncate(mark: number): void {
    if (this.count > 0 && this.ids[this.count - 1]! >= mark) this.truncations++;
    while (this.count > 0 && this.ids[this.count - 1]! >= mark) {
      const at = --this.count;
      if (at >= this.listed) continue;
      this.listed = at;
      this.bySubject.removeHead(this.parts[3 * at]!, at);
      this.byPredicate.removeHead(this.parts[3 * at + 1]!, at);
      this.byObject.removeHead(this.parts[3 * at + 2]!, at);
    }
  }

  /** Bytes held by the index's arrays, for component info. */
  get byteSize(): number {
    return this.ids.byteLength + this.parts.byteLength + 3 * 4 * 4 * this.count;
  }
}

