/**
 * Rejected Datalog imports: unsafe rules, unstratifiable programs, unknown tuple tables and
 * wrong arities, syntax errors (each reported with its position, nothing of the import
 * applied), and tuple tables that cannot be deleted while a rule uses them.
 */
import { expect } from 'chai';
import { type DataStoreConnection, type ImportResult, type NotificationRow, ResourceInUseError } from '../../lib/index.js';
import { expectError, sortedLines, useServer } from '../helpers/server.js';
import { importError, importFailure } from '../helpers/imports.js';

const EX = 'http://ex/';
const PREFIX_LINE = `@prefix : <${EX}> .`;
const DATALOG = { mediaType: 'application/x.datalog' } as const;

/** One N-Triples line over `http://ex/`. */
function t(s: string, p: string, o: string): string {
  return `<${EX}${s}> <${EX}${p}> <${EX}${o}> .`;
}

/** Everything a user can observe of a store's contents. */
interface Observed {
  readonly explicit: string[];
  readonly derived: string[];
  readonly rules: string[];
  readonly tableFacts: number;
}

async function observe(ds: DataStoreConnection): Promise<Observed> {
  const tables = (await ds.listTupleTables()).map((r) => r.name);
  return {
    explicit: sortedLines(await ds.exportDataToString('application/n-quads', { 'fact-domain': 'explicit' })),
    derived: sortedLines(await ds.exportDataToString('application/n-quads', { 'fact-domain': 'derived' })),
    rules: (await ds.exportDataToString('application/x.datalog')).split('\n').filter((l) => l.includes(':-')),
    tableFacts: tables.includes('T') ? await ds.countFacts({ tupleTable: 'T' }) : -1,
  };
}

/** Imports Datalog lines (the `:` prefix is line 1), asserting success. */
async function addLines(ds: DataStoreConnection, lines: readonly string[]): Promise<ImportResult> {
  const r = await ds.importData('ADD', [PREFIX_LINE, ...lines].join('\n'), DATALOG);
  expect(r.errors, r.text).to.equal(0);
  return r;
}

/** The error rows of an import. */
function errorRows(r: ImportResult): NotificationRow[] {
  return r.rows.filter((row) => row.type === 'error');
}

/** The 1-based column of `needle` in `line`. */
function col(line: string, needle: string): number {
  const i = line.indexOf(needle);
  expect(i, `'${needle}' in '${line}'`).to.be.at.least(0);
  return i + 1;
}

