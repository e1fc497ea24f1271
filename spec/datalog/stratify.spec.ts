/**
 * Unit tests of stratification: levels from the dependency graph (components in topological
 * order, base nodes at level 0), recursive levels, and the cycles through NOT/AGGREGATE that
 * make a program unstratifiable.
 */
import { expect } from 'chai';
import { type DependencyEdge, stratify, type Stratification, StratificationCycle } from '../../lib/datalog/stratify.js';

/** `head :- body` (positive). */
function pos(body: string, head: string, rule = `${head} :- ${body}`): DependencyEdge {
  return { from: body, to: head, negative: false, rule };
}

/** `head :- NOT body` (or an aggregate over body). */
function neg(body: string, head: string, rule = `${head} :- NOT ${body}`): DependencyEdge {
  return { from: body, to: head, negative: true, rule };
}

/** Stratifies the edges, taking every edge target as a head node; fails on a cycle. */
function levels(edges: readonly DependencyEdge[], extraHeads: readonly string[] = []): Stratification {
  const s = stratify([...extraHeads, ...edges.map((e) => e.to)], edges);
  if (s instanceof StratificationCycle) expect.fail(`unexpected cycle ${s.nodes.join(' -> ')} (${s.rule})`);
  return s;
}

/** The cycle found for the edges; fails when the program stratifies. */
function cycle(edges: readonly DependencyEdge[]): StratificationCycle {
  const s = stratify(edges.map((e) => e.to), edges);
  expect(s, 'expected a cycle through negation').to.be.instanceOf(StratificationCycle);
  return s as StratificationCycle;
}

/** Every edge between different components goes strictly up; every edge inside one stays level. */
function expectOrdered(s: Stratification, edges: readonly DependencyEdge[]): void {
  for (const e of edges) {
    const from = s.levelOf.get(e.from)!;
    const to = s.levelOf.get(e.to)!;
    expect(from, `${e.from} -> ${e.to}`).to.be.at.most(to);
    if (e.negative) expect(from, `negative ${e.from} -> ${e.to}`).to.be.lessThan(to);
  }
}

