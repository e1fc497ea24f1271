import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import type * as RDF from '@rdfjs/types';
import { Parser as TurtleParser, type Quad } from 'n3';
import { Parser as SparqlParser, type Pattern, type SparqlQuery, type Triple } from 'sparqljs';
import { Algebra, translate } from 'sparqlalgebrajs';
import { evaluatePath } from '../../lib/sparql/paths.js';
import { ANY_NAMED_GRAPH, DEFAULT_GRAPH, UNBOUND, type QuadSource } from '../../lib/sparql/quad-source.js';
import { w3cPath } from '../helpers/test-data.js';

const EX = 'http://example.org/';
const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';

/**
 * An in-memory QuadSource over numeric quads. Terms are keyed by string: an IRI by itself,
 * a literal starting with `"`, a blank node with `_:`. In the short names the tests use, `a`
 * is `http://example.org/a`, `"x"` a literal, `<iri>` a full IRI.
 */
class MemorySource implements QuadSource {
  private readonly idsByKey = new Map<string, number>();
  private readonly keys: string[] = [];
  private readonly quads: (readonly [number, number, number, number])[] = [];
  private readonly quadKeys = new Set<string>();
  private readonly bySubject = new Map<number, (readonly [number, number, number, number])[]>();
  private readonly byObject = new Map<number, (readonly [number, number, number, number])[]>();
  /** The match patterns asked for, as `spo` with `?` for unbound positions (e.g. `s??`). */
  readonly calls: string[] = [];

  /** The id of a term key, allocated on first use (a term known to the store, not necessarily in a graph). */
  idOfKey(key: string): number {
    let id = this.idsByKey.get(key);
    if (id === undefined) {
      id = this.keys.length;
      this.keys.push(key);
      this.idsByKey.set(key, id);
    }
    return id;
  }

  /** The id of a short name (see the class comment). */
  id(name: string): number {
    return this.idOfKey(keyOf(name));
  }

  /** The term key of an id. */
  key(id: number): string {
    const key = this.keys[id];
    if (key === undefined) throw new Error(`unknown id ${id}`);
    return key;
  }

  /** The short name of an id. */
  name(id: number): string {
    const key = this.key(id);
    return key.startsWith(EX) ? key.slice(EX.length) : key.startsWith('"') || key.startsWith('_:') ? key : `<${key}>`;
  }

  /** Adds a quad of ids. */
  addIds(s: number, p: number, o: number, g: number): void {
    const k = `${s} ${p} ${o} ${g}`;
    if (this.quadKeys.has(k)) return;
    this.quadKeys.add(k);
    const quad = [s, p, o, g] as const;
    this.quads.push(quad);
    push(this.bySubject, s, quad);
    push(this.byObject, o, quad);
  }

  /** Adds triples written as `s p o` separated by `.` (short names without spaces) to a graph. */
  add(triples: string, graph: number = DEFAULT_GRAPH): this {
    for (const statement of triples.split(' . ')) {
      const parts = statement.trim().split(/\s+/);
      if (parts.length === 1 && parts[0] === '') continue;
      const [s, p, o] = parts;
      if (parts.length !== 3 || s === undefined || p === undefined || o === undefined) throw new Error(`bad triple: ${statement}`);
      this.addIds(this.id(s), this.id(p), this.id(o), graph);
    }
    return this;
  }

  match(s: number, p: number, o: number, graph: number, onMatch: (s: number, p: number, o: number, g: number) => boolean | void): boolean {
    this.calls.push(`${s === UNBOUND ? '?' : 's'}${p === UNBOUND ? '?' : 'p'}${o === UNBOUND ? '?' : 'o'}`);
    const candidates = s !== UNBOUND ? this.bySubject.get(s) ?? [] : o !== UNBOUND ? this.byObject.get(o) ?? [] : this.quads;
    for (const [qs, qp, qo, qg] of candidates) {
      if (!inGraph(qg, graph)) continue;
      if ((s !== UNBOUND && qs !== s) || (p !== UNBOUND && qp !== p) || (o !== UNBOUND && qo !== o)) continue;
      if (onMatch(qs, qp, qo, qg) === true) return true;
    }
    return false;
  }

  nodes(graph: number, onNode: (node: number) => boolean | void): boolean {
    const seen = new Set<number>();
    for (const [s, , o, g] of this.quads) {
      if (!inGraph(g, graph)) continue;
      for (const node of [s, o]) {
        if (seen.has(node)) continue;
        seen.add(node);
        if (onNode(node) === true) return true;
      }
    }
    return false;
  }

  iriId(iri: string): number {
    return this.idsByKey.get(iri) ?? -1;
  }

  /** The named graphs holding quads. */
  graphs(): number[] {
    return [...new Set(this.quads.map((q) => q[3]).filter((g) => g >= 0))];
  }
}

