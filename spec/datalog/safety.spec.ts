/**
 * Unit tests of rule safety (checkSafety) on parsed rules: which variables count as bound
 * (positive atoms, BIND targets with bound inputs, aggregate outputs), the scopes of NOT EXISTS
 * and AGGREGATE, and the errors, with the position of the offending literal, for unsafe heads,
 * FILTER, BIND, NOT, AGGREGATE and the functions rules may not use.
 */
import { expect } from 'chai';
import type { Rule } from '../../lib/datalog/ast.js';
import { checkSafety } from '../../lib/datalog/safety.js';
import { parseDatalog } from '../../lib/formats/datalog-parser.js';
import { RuleCompilationError } from '../../lib/index.js';

const PREFIXES = new Map([[':', 'http://ex/']]);

/** Parses one rule (text without prefix declarations; `:` is declared). */
function rule(text: string): Rule {
  const { document, errors } = parseDatalog(text, { prefixes: PREFIXES });
  expect(errors, JSON.stringify(errors)).to.deep.equal([]);
  expect(document.rules).to.have.length(1);
  return document.rules[0]!;
}

function expectSafe(text: string): void {
  expect(() => checkSafety(rule(text)), text).to.not.throw();
}

/** Expects a RuleCompilationError at the position of `at` (its first occurrence, or column 1 on line 1). */
function expectUnsafe(text: string, message: RegExp, at?: { line: number; column: number } | string): void {
  const parsed = rule(text);
  let error: unknown;
  try {
    checkSafety(parsed);
  } catch (e) {
    error = e;
  }
  expect(error, `expected '${text}' to be unsafe`).to.be.instanceOf(RuleCompilationError);
  const m = (error as Error).message;
  expect(m).to.match(message);
  const pos = typeof at === 'string' ? { line: 1, column: text.indexOf(at) + 1 } : (at ?? { line: 1, column: 1 });
  expect(m.startsWith(`line ${pos.line}: column ${pos.column}: `), m).to.equal(true);
}

