/**
 * Property paths of SHACL read from the shapes graph and followed in the data graph: every
 * kind of path, its inverse, and paths that are not well-formed.
 */
import { expect } from 'chai';
import { readPath, pathValues } from '../../lib/shacl/paths.js';
import { GraphReader } from '../../lib/shacl/graph.js';
import { TermTable } from '../../lib/shacl/terms.js';
import { ShaclShapeError } from '../../lib/shacl/index.js';
import { useShaclServer, type ShaclStore } from './shacl-store.js';

describe('shacl/paths', () => {
  const env = useShaclServer('paths');
  let store: ShaclStore;

  before(async () => {
    store = await env.store(
      `ex:a ex:p ex:b . ex:b ex:p ex:c . ex:c ex:p ex:d . ex:b ex:q ex:x . ex:c ex:q ex:y . ex:z ex:p ex:a .`,
      `ex:pred sh:path ex:p .
       ex:inv sh:path [ sh:inversePath ex:p ] .
       ex:seq sh:path ( ex:p ex:q ) .
       ex:alt sh:path [ sh:alternativePath ( ex:p ex:q ) ] .
       ex:star sh:path [ sh:zeroOrMorePath ex:p ] .
       ex:plus sh:path [ sh:oneOrMorePath ex:p ] .
       ex:opt sh:path [ sh:zeroOrOnePath ex:p ] .
       ex:invseq sh:path [ sh:inversePath ( ex:p ex:p ) ] .
       ex:bad1 sh:path [ sh:alternativePath ex:p ] .
       ex:bad2 sh:path ( ex:p ) .
       ex:bad3 sh:path [ ex:unknown ex:p ] .`,
    );
  });

  function values(shape: string, from: string): string[] {
    const sel = store.selection();
    const terms = new TermTable(sel.dictionary);
    const shapes = new GraphReader(sel.state, sel.shapesGraph, 3);
    const data = new GraphReader(sel.state, 'default', 3);
    const pathNode = shapes.object(store.id(shape), store.id('<http://www.w3.org/ns/shacl#path>'));
    const path = readPath(shapes, terms, pathNode);
    return [...pathValues(data, path, store.id(from))].map((v) => store.key(v)).sort();
  }

  it('follows a predicate, its inverse, a sequence and an alternative', () => {
    expect(values('ex:pred', 'ex:a')).to.deep.equal(['ex:b']);
    expect(values('ex:inv', 'ex:b')).to.deep.equal(['ex:a']);
    expect(values('ex:seq', 'ex:a')).to.deep.equal(['ex:x']);
    expect(values('ex:alt', 'ex:b')).to.deep.equal(['ex:c', 'ex:x']);
  });

  it('follows zero-or-more, one-or-more and zero-or-one paths', () => {
    expect(values('ex:star', 'ex:b')).to.deep.equal(['ex:b', 'ex:c', 'ex:d']);
    expect(values('ex:plus', 'ex:b')).to.deep.equal(['ex:c', 'ex:d']);
    expect(values('ex:opt', 'ex:c')).to.deep.equal(['ex:c', 'ex:d']);
    expect(values('ex:plus', 'ex:d')).to.deep.equal([]);
  });

  it('inverts a sequence step by step', () => {
    expect(values('ex:invseq', 'ex:c')).to.deep.equal(['ex:a']);
    expect(values('ex:invseq', 'ex:b')).to.deep.equal(['ex:z']);
  });

  it('refuses ill-formed paths', () => {
    for (const bad of ['ex:bad1', 'ex:bad2', 'ex:bad3']) expect(() => values(bad, 'ex:a'), bad).to.throw(ShaclShapeError);
  });
});