describe('datalog/rule errors', function () {
  this.timeout(20_000);
  const env = useServer('datalog-rule-errors');

  /** A store with a table T, one rule and a few facts (so rejections have something to leave alone). */
  async function store(): Promise<DataStoreConnection> {
    const ds = await env.newStore();
    await ds.setPrefix(':', EX);
    await ds.createTupleTable('T', { arity: '2' });
    await addLines(ds, ['[?x, :q, ?y] :- [?x, :p, ?y] .', '[:a, :p, :b] .', 'T(:a, :b) .']);
    return ds;
  }

  /**
   * Imports `lines` (after the prefix line), expecting exactly the given errors and nothing
   * changed; a good rule and a fact are added to the import so that it is visible if they
   * were applied anyway.
   */
  async function expectRejected(ds: DataStoreConnection, lines: readonly string[], errors: ReadonlyArray<{ line?: number; column?: number; message: RegExp }>): Promise<ImportResult> {
    const before = await observe(ds);
    const error = await importError(ds.importData('ADD', [PREFIX_LINE, ...lines, '[?x, :good, ?y] :- [?x, :p, ?y] .', '[:c, :p, :d] .'].join('\n'), DATALOG));
    const r = error.result;
    const rows = errorRows(r);
    expect(r.errors, r.text).to.equal(errors.length);
    // the rejection names the first error and its position, as the text form does
    const first = rows[0]!;
    const at = (first.line !== undefined ? `line ${first.line}: ` : '') + (first.column !== undefined ? `column ${first.column}: ` : '');
    expect(error.message).to.match(errors.length > 1 ? new RegExp(`^import failed with ${errors.length} errors, nothing was changed; the first: `) : /^import failed, nothing was changed: /);
    expect(error.message.endsWith(`: ${at}${first.description}`), error.message).to.equal(true);
    expect(rows).to.have.length(errors.length);
    errors.forEach((e, i) => {
      const row = rows[i]!;
      expect(row.description, r.text).to.match(e.message);
      if (e.line !== undefined) expect([row.line, row.column], `${r.text}`).to.deep.equal([e.line, e.column]);
    });
    expect(r.changedRules).to.equal(0);
    expect(r.changedFacts).to.equal(0);
    expect(await observe(ds)).to.deep.equal(before);
    return r;
  }

  it('a rule over a SHACL table is refused at its position (RDFox computes them for queries only)', async () => {
    const ds = await store();
    await expectRejected(ds, ['[?s, :r, ?o] :- SHACL_DD(?s, ?p, ?o) .'], [{ line: 2, column: 17, message: /tuple table 'SHACL_DD' is a built-in table that queries compute/ }]);
  });

  describe('unsafe rules', () => {
    it('a head variable not bound by the body', async () => {
      const ds = await store();
      const bad = '  [?x, :q2, ?z] :- [?x, :p, ?y] .';
      const r = await expectRejected(ds, ['[:e, :p, :f] .', bad], [{ line: 3, column: 3, message: /head variable \?z is not bound/ }]);
      expect(r.processedRules).to.equal(2);
      expect(r.text).to.match(/^error: line 3: column 3: head variable \?z/m);
    });

    it('a FILTER variable bound nowhere else', async () => {
      const ds = await store();
      const bad = '[?x, :q2, ?y] :- [?x, :p, ?y], FILTER(?w > 1) .';
      await expectRejected(ds, [bad], [{ line: 2, column: col(bad, 'FILTER'), message: /variable \?w of FILTER is not bound/ }]);
    });

    it('a BIND expression variable bound nowhere else, or a BIND using its own variable', async () => {
      const ds = await store();
      const unbound = '[?x, :q2, ?z] :- [?x, :p, ?y], BIND(?w + 1 AS ?z) .';
      await expectRejected(ds, [unbound], [{ line: 2, column: col(unbound, 'BIND'), message: /variable \?w of BIND is not bound/ }]);
      const own = '[?x, :q2, ?y] :- [?x, :p, ?y], BIND(?y AS ?y) .';
      await expectRejected(ds, [own], [{ line: 2, column: col(own, 'BIND'), message: /^BIND\(… AS \?y\) uses \?y in its own expression$/ }]);
    });

    it('a BIND whose variable is bound elsewhere is accepted, and holds when the values are the same term', async () => {
      const ds = await store();
      await addLines(ds, ['[:c, :p, :c] .', '[?x, :same, ?y] :- [?x, :p, ?y], BIND(?x AS ?y) .']);
      const derived = (await observe(ds)).derived;
      expect(derived).to.include(t('c', 'same', 'c'));
      expect(derived).to.not.include(t('a', 'same', 'b'));
    });

    it('a NOT variable neither bound nor existentially quantified', async () => {
      const ds = await store();
      const bad = '[?x, :q2, ?y] :- [?x, :p, ?y], NOT [?x, :r, ?w] .';
      await expectRejected(ds, [bad], [{ line: 2, column: col(bad, 'NOT'), message: /variable \?w of NOT is not bound/ }]);
      // the same rule with ?w quantified is accepted
      const r = await addLines(ds, ['[?x, :q2, ?y] :- [?x, :p, ?y], NOT EXISTS ?w IN [?x, :r, ?w] .']);
      expect(r.changedRules).to.equal(1);
      expect((await observe(ds)).derived).to.include(t('a', 'q2', 'b'));
    });

    it('a NOT EXISTS variable that also occurs outside the negation is another variable there', async () => {
      const ds = await store();
      await addLines(ds, ['[?x, :q2, ?y] :- [?x, :p, ?y], NOT EXISTS ?y IN [?x, :r, ?y] .', '[:e, :p, :f] .', '[:e, :r, :g] .']);
      const { explicit, derived } = await observe(ds);
      expect(explicit).to.include(t('a', 'p', 'b'));
      // :a has no :r at all; :e has one (to :g, not :f), which is enough for the negation to fail
      expect(derived).to.include(t('a', 'q2', 'b'));
      expect(derived).to.not.include(t('e', 'q2', 'f'));
    });

    it('BINDs that depend on each other in a cycle', async () => {
      const ds = await store();
      const bad = '[?x, :q2, ?y] :- [?x, :p, ?w], BIND(?z + 1 AS ?y), BIND(?y + 1 AS ?z) .';
      await expectRejected(ds, [bad], [{ line: 2, column: col(bad, 'BIND'), message: /variable \?z of BIND is not bound/ }]);
    });

    it('NOW, RAND, UUID and STRUUID in a rule, reported where they are used', async () => {
      const ds = await store();
      const bad = '[?x, :stamp, ?t] :- [?x, :p, ?y], BIND(NOW() AS ?t) .';
      await expectRejected(ds, [bad], [{ line: 2, column: col(bad, 'BIND'), message: /^NOW\(\) is not allowed in rules \(in BIND\): its value is not determined by its arguments$/ }]);
      const inAggregate = '[?x, :n, ?n] :- AGGREGATE([?x, :p, ?y] ON ?x BIND COUNT(DISTINCT STRUUID()) AS ?n) .';
      await expectRejected(ds, [inAggregate], [{ line: 2, column: col(inAggregate, 'AGGREGATE'), message: /^STRUUID\(\) is not allowed in rules \(in COUNT\)/ }]);
    });

    it('a FILTER inside an AGGREGATE using a variable bound only outside it (the aggregate has its own variables)', async () => {
      const ds = await store();
      const bad = '[?x, :n, ?n] :- [?x, :limit, ?t], AGGREGATE([?x, :p, ?y], FILTER(?y > ?t) ON ?x BIND COUNT(?y) AS ?n) .';
      await expectRejected(ds, [bad], [{ line: 2, column: col(bad, 'FILTER'), message: /^variable \?t of FILTER inside AGGREGATE is not bound by the atoms inside it/ }]);
    });

    it('an AGGREGATE group variable not bound inside it', async () => {
      const ds = await store();
      const bad = '[?x, :n, ?n] :- [?x, :p, ?z], AGGREGATE([?y, :p, ?v] ON ?x BIND COUNT(?v) AS ?n) .';
      await expectRejected(ds, [bad], [{ line: 2, column: col(bad, 'AGGREGATE'), message: /group variable \?x of AGGREGATE is not bound inside it/ }]);
    });
  });

  describe('unstratifiable programs', () => {
    it('a cycle through NOT is rejected with the predicates of the cycle, and nothing of the import is added', async () => {
      const ds = await store();
      const r = await expectRejected(ds, ['[?x, :s, ?y] :- [?x, :p, ?y], NOT [?x, :u, ?y] .', '[?x, :u, ?y] :- [?x, :s, ?y] .'], [{ message: /cannot be stratified/ }]);
      const message = errorRows(r)[0]!.description;
      expect(message).to.include(`<${EX}s>`);
      expect(message).to.include(`<${EX}u>`);
      expect(message).to.not.include(`<${EX}good>`);
      expect(message).to.match(/line 2: column 1/);
    });

    it('a cycle through AGGREGATE is rejected', async () => {
      const ds = await store();
      const r = await expectRejected(ds, ['[?x, :total, ?n] :- AGGREGATE([?x, :total, ?m] ON ?x BIND SUM(?m) AS ?n) .'], [{ message: /cannot be stratified/ }]);
      expect(errorRows(r)[0]!.description).to.include(`<${EX}total>`);
    });

    it('a rule closing a cycle in a later import is rejected; the earlier rules stay and keep working', async () => {
      const ds = await store();
      await addLines(ds, ['[?x, :u, ?y] :- [?x, :s, ?y] .', '[:g, :s, :h] .']);
      const before = await observe(ds);
      expect(before.derived).to.include(t('g', 'u', 'h'));
      const r = await expectRejected(ds, ['[?x, :s, ?y] :- [?x, :p, ?y], NOT [?x, :u, ?y] .'], [{ message: /cannot be stratified/ }]);
      expect(errorRows(r)[0]!.description).to.include(`<${EX}u>`);
      expect(before.rules).to.have.length(2);
      // the store still maintains the accepted program
      await addLines(ds, ['[:i, :s, :j] .']);
      expect((await observe(ds)).derived).to.include.members([t('g', 'u', 'h'), t('i', 'u', 'j')]);
    });

    it('inside a transaction, a rejected import keeps the earlier changes of the transaction', async () => {
      const ds = await store();
      await ds.beginTransaction('read-write');
      await addLines(ds, ['[?x, :u, ?y] :- [?x, :s, ?y] .', '[:g, :s, :h] .']);
      const r = await importFailure(ds.importData('ADD', [PREFIX_LINE, '[?x, :s, ?y] :- [?x, :p, ?y], NOT [?x, :u, ?y] .', '[:k, :s, :l] .'].join('\n'), DATALOG));
      expect(r.errors, r.text).to.equal(1);
      expect(r.changedRules).to.equal(0);
      await ds.commitTransaction();
      const after = await observe(ds);
      expect(after.rules).to.have.length(2);
      expect(after.derived).to.include(t('g', 'u', 'h'));
      expect(after.explicit).to.not.include(t('k', 's', 'l'));
    });
  });

  describe('tuple tables in rules', () => {
    it('a rule over a tuple table that does not exist', async () => {
      const ds = await store();
      const bad = '[?x, :q2, ?y] :- [?x, :p, ?y], Missing(?x, ?y) .';
      await expectRejected(ds, [bad], [{ line: 2, column: col(bad, 'Missing'), message: /tuple table 'Missing' does not exist/ }]);
      const inHead = 'Missing(?x, ?y) :- [?x, :p, ?y] .';
      await expectRejected(ds, [inHead], [{ line: 2, column: 1, message: /tuple table 'Missing' does not exist/ }]);
    });

    it('a rule or fact with the wrong number of arguments', async () => {
      const ds = await store();
      const bad = '[?x, :q2, ?y] :- [?x, :p, ?y], T(?x, ?y, ?x) .';
      await expectRejected(ds, [bad], [{ line: 2, column: col(bad, 'T('), message: /tuple table 'T' takes 2 arguments, not 3/ }]);
      await expectRejected(ds, ['  T(:a) .'], [{ line: 2, column: 3, message: /tuple table 'T' takes 2 arguments, not 1/ }]);
    });

    it('a tuple table used by a rule cannot be deleted until the rule is deleted', async () => {
      const ds = await store();
      const rule = '[?x, :fromT, ?y] :- [?x, :p, ?y], NOT T(?x, ?y) .';
      await addLines(ds, [rule]);
      const e = await expectError(ds.deleteTupleTable('T'), ResourceInUseError);
      expect(e.message).to.include("'T'");
      expect((await ds.listTupleTables()).map((r) => r.name)).to.include('T');
      expect(await ds.countFacts({ tupleTable: 'T' })).to.equal(1);
      const r = await ds.importData('DELETE', [PREFIX_LINE, rule].join('\n'), DATALOG);
      expect(r.changedRules).to.equal(1);
      await ds.deleteTupleTable('T');
      expect((await ds.listTupleTables()).map((row) => row.name)).to.not.include('T');
      // a rule over the deleted table is now rejected
      await expectRejected(ds, ['[?x, :q2, ?y] :- T(?x, ?y) .'], [{ line: 2, column: 18, message: /tuple table 'T' does not exist/ }]);
    });
  });

  describe('syntax errors', () => {
    it('are reported with line and column, every bad statement, and nothing is added', async () => {
      const ds = await store();
      const first = '[?x, :q2, ?y] :- [?x, :p ?y] .';
      const second = '[?x, :q3, ?y] :- [?x, :p, ?y], FILTER(?x > ) .';
      const r = await expectRejected(ds, [first, '[:e, :p, :f] .', second], [
        { line: 2, column: first.lastIndexOf('?y') + 1, message: /expected ','/ },
        { line: 4, column: col(second, ') .'), message: /FILTER/ },
      ]);
      expect(r.processedRules).to.equal(0);
    });

    it('an undeclared prefix', async () => {
      const ds = await store();
      const bad = '[?x, nope:q, ?y] :- [?x, :p, ?y] .';
      const r = await expectRejected(ds, [bad], [{ line: 2, column: col(bad, 'nope:'), message: /^unknown prefix 'nope:': declare it in the input or add it to the store's prefixes$/ }]);
      expect(r.text).to.include(`error: line 2: column ${col(bad, 'nope:')}: unknown prefix 'nope:': declare it in the input or add it to the store's prefixes\n`);
    });
  });

  describe('other formats', () => {
    it('a store with rules imports Turtle normally, and reasons over it', async () => {
      const ds = await store();
      const r = await ds.importData('ADD', `@prefix : <${EX}> .\n:c :p :d .\n:e :p :f , :g .\n`, { mediaType: 'text/turtle' });
      expect(r.errors, r.text).to.equal(0);
      expect(r.changedFacts).to.equal(3);
      expect(r.processedRules).to.equal(0);
      const after = await observe(ds);
      expect(after.derived).to.deep.equal([t('a', 'q', 'b'), t('c', 'q', 'd'), t('e', 'q', 'f'), t('e', 'q', 'g')].sort());
      const del = await ds.importData('DELETE', `<${EX}e> <${EX}p> <${EX}f> .\n`, { mediaType: 'application/n-triples' });
      expect(del.changedFacts).to.equal(1);
      expect((await observe(ds)).derived).to.not.include(t('e', 'q', 'f'));
    });
  });
});