describe('datalog/safety', () => {
  describe('safe rules', () => {
    const safe = [
      '[?x, :q, ?y] :- [?x, :p, ?y] .',
      ':C[?x] :- [?x, :p, ?y], [?y, :p, ?z] .',
      '[:a, :q, :b] :- .',
      '[:a, :q, :b] :- [?x, :p, ?y] .',
      '[?x, :q, ?y] :- [?x, :p, ?y], FILTER(?x != ?y && ?y > 3) .',
      '[?x, :q, ?z] :- [?x, :p, ?y], BIND(?y + 1 AS ?z) .',
      // a BIND may use a variable another BIND binds, in any order
      '[?x, :q, ?w] :- BIND(?z * 2 AS ?w), [?x, :p, ?y], BIND(?y + 1 AS ?z) .',
      '[?x, :q, ?z] :- [?x, :p, ?y], BIND(?y + 1 AS ?z), FILTER(?z > 2) .',
      '[?x, :q, ?y] :- [?x, :p, ?y], NOT [?y, :p, ?x] .',
      '[?x, :q, ?y] :- [?x, :p, ?y], NOT EXISTS ?z IN [?y, :r, ?z] .',
      '[?x, :q, ?y] :- [?x, :p, ?y], NOT EXISTS ?z, ?w IN ([?y, :r, ?z], [?z, :r, ?w]) .',
      '[?x, :q, ?z] :- [?x, :p, ?y], BIND(?y AS ?z), NOT [?x, :r, ?z] .',
      '[?x, :n, ?n] :- AGGREGATE([?x, :p, ?y] ON ?x BIND COUNT(?y) AS ?n) .',
      '[:all, :n, ?n] :- AGGREGATE([?x, :p, ?y] BIND COUNT(*) AS ?n) .',
      '[?x, :n, ?n] :- AGGREGATE([?x, :p, ?y], [?y, :v, ?v], FILTER(?v > 0), BIND(?v * 2 AS ?w) ON ?x BIND SUM(?w) AS ?n) .',
      '[?x, :n, ?n] :- AGGREGATE([?x, :p, ?y] ON ?x BIND COUNT(?y) AS ?n), FILTER(?n > 1) .',
      '[?x, :n, ?m] :- AGGREGATE([?x, :p, ?y] ON ?x BIND COUNT(?y) AS ?n), BIND(?n + 1 AS ?m) .',
      'T(?x, ?y, ?z) :- T(?x, ?y, ?z) .',
      // a BIND whose variable is bound elsewhere tests the value (RDFox's bind atom)
      '[?x, :q, ?y] :- [?x, :p, ?y], BIND(?x AS ?y) .',
      '[?x, :q, ?z] :- [?x, :p, ?y], BIND(?y AS ?z), BIND(?x AS ?z) .',
      '[?x, :q, ?n] :- [?x, :p, ?y], AGGREGATE([?x, :r, ?v] ON ?x BIND COUNT(?v) AS ?n), BIND(?y AS ?n) .',
      // the variables after NOT EXISTS are the negation's own: ?y inside is another variable (the manual's example)
      ':TopComponent[?x] :- :hasComponent[?x, ?y], NOT EXISTS ?y IN (:hasComponent[?y, ?x]) .',
      // non-group variables are local to each AGGREGATE: ?m is two different variables
      '[?f, :adults, ?a], [?f, :children, ?c] :- :F[?f], AGGREGATE(:m[?f, ?m], :age[?m, ?x], FILTER(?x >= 18) ON ?f BIND COUNT(?m) AS ?a), AGGREGATE(:m[?f, ?m], :age[?m, ?x], FILTER(?x < 18) ON ?f BIND COUNT(?m) AS ?c) .',
      '[?x, :n, ?n] :- [?x, :p, ?m], AGGREGATE([?x, :q, ?m] ON ?x BIND COUNT(?m) AS ?n) .',
      // RDFox's aggregate functions
      '[:census, :max, ?m], [:census, :count, ?c], [:census, :first, ?f] :- AGGREGATE(:Person[?p], :age[?p, ?a], :name[?p, ?n] BIND MAX(?a) AS ?m BIND COUNT_MAX(?a) AS ?c BIND MIN_ARGMAX(?n, ?a) AS ?f) .',
      '[?x, :n, ?n] :- AGGREGATE([?x, :p, ?y], [?y, :v, ?v] ON ?x BIND MUL(?v) AS ?n) .',
      '[?x, :n, ?n] :- AGGREGATE([?x, :p, ?y], [?y, :v, ?v] ON ?x BIND COUNT(DISTINCT ?y, ?v) AS ?n) .',
    ];
    for (const text of safe) it(text, () => expectSafe(text));
  });

  describe('head variables', () => {
    it('must be bound by the body', () => {
      expectUnsafe('[?x, :q, ?z] :- [?x, :p, ?y] .', /head variable \?z is not bound by the rule body/);
    });

    it('are not bound by NOT, FILTER or the inside of an AGGREGATE', () => {
      expectUnsafe('[?x, :q, ?z] :- [?x, :p, ?y], NOT [?x, :r, ?z] .', /head variable \?z/);
      expectUnsafe('[?x, :q, ?z] :- [?x, :p, ?y], FILTER(?z = ?y) .', /head variable \?z/);
      expectUnsafe('[?x, :q, ?y] :- AGGREGATE([?x, :p, ?y] ON ?x BIND COUNT(?y) AS ?n) .', /head variable \?y/);
    });

    it('are reported at the head atom they occur in', () => {
      expectUnsafe('[?x, :q, ?y], [?x, :r, ?z] :- [?x, :p, ?y] .', /head variable \?z/, '[?x, :r');
      expectUnsafe('\n\n   [?x, :q, ?z] :-\n [?x, :p, ?y] .', /head variable \?z/, { line: 3, column: 4 });
    });

    it('bound only through BINDs that depend on each other are unbound (reported at the BIND)', () => {
      expectUnsafe('[?x, :q, ?y] :- [?x, :p, ?w], BIND(?z + 1 AS ?y), BIND(?y + 1 AS ?z) .', /variable \?z of BIND is not bound/, 'BIND(?z');
      expectUnsafe('[?x, :q, ?x] :- [?x, :p, ?w], BIND(?z + 1 AS ?y), BIND(?y + 1 AS ?z), FILTER(?y > 0) .', /variable \?z of BIND is not bound/, 'BIND(?z');
    });
  });

  describe('FILTER', () => {
    it('variables must be bound elsewhere in the body', () => {
      expectUnsafe('[?x, :q, ?y] :- [?x, :p, ?y], FILTER(?w > 1) .', /variable \?w of FILTER is not bound/, 'FILTER');
    });

    it('cannot use a variable bound only inside NOT or an AGGREGATE', () => {
      expectUnsafe('[?x, :q, ?y] :- [?x, :p, ?y], NOT EXISTS ?z IN [?y, :r, ?z], FILTER(?z > 1) .', /variable \?z of FILTER/, 'FILTER');
      expectUnsafe('[?x, :n, ?n] :- AGGREGATE([?x, :p, ?y] ON ?x BIND COUNT(?y) AS ?n), FILTER(?y > 1) .', /variable \?y of FILTER/, 'FILTER');
    });
  });

  describe('BIND', () => {
    it('expression variables must be bound elsewhere', () => {
      expectUnsafe('[?x, :q, ?z] :- [?x, :p, ?y], BIND(?w + 1 AS ?z) .', /variable \?w of BIND is not bound/, 'BIND');
    });

    it('cannot use its own variable in its expression', () => {
      expectUnsafe('[?x, :q, ?z] :- [?x, :p, ?y], BIND(?z + 1 AS ?z) .', /^line 1: column 31: BIND\(… AS \?z\) uses \?z in its own expression$/, 'BIND');
      // even when the variable is bound elsewhere
      expectUnsafe('[?x, :q, ?y] :- [?x, :p, ?y], BIND(?y + 1 AS ?y) .', /BIND\(… AS \?y\) uses \?y in its own expression/, 'BIND');
    });
  });

  describe('NOT', () => {
    it('variables must be bound elsewhere unless listed after EXISTS', () => {
      expectUnsafe('[?x, :q, ?y] :- [?x, :p, ?y], NOT [?x, :r, ?w] .', /variable \?w of NOT is not bound .*NOT EXISTS/, 'NOT');
      expectUnsafe('[?x, :q, ?y] :- [?x, :p, ?y], NOT EXISTS ?z IN ([?x, :r, ?z], [?z, :r, ?w]) .', /variable \?w of NOT/, 'NOT');
    });

    it('the variables listed after EXISTS are local: another occurrence outside the negation is another variable', () => {
      expectSafe('[?x, :q, ?y] :- [?x, :p, ?y], NOT EXISTS ?y IN [?x, :r, ?y] .');
      // so they do not bind the head
      expectUnsafe('[?x, :q, ?y] :- [?x, :p, ?z], NOT EXISTS ?y IN [?x, :r, ?y] .', /head variable \?y is not bound/);
    });

    it('are reported at their own line', () => {
      expectUnsafe('[?x, :q, ?y] :-\n  [?x, :p, ?y],\n  NOT [?x, :r, ?w] .', /variable \?w of NOT/, { line: 3, column: 3 });
    });
  });

  describe('AGGREGATE', () => {
    it('group variables must be bound inside it', () => {
      expectUnsafe('[?x, :n, ?n] :- [?x, :q, ?z], AGGREGATE([?y, :p, ?v] ON ?x BIND COUNT(?v) AS ?n) .', /group variable \?x of AGGREGATE is not bound inside it/, 'AGGREGATE');
    });

    it('aggregated expressions must use variables bound inside it', () => {
      expectUnsafe('[?x, :n, ?n] :- [?x, :q, ?w], AGGREGATE([?x, :p, ?y] ON ?x BIND SUM(?w) AS ?n) .', /variable \?w of SUM is not bound inside AGGREGATE/, 'AGGREGATE');
    });

    it('variables other than the group variables are local: a FILTER inside cannot use a variable bound outside', () => {
      expectUnsafe(
        '[?x, :n, ?n] :- [?x, :limit, ?t], AGGREGATE([?x, :p, ?y], FILTER(?y > ?t) ON ?x BIND COUNT(?y) AS ?n) .',
        /^line 1: column 59: variable \?t of FILTER inside AGGREGATE is not bound by the atoms inside it \(the variables of an AGGREGATE other than its group variables are local to it\)$/,
        'FILTER',
      );
      // nor does a variable of the aggregate bind anything outside it
      expectUnsafe('[?x, :n, ?y] :- AGGREGATE([?x, :p, ?y] ON ?x BIND COUNT(?y) AS ?n) .', /head variable \?y is not bound/);
    });

    it('a result variable does not occur inside it, nor is it a group variable', () => {
      expectUnsafe('[?x, :n, ?y] :- AGGREGATE([?x, :p, ?y] ON ?x BIND COUNT(?x) AS ?y) .', /^line 1: column 17: \?y receives the result of COUNT, so it cannot also occur inside the AGGREGATE$/, 'AGGREGATE');
      expectUnsafe('[?x, :n, ?x] :- AGGREGATE([?x, :p, ?y] ON ?x BIND MIN(?y) AS ?x) .', /\?x receives the result of MIN, so it cannot also occur inside the AGGREGATE as a group variable/, 'AGGREGATE');
    });

    it('the two arguments of the ARG functions use variables bound inside it', () => {
      expectUnsafe('[?x, :n, ?n] :- [?x, :q, ?w], AGGREGATE([?x, :p, ?y] ON ?x BIND MIN_ARGMIN(?y, ?w) AS ?n) .', /variable \?w of MIN_ARGMIN is not bound inside AGGREGATE/, 'AGGREGATE');
    });

    it('FILTER and BIND inside it need bound variables', () => {
      expectUnsafe('[?x, :n, ?n] :- AGGREGATE([?x, :p, ?y], FILTER(?w > 1) ON ?x BIND COUNT(?y) AS ?n) .', /variable \?w of FILTER inside AGGREGATE is not bound/, 'FILTER');
      expectUnsafe('[?x, :n, ?n] :- AGGREGATE([?x, :p, ?y], BIND(?w + 1 AS ?v) ON ?x BIND COUNT(?v) AS ?n) .', /variable \?w of BIND inside AGGREGATE is not bound/, 'BIND(?w');
    });
  });

  describe('NOW, RAND, UUID and STRUUID', () => {
    it('are refused wherever rules have expressions, at the formula that uses them', () => {
      const why = 'its value is not determined by its arguments';
      expectUnsafe('[?x, :q, ?z] :- [?x, :p, ?y], BIND(NOW() AS ?z) .', new RegExp(`^line 1: column 31: NOW\\(\\) is not allowed in rules \\(in BIND\\): ${why}$`), 'BIND');
      expectUnsafe('[?x, :q, ?y] :- [?x, :p, ?y], FILTER(RAND() < 0.5) .', /RAND\(\) is not allowed in rules \(in FILTER\)/, 'FILTER');
      expectUnsafe('[?x, :q, ?z] :- [?x, :p, ?y], BIND(CONCAT(STR(?y), STRUUID()) AS ?z) .', /STRUUID\(\) is not allowed in rules \(in BIND\)/, 'BIND');
      expectUnsafe('[?x, :n, ?n] :- AGGREGATE([?x, :p, ?y], BIND(UUID() AS ?u) ON ?x BIND COUNT(?u) AS ?n) .', /UUID\(\) is not allowed in rules \(in BIND inside AGGREGATE\)/, 'BIND');
      expectUnsafe('[?x, :n, ?n] :- AGGREGATE([?x, :p, ?y] ON ?x BIND MAX(YEAR(NOW()) - ?y) AS ?n) .', /NOW\(\) is not allowed in rules \(in MAX\)/, 'AGGREGATE');
    });

    it('other functions of the clock-free kind are fine', () => {
      expectSafe('[?x, :q, ?z] :- [?x, :p, ?y], BIND(SHA256(STR(?y)) AS ?z), FILTER(isIRI(?x)) .');
    });
  });

  it('throws RuleCompilationError, not a generic error', () => {
    expect(() => checkSafety(rule('[?x, :q, ?z] :- [?x, :p, ?y] .'))).to.throw(RuleCompilationError);
  });
});