describe('datalog/stratify', () => {
  describe('levels', () => {
    it('an empty program has no levels', () => {
      const s = levels([]);
      expect(s.levels).to.equal(0);
      expect([...s.levelOf]).to.deep.equal([]);
      expect(s.recursive).to.deep.equal([false]);
    });

    it('a derived node without dependencies is at level 1', () => {
      const s = levels([], ['fact']);
      expect(s.levels).to.equal(1);
      expect(s.levelOf.get('fact')).to.equal(1);
      expect(s.recursive).to.deep.equal([false, false]);
    });

    it('base nodes are at level 0 and each derived node is above what it depends on', () => {
      const edges = [pos('base', 'b'), pos('b', 'c'), pos('c', 'd')];
      const s = levels(edges);
      expect(Object.fromEntries(s.levelOf)).to.deep.equal({ base: 0, b: 1, c: 2, d: 3 });
      expect(s.levels).to.equal(3);
      expect(s.recursive).to.deep.equal([false, false, false, false]);
      expectOrdered(s, edges);
    });

    it('a node is placed above the longest path of dependencies (diamond with a shortcut)', () => {
      const edges = [pos('x', 'b'), pos('b', 'c'), pos('c', 'd'), pos('x', 'd'), neg('b', 'd'), pos('y', 'e')];
      const s = levels(edges);
      expect(Object.fromEntries(s.levelOf)).to.deep.equal({ x: 0, y: 0, b: 1, c: 2, d: 3, e: 1 });
      expectOrdered(s, edges);
    });

    it('levels are dense even when every node is derived', () => {
      const s = levels([pos('a', 'b')], ['a']);
      expect(Object.fromEntries(s.levelOf)).to.deep.equal({ a: 1, b: 2 });
      expect(s.levels).to.equal(2);
    });

    it('negation over a lower stratum is allowed', () => {
      const edges = [pos('person', 'married'), pos('person', 'single'), neg('married', 'single')];
      const s = levels(edges);
      expect(s.levelOf.get('married')).to.equal(1);
      expect(s.levelOf.get('single')).to.equal(2);
      expectOrdered(s, edges);
    });
  });

  describe('recursion', () => {
    it('a self-recursive node (transitive closure) is in a recursive level', () => {
      const edges = [pos('par', 'anc'), pos('anc', 'anc'), pos('par', 'anc')];
      const s = levels(edges);
      expect(Object.fromEntries(s.levelOf)).to.deep.equal({ par: 0, anc: 1 });
      expect(s.recursive).to.deep.equal([false, true]);
    });

    it('mutually recursive nodes share a level; what depends on them is above, not recursive', () => {
      const edges = [pos('base', 'p'), pos('p', 'q'), pos('q', 'r'), pos('r', 'p'), neg('q', 's'), pos('base', 's'), pos('s', 't')];
      const s = levels(edges);
      expect(s.levelOf.get('p')).to.equal(1);
      expect(s.levelOf.get('q')).to.equal(1);
      expect(s.levelOf.get('r')).to.equal(1);
      expect(s.levelOf.get('s')).to.equal(2);
      expect(s.levelOf.get('t')).to.equal(3);
      expect(s.recursive).to.deep.equal([false, true, false, false]);
      expectOrdered(s, edges);
    });

    it('a positive cycle with a negation leaving it is stratified', () => {
      const edges = [pos('a', 'b'), pos('b', 'a'), neg('a', 'c'), pos('c', 'c')];
      const s = levels(edges);
      expect(s.levelOf.get('a')).to.equal(s.levelOf.get('b'));
      expect(s.levelOf.get('c')).to.equal(s.levelOf.get('a')! + 1);
      expect(s.recursive[s.levelOf.get('a')!]).to.equal(true);
      expect(s.recursive[s.levelOf.get('c')!]).to.equal(true);
    });

    it('handles long chains and long cycles without deep recursion', () => {
      const n = 20_000;
      const chain = Array.from({ length: n }, (_, i) => pos(`n${i}`, `n${i + 1}`));
      const s = levels(chain);
      expect(s.levels).to.equal(n);
      expect(s.levelOf.get(`n${n}`)).to.equal(n);
      expect(s.levelOf.get('n0')).to.equal(0);
      const ring = levels([...chain, pos(`n${n}`, 'n0')]);
      expect(ring.levels).to.equal(1);
      expect(ring.recursive).to.deep.equal([false, true]);
    });
  });

  describe('cycles through negation or aggregation', () => {
    it('p :- NOT q, q :- p is rejected, naming both nodes and the rule', () => {
      const c = cycle([neg('q', 'p', 'rule 1'), pos('p', 'q', 'rule 2')]);
      expect(c.nodes).to.deep.equal(['p', 'q', 'p']);
      expect(c.rule).to.equal('rule 1');
    });

    it('a node negating itself', () => {
      const c = cycle([pos('base', 'p'), neg('p', 'p', 'self')]);
      expect(c.nodes).to.deep.equal(['p', 'p']);
      expect(c.rule).to.equal('self');
    });

    it('a longer cycle lists its nodes in dependency order, and only them', () => {
      const c = cycle([pos('x', 'a'), neg('c', 'a', 'closing'), pos('a', 'b'), pos('b', 'c'), pos('c', 'd')]);
      expect(c.nodes).to.deep.equal(['a', 'b', 'c', 'a']);
      expect(c.rule).to.equal('closing');
    });

    it('the cycle is a real path of the graph closed by the negative edge', () => {
      // two ways round; whichever is reported must follow edges of the program
      const edges = [neg('e', 'a', 'neg'), pos('a', 'b'), pos('b', 'e'), pos('a', 'c'), pos('c', 'd'), pos('d', 'e'), pos('b', 'c')];
      const c = cycle(edges);
      expect(c.nodes[0]).to.equal('a');
      expect(c.nodes[c.nodes.length - 1]).to.equal('a');
      expect(c.nodes[c.nodes.length - 2]).to.equal('e');
      for (let i = 0; i + 1 < c.nodes.length; i++) {
        const from = c.nodes[i]!;
        const to = c.nodes[i + 1]!;
        expect(edges.some((e) => e.from === from && e.to === to), `${from} -> ${to}`).to.equal(true);
      }
      expect(new Set(c.nodes.slice(0, -1)).size).to.equal(c.nodes.length - 1);
    });

    it('gives the edges of the cycle, the negative one last', () => {
      const edges = [pos('x', 'a'), neg('c', 'a', 'closing'), pos('a', 'b'), pos('b', 'c')];
      const c = cycle(edges);
      expect(c.edges.map((e) => `${e.from}->${e.to}`)).to.deep.equal(['a->b', 'b->c', 'c->a']);
      expect(c.edges.at(-1)).to.equal(edges[1]);
      for (let i = 0; i < c.edges.length; i++) expect([c.edges[i]!.from, c.edges[i]!.to]).to.deep.equal([c.nodes[i], c.nodes[i + 1]]);
    });

    it('blames the last negative edge on a cycle (the rule added last, when edges follow the rules)', () => {
      const c = cycle([neg('q', 'p', 'older'), neg('p', 'q', 'newer')]);
      expect(c.rule).to.equal('newer');
      expect(c.nodes).to.deep.equal(['q', 'p', 'q']);
      expect(c.edges.map((e) => e.rule)).to.deep.equal(['older', 'newer']);
    });

    it('a negative edge inside a large positive component is found', () => {
      const n = 500;
      const ring = Array.from({ length: n }, (_, i) => pos(`r${i}`, `r${(i + 1) % n}`));
      const c = cycle([...ring, neg('r250', 'r100', 'agg')]);
      expect(c.rule).to.equal('agg');
      expect(c.nodes[0]).to.equal('r100');
      expect(c.nodes).to.have.length(152);
      expect(c.nodes.at(-2)).to.equal('r250');
    });
  });
});
