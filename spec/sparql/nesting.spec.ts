import { expect } from 'chai';
import { ImportError, QueryCompilationError } from '../../lib/index.js';
import { MAX_NESTING_DEPTH, tooDeepBracket, treeTooDeep } from '../../lib/sparql/nesting.js';
import { expectError, useServer } from '../helpers/server.js';

const nested = (depth: number, inner = '?x'): string => '('.repeat(depth) + inner + ')'.repeat(depth);
const chain = (length: number): string => Array.from({ length }, () => '1').join(' + ');

describe('sparql: the nesting limit', () => {
  const env = useServer('nesting');

  describe('the bracket scan', () => {
    it('finds the bracket that opens one level too many, ignoring strings, IRIs and comments', () => {
      const text = `SELECT * WHERE { BIND(${nested(3, '1')} AS ?y) }`;
      // `{` is level 1, `BIND(` level 2, then three more
      expect(tooDeepBracket(text, 5)).to.equal(undefined);
      expect(tooDeepBracket(text, 4)).to.equal(text.indexOf('((((') + 3);
      const quoted = `SELECT * WHERE { BIND("((((((" AS ?a) ?s <http://e/((((> ?o # ((((((\n }`;
      expect(tooDeepBracket(quoted, 2)).to.equal(undefined);
    });

    it('measures trees without recursion, counting the patterns of a group as nested', () => {
      let deep: object = { termType: 'Literal' };
      for (let i = 0; i < 100_000; i++) deep = { type: 'operation', args: [deep] };
      expect(treeTooDeep(deep)).to.equal(true);
      // the group is level 1, its tenth OPTIONAL level 1 + 9 + 1
      const group = { type: 'group', patterns: Array.from({ length: 10 }, () => ({ type: 'optional' })) };
      expect(treeTooDeep(group, 11)).to.equal(false);
      expect(treeTooDeep(group, 10)).to.equal(true);
    });
  });

  describe('queries', () => {
    it('answers a query nested just within the limit', async () => {
      const ds = await env.newStore();
      // the group and BIND take two levels
      const answer = await ds.evaluateQuery(`SELECT ?y WHERE { BIND(${nested(MAX_NESTING_DEPTH - 2, '7')} AS ?y) }`);
      expect(answer.type === 'bindings' && answer.rows[0]![0]?.value).to.equal('7');
      const sum = await ds.evaluateQuery(`SELECT ?y WHERE { BIND(${chain(400)} AS ?y) }`);
      expect(sum.type === 'bindings' && sum.rows[0]![0]?.value).to.equal('400');
    });

    it('refuses deeper parentheses before parsing, with the position of the first one too many', async () => {
      const ds = await env.newStore();
      const text = `SELECT ?y WHERE {\n BIND(${nested(50_000, '7')} AS ?y) }`;
      const error = await expectError(ds.evaluateQuery(text), QueryCompilationError);
      expect(error.message).to.match(/the SPARQL query nests more than 500 levels deep at line 2, column \d+/);
      const column = Number(/column (\d+)/.exec(error.message)![1]);
      // the opening brace is level 1, the parenthesis of BIND level 2
      expect(column).to.equal(' BIND('.length + MAX_NESTING_DEPTH - 1);
    });

    it('refuses long operator chains and long lists of nested group patterns instead of overflowing the stack', async () => {
      const ds = await env.newStore();
      const plus = await expectError(ds.evaluateQuery(`SELECT ?y WHERE { BIND(${chain(20_000)} AS ?y) }`), QueryCompilationError);
      expect(plus.message).to.contain('nests more than 500 levels deep');
      const optionals = Array.from({ length: 5_000 }, (_, i) => `OPTIONAL { ?s ?p ?o${i} }`).join(' ');
      const optional = await expectError(ds.evaluateQuery(`SELECT * WHERE { ?s ?p ?o ${optionals} }`), QueryCompilationError);
      expect(optional.message).to.contain('nests more than 500 levels deep');
    });

    it('applies the same limit to updates', async () => {
      const ds = await env.newStore();
      const error = await expectError(ds.evaluateUpdate(`INSERT { ?s ?p ?o } WHERE { BIND(${nested(2_000, '1')} AS ?s) }`), QueryCompilationError);
      expect(error.message).to.match(/the SPARQL update nests more than 500 levels deep at line 1/);
      expect(await ds.countFacts()).to.equal(0);
    });
  });

  describe('rules', () => {
    it('refuses a FILTER nested too deeply with its line and column, and imports nothing', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', '<http://e/a> <http://e/b> 1 .');
      const rule = `@prefix : <http://e/> .\n:c[?x] :- :b[?s, ?x], FILTER(${nested(20_000)} > 0) .`;
      const error = await expectError(ds.importData('ADD', rule, { mediaType: 'application/x.datalog' }), ImportError);
      expect(error.message).to.match(/line 2: column \d+: invalid expression in FILTER: the expression nests more than 500 levels deep/);
      expect(await ds.countFacts()).to.equal(1);
      expect(await ds.evaluateQuery('ASK { ?s <http://e/c> ?o }')).to.deep.equal({ type: 'boolean', value: false });
    });

    it('refuses a long operator chain in a BIND and takes one within the limit', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', '<http://e/a> <http://e/b> 1 .');
      const too = `:c[?s, ?y] :- :b[?s, ?x], BIND(${chain(5_000)} AS ?y) .`;
      await expectError(ds.importData('ADD', `@prefix : <http://e/> .\n${too}`, { mediaType: 'application/x.datalog' }), ImportError);
      await ds.importData('ADD', `@prefix : <http://e/> .\n:c[?s, ?y] :- :b[?s, ?x], BIND(${chain(300)} AS ?y) .`, { mediaType: 'application/x.datalog' });
      const answer = await ds.evaluateQuery('SELECT ?y WHERE { <http://e/a> <http://e/c> ?y }');
      expect(answer.type === 'bindings' && answer.rows[0]![0]?.value).to.equal('300');
    });
  });
});
