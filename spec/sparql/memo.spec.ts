import { expect } from 'chai';
import { Algebra, translate } from 'sparqlalgebrajs';
import { memoizeOnSlot, pureVariables } from '../../lib/sparql/memo.js';

/** The expression of the first BIND of a query. */
function bindOf(text: string): Algebra.Expression {
  let found: Algebra.Expression | undefined;
  const walk = (op: Algebra.Operation): void => {
    if (op.type === Algebra.types.EXTEND) found ??= op.expression;
    for (const v of Object.values(op)) if (v && typeof v === 'object' && 'type' in v) walk(v as Algebra.Operation);
  };
  walk(translate(`SELECT * WHERE { ?s ?p ?o ${text} }`));
  return found!;
}

describe('sparql/memo: expressions memoised on their one variable', () => {
  it('finds the variables of expressions that are functions of them alone', () => {
    expect(pureVariables(bindOf('BIND(STRAFTER(STR(?p), "#") AS ?l)'))).to.deep.equal(['p']);
    expect(pureVariables(bindOf('BIND(1 AS ?one)'))).to.deep.equal([]);
    expect(pureVariables(bindOf('BIND(<http://www.w3.org/2001/XMLSchema#integer>(?o) + STRLEN(?s) AS ?n)'))?.sort()).to.deep.equal(['o', 's']);
    for (const volatile of ['BIND(RAND() AS ?r)', 'BIND(CONCAT(STR(?s), STRUUID()) AS ?u)', 'BIND(BNODE(STR(?s)) AS ?b)', 'BIND(EXISTS { ?s ?p ?x } AS ?e)', 'BIND(<http://example.com/f>(?s) AS ?f)']) {
      expect(pureVariables(bindOf(volatile)), volatile).to.equal(undefined);
    }
  });

  it('calls the function once per distinct id, and gives up caching when ids are mostly distinct', () => {
    let calls = 0;
    const f = memoizeOnSlot(0, (s) => {
      calls++;
      return s[0]! * 2;
    });
    for (let i = 0; i < 3000; i++) expect(f(Int32Array.of(i % 3))).to.equal((i % 3) * 2);
    expect(calls).to.equal(3);
    calls = 0;
    const g = memoizeOnSlot(0, (s) => {
      calls++;
      return s[0]!;
    });
    for (let i = 0; i < 10_000; i++) g(Int32Array.of(i));
    for (let i = 0; i < 10; i++) g(Int32Array.of(1));
    expect(calls).to.equal(10_010);
  });
});