function inGraph(g: number, graph: number): boolean {
  return graph === DEFAULT_GRAPH ? g === DEFAULT_GRAPH : graph === ANY_NAMED_GRAPH ? g >= 0 : g === graph;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function keyOf(name: string): string {
  if (name.startsWith('"') || name.startsWith('_:')) return name;
  if (name.startsWith('<') && name.endsWith('>')) return name.slice(1, -1);
  return EX + name;
}

/** Whether a value is an object with a string `type` (an algebra node). */
function isNode(value: unknown): value is { type: string } {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

const PATH_TYPE: string = Algebra.types.PATH;

/** Finds every `path` operation in an algebra tree. */
function findPaths(op: unknown, found: Algebra.Path[] = []): Algebra.Path[] {
  if (Array.isArray(op)) {
    for (const item of op) findPaths(item, found);
  } else if (isNode(op)) {
    if (op.type === PATH_TYPE) found.push(op as Algebra.Path);
    for (const value of Object.values(op)) {
      if (typeof value === 'object') findPaths(value, found);
    }
  }
  return found;
}

const sparqlParser = new SparqlParser({ prefixes: { '': EX, rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#' } });

/**
 * The algebra of a path expression written in SPARQL, as sparqlalgebrajs produces it. The path is
 * wrapped in `(...)?` so that sparqlalgebrajs keeps it a path instead of rewriting a top-level
 * sequence, inverse or link into triple patterns; the wrapper is then removed.
 */
function pathOf(text: string): Algebra.PropertyPathSymbol {
  const algebra = translate(sparqlParser.parse(`SELECT * WHERE { ?s (${text})? ?o }`), { quads: true });
  const [path, ...others] = findPaths(algebra);
  if (!path || others.length > 0) throw new Error(`expected one path in ${text}`);
  if (path.predicate.type !== Algebra.types.ZERO_OR_ONE_PATH) throw new Error(`unexpected wrapper for ${text}`);
  return path.predicate.path;
}

/** Short names of the ends, or null for an unbound end. */
type End = string | null;

/** Evaluates a path and returns its solutions as sorted `s o` strings (a bag: duplicates kept). */
function run(src: MemorySource, text: string, s: End, o: End, graph: number = DEFAULT_GRAPH): string[] {
  const results: string[] = [];
  const stopped = evaluatePath(pathOf(text), s === null ? UNBOUND : src.id(s), o === null ? UNBOUND : src.id(o), graph, src, (rs, ro) => {
    results.push(`${src.name(rs)} ${src.name(ro)}`);
  });
  expect(stopped).to.equal(false);
  return results.sort();
}

/** A sorted bag of expected solutions. */
function bag(...pairs: string[]): string[] {
  return [...pairs].sort();
}

/** `count` copies of a solution. */
function times(count: number, pair: string): string[] {
  return Array.from({ length: count }, () => pair);
}

describe('sparql/paths evaluatePath', () => {
  describe('link', () => {
    const src = new MemorySource().add('a p b . b p c . a q c');

    it('walks a link from a bound subject, a bound object, both or neither', () => {
      expect(run(src, ':p', 'a', null)).to.deep.equal(bag('a b'));
      expect(run(src, ':p', null, 'c')).to.deep.equal(bag('b c'));
      expect(run(src, ':p', 'a', 'b')).to.deep.equal(bag('a b'));
      expect(run(src, ':p', 'a', 'c')).to.deep.equal([]);
      expect(run(src, ':p', null, null)).to.deep.equal(bag('a b', 'b c'));
    });

    it('matches nothing for an IRI the store does not know', () => {
      expect(run(src, ':unknown', null, null)).to.deep.equal([]);
      expect(run(src, ':unknown', 'a', null)).to.deep.equal([]);
    });
  });

  describe('inverse', () => {
    const src = new MemorySource().add('a p b . b p c . a q c');

    it('swaps the ends', () => {
      expect(run(src, '^:p', 'b', null)).to.deep.equal(bag('b a'));
      expect(run(src, '^:p', null, 'b')).to.deep.equal(bag('c b'));
      expect(run(src, '^:p', 'c', 'b')).to.deep.equal(bag('c b'));
      expect(run(src, '^:p', 'b', 'c')).to.deep.equal([]);
      expect(run(src, '^:p', null, null)).to.deep.equal(bag('b a', 'c b'));
    });

    it('cancels out when doubled', () => {
      expect(run(src, '^(^:p)', null, null)).to.deep.equal(run(src, ':p', null, null));
    });
  });

  describe('sequence', () => {
    const src = new MemorySource().add('a p m1 . a p m2 . m1 q z . m2 q z . m2 q y');

    it('keeps one solution per intermediate node (bag join)', () => {
      expect(run(src, ':p/:q', 'a', null)).to.deep.equal(bag('a y', ...times(2, 'a z')));
      expect(run(src, ':p/:q', null, 'z')).to.deep.equal(times(2, 'a z'));
      expect(run(src, ':p/:q', 'a', 'z')).to.deep.equal(times(2, 'a z'));
      expect(run(src, ':p/:q', 'a', 'y')).to.deep.equal(bag('a y'));
      expect(run(src, ':p/:q', null, null)).to.deep.equal(bag('a y', ...times(2, 'a z')));
    });

    it('multiplies the counts of longer sequences', () => {
      const fan = new MemorySource().add('a p m1 . a p m2 . m1 q n . m2 q n . n r z . n r w');
      expect(run(fan, ':p/:q/:r', 'a', null)).to.deep.equal(bag(...times(2, 'a w'), ...times(2, 'a z')));
      expect(run(fan, ':p/:q/:r', null, 'z')).to.deep.equal(times(2, 'a z'));
      expect(run(fan, ':p/:q/:r', 'a', 'w')).to.deep.equal(times(2, 'a w'));
      expect(run(fan, ':p/:q/:r', null, null)).to.deep.equal(bag(...times(2, 'a w'), ...times(2, 'a z')));
    });

    it('joins through inverse steps', () => {
      const siblings = new MemorySource().add('a p x . b p x . c p y');
      expect(run(siblings, ':p/^:p', 'a', null)).to.deep.equal(bag('a a', 'a b'));
      expect(run(siblings, ':p/^:p', null, 'b')).to.deep.equal(bag('a b', 'b b'));
      expect(run(siblings, ':p/^:p', null, null)).to.deep.equal(bag('a a', 'a b', 'b a', 'b b', 'c c'));
    });

    it('matches nothing when a step is an unknown IRI', () => {
      expect(run(src, ':p/:unknown', 'a', null)).to.deep.equal([]);
      expect(run(src, ':unknown/:q', null, null)).to.deep.equal([]);
    });
  });

  describe('alternative', () => {
    const src = new MemorySource().add('a p b . a q b . a q c');

    it('is a bag union', () => {
      expect(run(src, ':p|:q', 'a', null)).to.deep.equal(bag('a b', 'a b', 'a c'));
      expect(run(src, ':p|:q', null, 'b')).to.deep.equal(bag('a b', 'a b'));
      expect(run(src, ':p|:q', 'a', 'b')).to.deep.equal(bag('a b', 'a b'));
      expect(run(src, ':p|:q', null, null)).to.deep.equal(bag('a b', 'a b', 'a c'));
    });

    it('keeps the duplicates of a repeated member', () => {
      expect(run(src, ':p|:p', 'a', null)).to.deep.equal(bag('a b', 'a b'));
    });

    it('ignores an unknown member', () => {
      expect(run(src, ':p|:unknown', null, null)).to.deep.equal(bag('a b'));
    });
  });

  describe('zero or one (?)', () => {
    const src = new MemorySource().add('a p b . b p c . a q b');

    it('adds the zero-length pair to the one-step pairs', () => {
      expect(run(src, ':p?', 'a', null)).to.deep.equal(bag('a a', 'a b'));
      expect(run(src, ':p?', null, 'b')).to.deep.equal(bag('a b', 'b b'));
      expect(run(src, ':p?', 'a', 'a')).to.deep.equal(bag('a a'));
      expect(run(src, ':p?', 'a', 'b')).to.deep.equal(bag('a b'));
      expect(run(src, ':p?', 'a', 'c')).to.deep.equal([]);
      expect(run(src, ':p?', null, null)).to.deep.equal(bag('a a', 'a b', 'b b', 'b c', 'c c'));
    });

    it('gives distinct pairs', () => {
      expect(run(src, '(:p|:q)?', 'a', null)).to.deep.equal(bag('a a', 'a b'));
      expect(run(src, '(:p|:q)?', null, 'b')).to.deep.equal(bag('a b', 'b b'));
      expect(run(src, '(:p|:q)?', 'a', 'b')).to.deep.equal(bag('a b'));
      expect(run(src, '(:p|:q)?', null, null)).to.deep.equal(bag('a a', 'a b', 'b b', 'b c', 'c c'));
      // a :p/^:p a via b: the one-step pair coincides with the zero-length one.
      expect(run(src, '(:p/^:p)?', 'a', null)).to.deep.equal(bag('a a'));
    });
  });

  describe('zero or more (*) and one or more (+)', () => {
    const cycle = new MemorySource().add('a p b . b p c . c p a . c q d');
    const diamond = new MemorySource().add('a p b . a p c . b p d . c p d . d p e');

    it('terminates on cycles with distinct pairs', () => {
      expect(run(cycle, ':p+', 'a', null)).to.deep.equal(bag('a a', 'a b', 'a c'));
      expect(run(cycle, ':p*', 'a', null)).to.deep.equal(bag('a a', 'a b', 'a c'));
      expect(run(cycle, ':p+', null, 'a')).to.deep.equal(bag('a a', 'b a', 'c a'));
      expect(run(cycle, ':p*', null, 'd')).to.deep.equal(bag('d d'));
      expect(run(cycle, ':p+', null, null)).to.have.length(9);
      expect(new Set(run(cycle, ':p+', null, null)).size).to.equal(9);
      expect(run(cycle, ':p*', null, null)).to.deep.equal(bag(...run(cycle, ':p+', null, null), 'd d'));
    });

    it('reports a node reached by several routes once (diamond)', () => {
      expect(run(diamond, ':p+', 'a', null)).to.deep.equal(bag('a b', 'a c', 'a d', 'a e'));
      expect(run(diamond, ':p*', 'a', null)).to.deep.equal(bag('a a', 'a b', 'a c', 'a d', 'a e'));
      expect(run(diamond, ':p+', null, 'd')).to.deep.equal(bag('a d', 'b d', 'c d'));
      expect(run(diamond, ':p+', 'a', 'e')).to.deep.equal(bag('a e'));
      // The sequence keeps both routes; its closure does not.
      expect(run(diamond, ':p/:p', 'a', null)).to.deep.equal(bag('a d', 'a d'));
      expect(run(diamond, '(:p/:p)+', 'a', null)).to.deep.equal(bag('a d'));
      expect(run(diamond, '(:p/:p)*', 'a', null)).to.deep.equal(bag('a a', 'a d'));
    });

    it('relates a node to itself only through a cycle for +', () => {
      expect(run(diamond, ':p+', 'a', 'a')).to.deep.equal([]);
      expect(run(diamond, ':p*', 'a', 'a')).to.deep.equal(bag('a a'));
      expect(run(cycle, ':p+', 'a', 'a')).to.deep.equal(bag('a a'));
      expect(run(diamond, ':p+', 'e', 'a')).to.deep.equal([]);
      const loop = new MemorySource().add('a p a . a q b');
      expect(run(loop, ':p+', 'a', null)).to.deep.equal(bag('a a'));
      expect(run(loop, ':p+', null, null)).to.deep.equal(bag('a a'));
      expect(run(loop, ':p*', null, null)).to.deep.equal(bag('a a', 'b b'));
    });

    it('gives every node of the graph its zero-length pair', () => {
      const src = new MemorySource().add('a p b . c q "lit" . _:x r a');
      expect(run(src, ':p*', null, null)).to.deep.equal(bag('a a', 'a b', 'b b', 'c c', '"lit" "lit"', '_:x _:x'));
      // Predicates are not nodes unless used as subject or object.
      expect(run(src, ':q*', null, null)).to.not.include('q q');
    });
  });

  describe('zero-length paths and terms absent from the graph', () => {
    const src = new MemorySource().add('a p b . b q c');
    const x = 'absent-x';
    const y = 'absent-y';

    it('relates a bound end absent from the graph to itself', () => {
      expect(run(src, ':p*', x, null)).to.deep.equal(bag(`${x} ${x}`));
      expect(run(src, ':p*', null, x)).to.deep.equal(bag(`${x} ${x}`));
      expect(run(src, ':p?', x, null)).to.deep.equal(bag(`${x} ${x}`));
      expect(run(src, ':p?', null, x)).to.deep.equal(bag(`${x} ${x}`));
      expect(run(src, ':p*', x, x)).to.deep.equal(bag(`${x} ${x}`));
      expect(run(src, ':p?', x, x)).to.deep.equal(bag(`${x} ${x}`));
      expect(run(src, '(:p/:q)*', x, null)).to.deep.equal(bag(`${x} ${x}`));
    });

    it('relates nothing else to it', () => {
      expect(run(src, ':p+', x, null)).to.deep.equal([]);
      expect(run(src, ':p*', x, y)).to.deep.equal([]);
      expect(run(src, ':p*', x, 'a')).to.deep.equal([]);
      expect(run(src, ':p?', 'a', x)).to.deep.equal([]);
    });

    it('applies to paths over unknown IRIs', () => {
      expect(run(src, ':unknown*', x, null)).to.deep.equal(bag(`${x} ${x}`));
      expect(run(src, ':unknown*', 'a', null)).to.deep.equal(bag('a a'));
      expect(run(src, ':unknown?', null, null)).to.deep.equal(bag('a a', 'b b', 'c c'));
      expect(run(src, ':unknown+', 'a', null)).to.deep.equal([]);
      expect(run(src, ':unknown+', null, null)).to.deep.equal([]);
    });

    it('relates a query-local id (a term the store does not hold) only to itself, without asking the source about it', () => {
      // a source reads ids below -1 as wildcards (StoreQuadSource scans them as ANY)
      const strict = new MemorySource().add('a p b . b p c . a q c');
      const match = strict.match.bind(strict);
      strict.match = (s, p, o, graph, onMatch) => {
        if (s < UNBOUND || p < UNBOUND || o < UNBOUND) throw new Error(`match called with a query-local id (${s} ${p} ${o})`);
        return match(s, p, o, graph, onMatch);
      };
      const local = -7;
      const pairs = (text: string, s: number, o: number): string[] => {
        const out: string[] = [];
        evaluatePath(pathOf(text), s, o, DEFAULT_GRAPH, strict, (rs, ro) => void out.push(`${rs} ${ro}`));
        return out;
      };
      expect(pairs(':p*', local, UNBOUND)).to.deep.equal([`${local} ${local}`]);
      expect(pairs(':p?', UNBOUND, local)).to.deep.equal([`${local} ${local}`]);
      expect(pairs(':p+', local, UNBOUND)).to.deep.equal([]);
      expect(pairs(':p', local, UNBOUND)).to.deep.equal([]);
      expect(pairs('!:q', local, UNBOUND)).to.deep.equal([]);
      expect(pairs('^:p/:p', UNBOUND, local)).to.deep.equal([]);
      expect(pairs(':p*', strict.id('a'), local)).to.deep.equal([]);
    });

    it('gives nothing for unbound ends over an empty graph', () => {
      const empty = new MemorySource();
      expect(run(empty, ':p*', null, null)).to.deep.equal([]);
      expect(run(empty, ':p?', null, null)).to.deep.equal([]);
      expect(run(empty, ':p*', 's', null)).to.deep.equal(bag('s s'));
      expect(run(empty, ':p?', null, 'o')).to.deep.equal(bag('o o'));
    });
  });

  describe('negated property sets', () => {
    const src = new MemorySource().add('a p b . a q c . a r c . c p a . b s "lit"');

    it('is translated by sparqlalgebrajs into nps and inv(nps)', () => {
      const forward = pathOf('!(:p|:q)');
      expect(forward.type).to.equal(Algebra.types.NPS);
      const inverse = pathOf('!^:p');
      expect(inverse.type).to.equal(Algebra.types.INV);
      const mixed = pathOf('!(^:p|:q)');
      expect(mixed.type).to.equal(Algebra.types.ALT);
      expect((mixed as Algebra.Alt).input.map((i) => i.type)).to.deep.equal([Algebra.types.NPS, Algebra.types.INV]);
    });

    it('matches forward triples whose predicate is not in the set, distinct', () => {
      expect(run(src, '!:p', 'a', null)).to.deep.equal(bag('a c'));
      expect(run(src, '!:p', null, 'c')).to.deep.equal(bag('a c'));
      expect(run(src, '!:p', 'a', 'c')).to.deep.equal(bag('a c'));
      expect(run(src, '!:p', 'a', 'b')).to.deep.equal([]);
      expect(run(src, '!:p', null, null)).to.deep.equal(bag('a c', 'b "lit"'));
      expect(run(src, '!(:p|:q)', null, null)).to.deep.equal(bag('a c', 'b "lit"'));
      expect(run(src, '!(:p|:q|:r)', null, null)).to.deep.equal(bag('b "lit"'));
    });

    it('matches inverse triples', () => {
      expect(run(src, '!^:p', null, null)).to.deep.equal(bag('c a', '"lit" b'));
      expect(run(src, '!^:p', 'c', null)).to.deep.equal(bag('c a'));
      expect(run(src, '!^:p', null, 'a')).to.deep.equal(bag('c a'));
      expect(run(src, '!(^:p|^:s)', null, null)).to.deep.equal(bag('c a'));
    });

    it('unions the forward and inverse parts of a mixed set', () => {
      expect(run(src, '!(:p|^:q)', null, null)).to.deep.equal(bag('a c', 'b "lit"', 'b a', 'c a', 'a c', '"lit" b'));
      expect(run(src, '!(:p|^:q)', 'a', null)).to.deep.equal(bag('a c', 'a c'));
      expect(run(src, '!(:q|:r|:s|^:q|^:r|^:s)', null, null)).to.deep.equal(bag('a b', 'c a', 'b a', 'a c'));
      // A self-loop satisfies both parts.
      const loop = new MemorySource().add('a r a');
      expect(run(loop, '!(:p|^:q)', null, null)).to.deep.equal(bag('a a', 'a a'));
    });

    it('excludes nothing for an unknown IRI', () => {
      expect(run(src, '!:unknown', 'a', null)).to.deep.equal(bag('a b', 'a c'));
      expect(run(src, '!(:unknown|:p)', 'a', null)).to.deep.equal(bag('a c'));
    });

    it('works under closures', () => {
      expect(run(src, '(!:p)+', 'a', null)).to.deep.equal(bag('a c'));
      expect(run(src, '(!:q)*', 'a', null)).to.deep.equal(bag('a a', 'a b', 'a c', 'a "lit"'));
    });
  });

  describe('nested combinations', () => {
    it('(:p/:q)* steps through whole sequences', () => {
      const src = new MemorySource().add('a p b . b q c . c p d . d q e . b p x');
      expect(run(src, '(:p/:q)*', 'a', null)).to.deep.equal(bag('a a', 'a c', 'a e'));
      expect(run(src, '(:p/:q)*', null, 'e')).to.deep.equal(bag('a e', 'c e', 'e e'));
      expect(run(src, '(:p/:q)+', 'a', 'e')).to.deep.equal(bag('a e'));
      expect(run(src, '(:p/:q)*', 'b', 'c')).to.deep.equal([]);
      const all = run(src, '(:p/:q)*', null, null);
      expect(all).to.include.members(['a c', 'a e', 'c e', 'x x', 'b b']);
      expect(all).to.have.length(6 + 3);
    });

    it('^(:p|:q)+ walks alternatives backwards', () => {
      const src = new MemorySource().add('a p b . b q c . c r d . a q b');
      expect(run(src, '^(:p|:q)+', 'c', null)).to.deep.equal(bag('c a', 'c b'));
      expect(run(src, '^(:p|:q)+', null, 'a')).to.deep.equal(bag('b a', 'c a'));
      expect(run(src, '^(:p|:q)+', 'c', 'a')).to.deep.equal(bag('c a'));
      expect(run(src, '^(:p|:q)+', null, null)).to.deep.equal(bag('b a', 'c a', 'c b'));
    });

    it('(:p|^:p)+ is undirected reachability', () => {
      const src = new MemorySource().add('a p b . c p b . d p e');
      expect(run(src, '(:p|^:p)+', 'a', null)).to.deep.equal(bag('a a', 'a b', 'a c'));
      expect(run(src, '(:p|^:p)+', null, 'e')).to.deep.equal(bag('d e', 'e e'));
    });

    it('((:p)*)* equals :p*', () => {
      const src = new MemorySource().add('A0 p A1 . A0 p A2 . A1 p A0 . A1 p A2 . A2 p A0 . A2 p A1');
      expect(run(src, '((:p)*)*', 'A0', null)).to.deep.equal(bag('A0 A0', 'A0 A1', 'A0 A2'));
      expect(run(src, '(:p+)+', null, null)).to.deep.equal(run(src, ':p*', null, null));
    });

    it(':p*/:q* joins two distinct sets as a bag', () => {
      const src = new MemorySource().add('a p b . b q c . a q c');
      // a :p* {a, b}; a :q* {a, c}; b :q* {b, c}: c is reached through a and through b.
      expect(run(src, ':p*/:q*', 'a', null)).to.deep.equal(bag('a a', 'a b', 'a c', 'a c'));
      expect(run(src, ':p*/:q*', null, 'c')).to.deep.equal(bag('a c', 'a c', 'b c', 'c c'));
      expect(run(src, ':p*/:q*', 'a', 'c')).to.deep.equal(bag('a c', 'a c'));
      expect(run(src, '(:p*/:q*)*', 'a', null)).to.deep.equal(bag('a a', 'a b', 'a c'));
    });

    it(':p+/:q and :p/:q? mix closures into sequences', () => {
      const src = new MemorySource().add('a p b . b p c . b q x . c q y');
      expect(run(src, ':p+/:q', 'a', null)).to.deep.equal(bag('a x', 'a y'));
      expect(run(src, ':p/:q?', 'a', null)).to.deep.equal(bag('a b', 'a x'));
      expect(run(src, ':p/:q?', null, null)).to.deep.equal(bag('a b', 'a x', 'b c', 'b y'));
    });
  });

  describe('both ends bound', () => {
    const src = new MemorySource().add('a p m1 . a p m2 . m1 p z . m2 p z . z q a');

    it('gives each operator its multiplicity', () => {
      expect(run(src, ':p', 'a', 'm1')).to.deep.equal(bag('a m1'));
      expect(run(src, ':p/:p', 'a', 'z')).to.deep.equal(times(2, 'a z'));
      expect(run(src, '(:p/:p)|(:p/:p)', 'a', 'z')).to.deep.equal(times(4, 'a z'));
      expect(run(src, ':p+', 'a', 'z')).to.deep.equal(bag('a z'));
      expect(run(src, ':p*', 'a', 'z')).to.deep.equal(bag('a z'));
      expect(run(src, '(:p/:p)?', 'a', 'z')).to.deep.equal(bag('a z'));
      expect(run(src, '(:p|:q)+', 'a', 'a')).to.deep.equal(bag('a a'));
      expect(run(src, '^:q', 'a', 'z')).to.deep.equal(bag('a z'));
      expect(run(src, '!:q', 'm1', 'z')).to.deep.equal(bag('m1 z'));
      expect(run(src, '!:q', 'z', 'a')).to.deep.equal([]);
      expect(run(src, ':p+', 'z', 'a')).to.deep.equal([]);
    });
  });

  describe('evaluation order', () => {
    const chain = new MemorySource().add('a p b . b p c . c q d . d p e');

    function patterns(src: MemorySource, text: string, s: End, o: End): Set<string> {
      src.calls.length = 0;
      run(src, text, s, o);
      return new Set(src.calls);
    }

    it('starts from a bound subject', () => {
      for (const text of [':p+', ':p*', ':p/:q', '(:p/:q)*', ':p?', '!:p', '^(:p|:q)+']) {
        const seen = patterns(chain, text, 'a', null);
        for (const p of seen) expect(p.startsWith('s') || p.endsWith('o'), `${text}: ${p}`).to.equal(true);
      }
    });

    it('walks backwards from a bound object', () => {
      for (const text of [':p+', ':p*', ':p/:q', ':p/:q/:p', '(:p/:q)*', ':p?', '!:p', '^(:p|:q)+']) {
        const seen = patterns(chain, text, null, 'e');
        for (const p of seen) expect(p.startsWith('s') || p.endsWith('o'), `${text}: ${p}`).to.equal(true);
      }
    });

    it('finds the bound-subject results walking backwards', () => {
      expect(run(chain, ':p/:q/:p', null, 'e')).to.deep.equal(bag('b e'));
      expect(run(chain, '(:p|:q)+', null, 'e')).to.deep.equal(bag('a e', 'b e', 'c e', 'd e'));
    });
  });

  describe('early stop', () => {
    const src = new MemorySource().add('a p b . b p c . c p a . a q b . a q c . b q "x"');

    it('stops at the first solution when emit returns true', () => {
      const cases: [string, End, End][] = [
        [':p', null, null], ['^:p', null, null], [':p/:p', null, null], [':p|:q', null, null],
        ['!:p', null, null], ['!:p', 'a', null], ['!^:p', null, 'a'], [':p?', null, null], [':p?', 'a', null],
        [':p*', null, null], [':p*', 'a', null], [':p+', null, 'a'], [':p+', 'a', 'a'], [':p*', 'a', 'c'],
        ['(:p|:q)+', null, null], ['(:p/:q)*', null, null], [':p/:q', null, 'c'],
      ];
      for (const [text, s, o] of cases) {
        let count = 0;
        const stopped = evaluatePath(pathOf(text), s === null ? UNBOUND : src.id(s), o === null ? UNBOUND : src.id(o), DEFAULT_GRAPH, src, () => {
          count++;
          return true;
        });
        expect(stopped, text).to.equal(true);
        expect(count, text).to.equal(1);
      }
    });

    it('returns false when emit never asks to stop', () => {
      let count = 0;
      const stopped = evaluatePath(pathOf(':p*'), UNBOUND, UNBOUND, DEFAULT_GRAPH, src, () => {
        count++;
        return false;
      });
      expect(stopped).to.equal(false);
      expect(count).to.equal(3 * 3 + 1);
    });
  });

  describe('graphs', () => {
    const src = new MemorySource();
    const g1 = src.id('g1');
    const g2 = src.id('g2');
    src.add('a p b . b p c', g1).add('c p d . x q y', g2).add('a p z');

    it('evaluates within the given graph only', () => {
      expect(run(src, ':p+', 'a', null, g1)).to.deep.equal(bag('a b', 'a c'));
      expect(run(src, ':p+', 'a', null, g2)).to.deep.equal([]);
      expect(run(src, ':p+', 'a', null)).to.deep.equal(bag('a z'));
      expect(run(src, ':p*', null, null, g2)).to.deep.equal(bag('c c', 'c d', 'd d', 'x x', 'y y'));
      expect(run(src, '!:q', null, null, g2)).to.deep.equal(bag('c d'));
    });

    it('rejects ANY_NAMED_GRAPH', () => {
      expect(() => evaluatePath(pathOf(':p*'), UNBOUND, UNBOUND, ANY_NAMED_GRAPH, src, () => {})).to.throw(RangeError);
    });
  });

  describe('scale', () => {
    const n = 20000;
    const chain = new MemorySource();
    const p = chain.id('p');
    const ids = Array.from({ length: n + 1 }, (_, i) => chain.id(`n${i}`));
    for (let i = 0; i < n; i++) chain.addIds(ids[i] as number, p, ids[i + 1] as number, DEFAULT_GRAPH);
    const first = ids[0] as number;
    const last = ids[n] as number;

    function count(text: string, s: number, o: number): number {
      let results = 0;
      evaluatePath(pathOf(text), s, o, DEFAULT_GRAPH, chain, () => {
        results++;
      });
      return results;
    }

    it('walks a long chain without deep recursion', () => {
      expect(count(':p*', first, UNBOUND)).to.equal(n + 1);
      expect(count(':p+', UNBOUND, last)).to.equal(n);
      expect(count(':p+', first, last)).to.equal(1);
      expect(count('(:p/:p)*', first, UNBOUND)).to.equal(n / 2 + 1);
      expect(count('^:p*', last, UNBOUND)).to.equal(n + 1);
    });

    it('closes a long cycle', () => {
      chain.addIds(last, p, first, DEFAULT_GRAPH);
      expect(count(':p+', first, UNBOUND)).to.equal(n + 1);
      expect(count(':p+', first, first)).to.equal(1);
    });
  });

  describe('W3C property-path tests', function () {
    const dir = w3cPath('sparql/sparql11/property-path');
    const tests: { name: string; query: string; data?: string; graphData?: string[]; result: string }[] = [
      { name: 'pp01', query: 'pp01.rq', data: 'pp01.ttl', result: 'pp01.srx' },
      { name: 'pp02', query: 'pp02.rq', data: 'pp01.ttl', result: 'pp02.srx' },
      { name: 'pp03', query: 'pp03.rq', data: 'pp03.ttl', result: 'pp03.srx' },
      { name: 'pp06', query: 'pp06.rq', graphData: ['pp061.ttl', 'pp062.ttl'], result: 'pp06.srx' },
      { name: 'pp07', query: 'pp06.rq', graphData: ['pp07.ttl'], result: 'pp07.srx' },
      { name: 'pp08', query: 'pp08.rq', data: 'pp08.ttl', result: 'pp08.srx' },
      { name: 'pp09', query: 'pp09.rq', data: 'pp09.ttl', result: 'pp09.srx' },
      { name: 'pp10', query: 'pp10.rq', data: 'pp10.ttl', result: 'pp10.srx' },
      { name: 'pp11', query: 'pp11.rq', data: 'pp11.ttl', result: 'pp11.srx' },
      { name: 'pp12', query: 'pp12.rq', data: 'pp11.ttl', result: 'pp12.srx' },
      { name: 'pp14', query: 'pp14.rq', data: 'pp14.ttl', result: 'pp14.srx' },
      { name: 'pp16', query: 'pp14.rq', data: 'pp16.ttl', result: 'pp16.srx' },
      { name: 'pp21', query: 'path-2-2.rq', data: 'data-diamond.ttl', result: 'diamond-2.srx' },
      { name: 'pp23', query: 'path-2-2.rq', data: 'data-diamond-tail.ttl', result: 'diamond-tail-2.srx' },
      { name: 'pp25', query: 'path-2-2.rq', data: 'data-diamond-loop.ttl', result: 'diamond-loop-2.srx' },
      { name: 'pp28a', query: 'path-3-3.rq', data: 'data-diamond-loop.ttl', result: 'diamond-loop-5a.srx' },
      { name: 'pp30', query: 'path-p1.rq', data: 'path-p1.ttl', result: 'path-p1.srx' },
      { name: 'pp31', query: 'path-p2.rq', data: 'path-p1.ttl', result: 'path-p2.srx' },
      { name: 'pp32', query: 'path-p3.rq', data: 'path-p3.ttl', result: 'path-p3.srx' },
      { name: 'pp33', query: 'path-p4.rq', data: 'path-p3.ttl', result: 'path-p4.srx' },
      { name: 'pp34', query: 'path-ng-01.rq', graphData: ['ng-01.ttl', 'ng-02.ttl', 'ng-03.ttl'], result: 'path-ng-01.srx' },
      { name: 'pp36', query: 'pp36.rq', data: 'clique3.ttl', result: 'pp36.srx' },
      { name: 'pp37', query: 'pp37.rq', data: 'pp37.ttl', result: 'pp37.srx' },
      { name: 'nps_inverse', query: 'nps_inverse.rq', data: 'nps_inverse.ttl', result: 'nps_inverse.srx' },
      { name: 'nps_direct_and_inverse', query: 'nps_direct_and_inverse.rq', data: 'nps_direct_and_inverse.ttl', result: 'nps_direct_and_inverse.srx' },
      { name: 'nps_a', query: 'nps_a.rq', data: 'nps_a.ttl', result: 'nps_a.srx' },
      { name: 'nps_a_inverse', query: 'nps_a_inverse.rq', data: 'nps_a_inverse.ttl', result: 'nps_a_inverse.srx' },
      { name: 'zero_or_more_set_start', query: 'zero_or_more_set_start.rq', data: 'empty.ttl', result: 'zero_or_more_set_start.srx' },
      { name: 'zero_or_more_set_end', query: 'zero_or_more_set_end.rq', data: 'empty.ttl', result: 'zero_or_more_set_end.srx' },
      { name: 'zero_or_one_set_start', query: 'zero_or_one_set_start.rq', data: 'empty.ttl', result: 'zero_or_one_set_start.srx' },
      { name: 'zero_or_one_set_end', query: 'zero_or_one_set_end.rq', data: 'empty.ttl', result: 'zero_or_one_set_end.srx' },
    ];

    for (const test of tests) {
      it(test.name, function () {
        if (!existsSync(dir)) this.skip();
        const actual = runW3C(dir, test.query, test.data, test.graphData ?? [], test.name);
        const expected = readResults(join(dir, test.result));
        expect(actual).to.deep.equal(expected);
      });
    }
  });
});

/** What termKey reads of an RDF/JS term or of a results-file binding. */
interface TermLike {
  readonly termType: string;
  readonly value: string;
  readonly language?: string | undefined;
  readonly datatype?: { readonly value: string } | undefined;
}

/** The store key of an RDF/JS term (plain literals without a datatype suffix). */
function termKey(term: TermLike): string {
  switch (term.termType) {
    case 'NamedNode':
      return term.value;
    case 'BlankNode':
      return `_:${term.value}`;
    case 'Literal': {
      if (term.language) return `"${term.value}"@${term.language.toLowerCase()}`;
      const datatype = term.datatype?.value ?? XSD_STRING;
      return datatype === XSD_STRING ? `"${term.value}"` : `"${term.value}"^^${datatype}`;
    }
    default:
      throw new Error(`unexpected term ${term.termType}`);
  }
}

/** Loads a Turtle file into a graph of the source. */
function load(src: MemorySource, path: string, graph: number): void {
  const quads: Quad[] = new TurtleParser({ baseIRI: pathToFileURL(path).href }).parse(readFileSync(path, 'utf8'));
  for (const q of quads) {
    src.addIds(src.idOfKey(termKey(q.subject)), src.idOfKey(termKey(q.predicate)), src.idOfKey(termKey(q.object)), graph);
  }
}

/** The one triple of a W3C query whose WHERE clause is a single path pattern, possibly inside GRAPH. */
function singleTriple(patterns: Pattern[] | undefined, name: string): Triple {
  const [pattern, ...rest] = patterns ?? [];
  if (!pattern || rest.length > 0) throw new Error(`${name}: expected one pattern`);
  if (pattern.type === 'graph') return singleTriple(pattern.patterns, name);
  if (pattern.type !== 'bgp' || pattern.triples.length !== 1) throw new Error(`${name}: expected one triple`);
  const [triple] = pattern.triples;
  if (!triple) throw new Error(`${name}: expected one triple`);
  return triple;
}

/**
 * Evaluates a W3C query made of one path pattern (optionally in GRAPH <g> or GRAPH ?g) with
 * evaluatePath, doing by hand the little the caller would: iterating named graphs, filtering
 * `?x path ?x`, projecting. Returns the solutions as sorted `var=key` rows, or `true`/`false`
 * for ASK.
 */
function runW3C(dir: string, queryFile: string, data: string | undefined, graphData: string[], name: string): string[] | boolean {
  const src = new MemorySource();
  if (data) load(src, join(dir, data), DEFAULT_GRAPH);
  for (const file of graphData) {
    const path = join(dir, file);
    load(src, path, src.idOfKey(pathToFileURL(path).href));
  }
  const queryPath = join(dir, queryFile);
  const query: SparqlQuery = new SparqlParser({ baseIRI: pathToFileURL(queryPath).href }).parse(readFileSync(queryPath, 'utf8'));
  if (query.type !== 'query') throw new Error(`${name}: not a query`);
  // Keep a top-level sequence, inverse or link a path: wrap it in `(...)?` and unwrap the algebra.
  const triple = singleTriple(query.where, name);
  const predicate = triple.predicate;
  if ('termType' in predicate && predicate.termType === 'Variable') throw new Error(`${name}: variable predicate`);
  triple.predicate = { type: 'path', pathType: '?', items: [predicate] };
  const [path, ...others] = findPaths(translate(query, { quads: true }));
  if (!path || others.length > 0 || path.predicate.type !== Algebra.types.ZERO_OR_ONE_PATH) throw new Error(`${name}: expected one path`);

  const end = (term: RDF.Term): number => (term.termType === 'Variable' ? UNBOUND : src.idOfKey(termKey(term)));
  const graphs = path.graph.termType === 'DefaultGraph' ? [DEFAULT_GRAPH] : path.graph.termType === 'Variable' ? src.graphs() : [src.idOfKey(termKey(path.graph))];
  const rows: Map<string, string>[] = [];
  for (const graph of graphs) {
    evaluatePath(path.predicate.path, end(path.subject), end(path.object), graph, src, (s, o) => {
      const row = new Map<string, string>();
      const bind = (term: RDF.Term, id: number): boolean => {
        if (term.termType !== 'Variable') return true;
        const key = src.key(id);
        const bound = row.get(term.value);
        if (bound !== undefined) return bound === key;
        row.set(term.value, key);
        return true;
      };
      if (!bind(path.subject, s) || !bind(path.object, o)) return;
      if (path.graph.termType === 'Variable') bind(path.graph, graph);
      rows.push(row);
    });
  }
  if (query.queryType === 'ASK') return rows.length > 0;
  if (query.queryType !== 'SELECT') throw new Error(`${name}: unsupported query form`);
  const projected = query.variables.flatMap((v) => ('termType' in v && v.termType === 'Variable' ? [v.value] : []));
  return rows
    .map((row) => [...row].filter(([v]) => projected.length === 0 || projected.includes(v)).map(([v, k]) => `${v}=${k}`).sort().join(' '))
    .sort();
}

/** Reads a SPARQL XML results file as sorted `var=key` rows, or a boolean. */
function readResults(path: string): string[] | boolean {
  const xml = readFileSync(path, 'utf8');
  const boolean = /<boolean>\s*(true|false)\s*<\/boolean>/.exec(xml);
  if (boolean) return boolean[1] === 'true';
  const rows: string[] = [];
  for (const [, body] of xml.matchAll(/<result>([\s\S]*?)<\/result>/g)) {
    const bindings: string[] = [];
    const re = /<binding\s+name=["']([^"']+)["']\s*>\s*<(uri|literal|bnode)([^>]*)>([\s\S]*?)<\/\2>\s*<\/binding>/g;
    for (const [, variable, kind, attributes, value] of (body ?? '').matchAll(re)) {
      if (variable === undefined || value === undefined) continue;
      const text = unescapeXml(value);
      let key: string;
      if (kind === 'uri') key = text;
      else if (kind === 'bnode') key = `_:${text}`;
      else {
        const lang = /xml:lang=["']([^"']+)["']/.exec(attributes ?? '');
        const datatype = /datatype=["']([^"']+)["']/.exec(attributes ?? '');
        key = termKey({ termType: 'Literal', value: text, language: lang?.[1], datatype: datatype?.[1] === undefined ? undefined : { value: datatype[1] } });
      }
      bindings.push(`${variable}=${key}`);
    }
    rows.push(bindings.sort().join(' '));
  }
  return rows.sort();
}

function unescapeXml(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}
