import { expect } from 'chai';
import { AccessDeniedError, ImportError, QueryCompilationError } from '../../lib/index.js';
import { connectionWith, expectError, useServer } from '../helpers/server.js';

const EX = 'https://rdfox.com/examples/shacl#';
const SH = 'http://www.w3.org/ns/shacl#';
const PREFIXES = `PREFIX : <${EX}> PREFIX sh: <${SH}> `;
const SHAPES = `@prefix sh: <${SH}>. @prefix : <${EX}>. :ClassShape sh:targetClass :Employee ; sh:path :worksFor ; sh:class :Employer.`;
const DATA = `@prefix : <${EX}>. :John a :Employee; :worksFor :Company1. :Jane a :Employee; :worksFor [ a :Employer ].`;

describe("RDFox's SHACL tuple tables (SHACL, SHACL_NN, SHACL_ND, SHACL_DN, SHACL_DD)", () => {
  const env = useServer('shacl-tables');

  it('are built into every new store, with their arities', async () => {
    const ds = await env.newStore();
    const tables = (await ds.listTupleTables()).filter((t) => t.name.startsWith('SHACL'));
    expect(tables.map((t) => [t.name, t.type, t.minArity, t.maxArity])).to.deep.equal([
      ['SHACL', 'builtin', 5, 6],
      ['SHACL_NN', 'builtin', 5, 6],
      ['SHACL_ND', 'builtin', 4, 5],
      ['SHACL_DN', 'builtin', 4, 5],
      ['SHACL_DD', 'builtin', 3, 4],
    ]);
    // deleted, and created again by name without parameters
    await ds.deleteTupleTable('SHACL_DD');
    await ds.createTupleTable('SHACL_DD', {});
    expect((await ds.listTupleTables()).find((t) => t.name === 'SHACL_DD')).to.include({ type: 'builtin', minArity: 3, maxArity: 4 });
  });

  it("give the report's triples in queries, as RDFox's example shows", async () => {
    const ds = await env.newStore();
    await ds.importData('ADD', SHAPES, { defaultGraph: `${EX}shacl` });
    await ds.importData('ADD', DATA, { defaultGraph: `${EX}data` });
    const rows = await ds.evaluateQuery(`${PREFIXES} SELECT ?p ?o WHERE { TT SHACL { :data :shacl ?s ?p ?o } FILTER(isIRI(?o) || isLiteral(?o)) } ORDER BY ?p ?o`);
    if (rows.type !== 'bindings') throw new Error('bindings expected');
    const pairs = rows.rows.map((r) => `${r[0]!.value.replace(SH, 'sh:')} ${r[1]!.value.replace(SH, 'sh:').replace(EX, ':')}`);
    expect(pairs).to.include.members([
      'sh:conforms false',
      'sh:focusNode :John',
      'sh:resultPath :worksFor',
      'sh:value :Company1',
      'sh:sourceShape :ClassShape',
      'sh:sourceConstraintComponent sh:ClassConstraintComponent',
      'sh:resultSeverity sh:Violation',
    ]);
    // one focus node, and the fact domain
    const focus = await ds.evaluateQuery(`${PREFIXES} SELECT ?f WHERE { TT SHACL { :data rdfox:explicit :shacl ?r sh:focusNode ?f } }`);
    expect(focus.type === 'bindings' && focus.rows.map((r) => r[0]!.value)).to.deep.equal([`${EX}John`]);
  });

  it('take the default graph where the name says D', async () => {
    const ds = await env.newStore();
    await ds.importData('ADD', SHAPES);
    await ds.importData('ADD', DATA, { defaultGraph: `${EX}data` });
    const conforms = async (query: string): Promise<string[]> => {
      const a = await ds.evaluateQuery(`${PREFIXES} SELECT ?c WHERE { ${query} }`);
      return a.type === 'bindings' ? a.rows.map((r) => r[0]!.value) : [];
    };
    expect(await conforms('TT SHACL_ND { :data ?r sh:conforms ?c }')).to.deep.equal(['false']);
    expect(await conforms('TT SHACL_DD { ?r sh:conforms ?c }')).to.deep.equal(['true']);
    expect(await conforms('TT SHACL_DD { rdfox:all ?r sh:conforms ?c }')).to.deep.equal(['true']);
    await ds.importData('ADD', SHAPES, { defaultGraph: `${EX}shacl` });
    await ds.importData('ADD', DATA);
    expect(await conforms('TT SHACL_DN { :shacl ?r sh:conforms ?c }')).to.deep.equal(['false']);
    expect(await conforms('TT SHACL_NN { :data :shacl ?r sh:conforms ?c }')).to.deep.equal(['false']);
  });

  it('save a report with INSERT', async () => {
    const ds = await env.newStore();
    await ds.importData('ADD', SHAPES, { defaultGraph: `${EX}shacl` });
    await ds.importData('ADD', DATA, { defaultGraph: `${EX}data` });
    await ds.evaluateUpdate(`${PREFIXES} INSERT { GRAPH :report { ?s ?p ?o } } WHERE { TT SHACL { :data :shacl ?s ?p ?o } }`);
    expect(await ds.countFacts()).to.be.greaterThan(0);
    const saved = await ds.evaluateQuery(`${PREFIXES} ASK { GRAPH :report { ?r sh:focusNode :John } }`);
    expect(saved).to.deep.include({ type: 'boolean', value: true });
  });

  it('validate the derived facts of the data graph with the fact domain rdfox:derived', async () => {
    const ds = await env.newStore();
    await ds.importData('ADD', `${SHAPES.replace(/\.$/, ';')} sh:minCount 1 .`, { defaultGraph: `${EX}shacl` });
    // workers are Employees and hirers Employers by rules; Max's company is no Employer
    await ds.importData('ADD', `@prefix : <${EX}>. :John a :Employee; :worksFor :C1. :C1 a :Employer. :Jane :worksFor :C2. :C2 :hires :Jane. :Max :worksFor :C3.`, { defaultGraph: `${EX}data` });
    await ds.importData('ADD', `@prefix : <${EX}>. [?x, a, :Employee] :data :- [?x, :worksFor, ?y] :data . [?y, a, :Employer] :data :- [?y, :hires, ?x] :data .`);
    const focus = async (domain: string): Promise<string[]> => {
      const a = await ds.evaluateQuery(`${PREFIXES} SELECT DISTINCT ?f WHERE { TT SHACL { :data ${domain} :shacl ?r sh:focusNode ?f } } ORDER BY ?f`);
      return a.type === 'bindings' ? a.rows.map((r) => r[0]!.value.replace(EX, ':')) : [];
    };
    expect(await focus('rdfox:all')).to.deep.equal([':Max']);
    expect(await focus('rdfox:explicit')).to.deep.equal([]);
    // the derived domain holds the derived types (John's too, which is also explicit) but no worksFor
    expect(await focus('rdfox:derived')).to.deep.equal([':Jane', ':John', ':Max']);
  });

  it('need constant graph arguments, and a fact domain of rdfox:all, rdfox:explicit or rdfox:derived', async () => {
    const ds = await env.newStore();
    expect((await expectError(ds.evaluateQuery('SELECT * WHERE { ?g ?x ?y . TT SHACL_ND { ?g ?s ?p ?o } }'), QueryCompilationError)).message).to.contain('constants');
    expect((await expectError(ds.evaluateQuery('SELECT * WHERE { TT SHACL_DD { rdfox:implicit ?s ?p ?o } }'), QueryCompilationError)).message).to.contain('rdfox:derived');
  });

  it('are not for rules, as in RDFox: a rule reading one is refused, naming the table', async () => {
    const ds = await env.newStore();
    const e = await expectError(ds.importData('ADD', `@prefix : <${EX}>. [?s, :flagged, true] :- SHACL_DD(?s, ?p, ?o) .`), ImportError);
    expect(e.message).to.contain("'SHACL_DD'").and.contain('commit procedure');
  });

  it('tell a role only what it may read', async () => {
    const ds = await env.newStore();
    await ds.importData('ADD', SHAPES, { defaultGraph: `${EX}shacl` });
    await ds.importData('ADD', DATA, { defaultGraph: `${EX}data` });
    const reader = await connectionWith(env, ds.dataStoreName, [
      ['|tupletables|SHACL', 'read'],
      ['|tupletables|Quads', 'read'],
      [`|namedgraphs|<${EX}shacl>`, 'read'],
    ]);
    await expectError(reader.evaluateQuery(`${PREFIXES} SELECT * WHERE { TT SHACL { :data :shacl ?s ?p ?o } }`), AccessDeniedError);
  });
});
