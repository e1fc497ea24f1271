import type * as RDF from '@rdfjs/types';
import { expect } from 'chai';
import { DataFactory } from 'n3';
import { Algebra, Factory } from 'sparqlalgebrajs';
import { type Value, ExpressionError, compileExpression, effectiveBooleanValue } from '../../lib/expressions/index.js';
import { context, ev, expr, filterExpr, show, term } from './helpers.js';

const factory = new Factory();

describe('expressions: compilation and context', () => {
  it('compiles once and evaluates many times with different bindings', () => {
    const f = compileExpression(expr('?a * 2 + STRLEN(?s)'), context);
    expect(show(f((v) => (v === 'a' ? term('3') : v === 's' ? term('"ab"') : undefined)))).to.equal('"8"^^xsd:integer');
    expect(show(f((v) => (v === 'a' ? term('1.5') : v === 's' ? term('""') : undefined)))).to.equal('"3.0"^^xsd:decimal');
    expect(() => f(() => undefined)).to.throw(ExpressionError, /unbound/);
  });

  it('asks the getter for variable names without "?"', () => {
    const asked: string[] = [];
    const f = compileExpression(expr('CONCAT(?first, ?last)'), context);
    f((v) => {
      asked.push(v);
      return term('"x"');
    });
    expect(asked).to.deep.equal(['first', 'last']);
  });

  it('returns n3 terms', () => {
    const v = compileExpression(expr('"a"@en'), context)(() => undefined);
    expect(v.equals(DataFactory.literal('a', 'en'))).to.equal(true);
    const n = compileExpression(expr('1 + 1'), context)(() => undefined);
    expect(n.equals(DataFactory.literal('2', DataFactory.namedNode('http://www.w3.org/2001/XMLSchema#integer')))).to.equal(true);
  });

  it('decodes a literal term once, however often it is evaluated', () => {
    let reads = 0;
    const literal: RDF.Literal = {
      termType: 'Literal',
      get value() {
        reads++;
        return '41';
      },
      language: '',
      direction: '',
      datatype: DataFactory.namedNode('http://www.w3.org/2001/XMLSchema#integer'),
      equals: () => false,
    };
    const f = compileExpression(expr('?x + 1 > 0 && ?x < 100 && ABS(?x) = 41'), context);
    for (let i = 0; i < 100; i++) expect(effectiveBooleanValue(f(() => literal))).to.equal(true);
    expect(reads).to.equal(1);
  });

  describe('EXISTS / NOT EXISTS', () => {
    it('calls the context with the pattern and the bindings', () => {
      const seen: { pattern: Algebra.Operation; x: Value | undefined }[] = [];
      const ctx = {
        now: new Date(),
        exists: (pattern: Algebra.Operation, get: (v: string) => Value | undefined) => {
          seen.push({ pattern, x: get('x') });
          return get('x')?.value === '1';
        },
      };
      const f = compileExpression(filterExpr('EXISTS { ?x ?p ?o }'), ctx);
      const g = compileExpression(filterExpr('NOT EXISTS { ?x ?p ?o }'), ctx);
      expect(show(f(() => term('1')))).to.equal('"true"^^xsd:boolean');
      expect(show(f(() => term('2')))).to.equal('"false"^^xsd:boolean');
      expect(show(g(() => term('1')))).to.equal('"false"^^xsd:boolean');
      expect(seen[0]!.pattern.type).to.equal(Algebra.types.BGP);
      expect(show(seen[1]!.x!)).to.equal('"2"^^xsd:integer');
    });

    it('is an ExpressionError without an exists callback (Datalog)', () => {
      const f = compileExpression(filterExpr('EXISTS { ?x ?p ?o }'), context);
      expect(() => f(() => undefined)).to.throw(ExpressionError);
      const g = compileExpression(filterExpr('true || NOT EXISTS { ?x ?p ?o }'), context);
      expect(show(g(() => undefined))).to.equal('"true"^^xsd:boolean');
    });

    it('lets other exceptions (e.g. an interrupt) through error-absorbing operators', () => {
      const ctx = {
        now: new Date(),
        exists: (): boolean => {
          throw new RangeError('interrupted');
        },
      };
      const f = compileExpression(filterExpr('true || EXISTS { ?x ?p ?o }'), ctx);
      expect(show(f(() => undefined))).to.equal('"true"^^xsd:boolean');
      const g = compileExpression(filterExpr('EXISTS { ?x ?p ?o } || true'), ctx);
      expect(() => g(() => undefined)).to.throw(RangeError);
      const h = compileExpression(filterExpr('COALESCE(EXISTS { ?x ?p ?o }, 1)'), ctx);
      expect(() => h(() => undefined)).to.throw(RangeError);
    });
  });

  describe('compile-time errors', () => {
    it('rejects aggregates and * in scalar expressions', () => {
      const agg = factory.createAggregateExpression('sum', factory.createTermExpression(DataFactory.variable('x')), false);
      expect(() => compileExpression(agg, context)).to.throw(ExpressionError, /SUM/);
      const wildcard = factory.createWildcardExpression();
      expect(() => compileExpression(wildcard, context)).to.throw(ExpressionError);
    });

    it('rejects unknown operators, wrong arities and BOUND of a non-variable', () => {
      const one = factory.createTermExpression(DataFactory.literal('1', DataFactory.namedNode('http://www.w3.org/2001/XMLSchema#integer')));
      expect(() => compileExpression(factory.createOperatorExpression('frobnicate', [one]), context)).to.throw(ExpressionError, /unknown operator/);
      expect(() => compileExpression(factory.createOperatorExpression('strlen', [one, one]), context)).to.throw(ExpressionError, /STRLEN/);
      expect(() => compileExpression(factory.createOperatorExpression('bound', [one]), context)).to.throw(ExpressionError, /BOUND/);
      expect(() => compileExpression(factory.createOperatorExpression('if', [one, one]), context)).to.throw(ExpressionError);
    });

    it('accepts operator names in any case', () => {
      const s = factory.createTermExpression(DataFactory.literal('abc'));
      expect(show(compileExpression(factory.createOperatorExpression('STRLEN', [s]), context)(() => undefined))).to.equal('"3"^^xsd:integer');
    });

    it('makes an unknown function IRI an evaluation error, not a compile error', () => {
      const f = compileExpression(expr('<http://example.org/f>(1)'), context);
      expect(() => f(() => undefined)).to.throw(ExpressionError, /unknown function/);
      expect(ev('COALESCE(<http://example.org/f>(1), "fallback")')).to.equal('"fallback"');
    });
  });
});
