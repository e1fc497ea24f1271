import { expect } from 'chai';
import { ConstraintViolationError, TransactionError } from '../../lib/index.js';
import { expectError, namedGraphWriter, useServer } from '../helpers/server.js';

const EX = 'http://example.com/';
const RDFOX = 'https://rdfox.com/vocabulary#';
const SH = 'http://www.w3.org/ns/shacl#';
const PREFIXES = `@prefix : <${EX}> . @prefix foaf: <http://xmlns.com/foaf/0.1/> . @prefix rdfox: <${RDFOX}> .`;
/** A person needs a mailbox: RDFox's example of a rule acting as a constraint. */
const MBOX_RULE = `${PREFIXES} [?p, a, rdfox:ConstraintViolation] :- [?p, a, foaf:Person], NOT EXISTS ?m IN [?p, foaf:mbox, ?m] .`;

describe('constraints on a store\'s content (rdfox:ConstraintViolation)', () => {
  const env = useServer('constraint-violations');

  it('refuse an implicit transaction whose result violates a rule-made constraint, naming the violation, and change nothing', async () => {
    const ds = await env.newStore();
    await ds.importData('ADD', MBOX_RULE);
    await ds.importData('ADD', `${PREFIXES} :bob a foaf:Person ; foaf:mbox <mailto:bob@example.com> .`);
    const before = await ds.countFacts();
    const e = await expectError(ds.importData('ADD', `${PREFIXES} :alice a foaf:Person ; foaf:name "Alice" .`), ConstraintViolationError);
    expect(e.status).to.equal(422);
    expect(e.violations).to.equal(1);
    expect(e.message).to.contain(`<${EX}alice>`).and.contain('<http://xmlns.com/foaf/0.1/name> "Alice"');
    expect(await ds.countFacts()).to.equal(before);
    // with a mailbox the same person is fine
    await ds.importData('ADD', `${PREFIXES} :alice a foaf:Person ; foaf:name "Alice" ; foaf:mbox <mailto:alice@example.com> .`);
    expect(await ds.countFacts()).to.be.greaterThan(before);
  });

  it('leave an explicit transaction open when its commit is refused, so that it can be fixed and committed', async () => {
    const ds = await env.newStore();
    await ds.importData('ADD', MBOX_RULE);
    await ds.beginTransaction('read-write');
    await ds.importData('ADD', `${PREFIXES} :alice a foaf:Person .`);
    await expectError(ds.commitTransaction(), ConstraintViolationError);
    // still open, with its changes
    const alice = await ds.evaluateQuery(`ASK { <${EX}alice> a <http://xmlns.com/foaf/0.1/Person> }`);
    expect(alice).to.deep.include({ type: 'boolean', value: true });
    await expectError(ds.beginTransaction('read-write'), TransactionError);
    await ds.importData('ADD', `${PREFIXES} :alice foaf:mbox <mailto:alice@example.com> .`);
    await ds.commitTransaction();
    const count = await ds.evaluateQuery(`SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }`);
    expect(count.type === 'bindings' && count.rows[0]![0]!.value).to.equal('2');
    // a refused explicit transaction can be rolled back too
    await ds.beginTransaction('read-write');
    await ds.importData('ADD', `${PREFIXES} :carl a foaf:Person .`);
    await expectError(ds.commitTransaction(), ConstraintViolationError);
    await ds.rollbackTransaction();
    expect(await ds.countFacts()).to.equal(2 + 0);
  });

  it('count explicit instances too, and show at most ten of them', async () => {
    const ds = await env.newStore();
    const many = Array.from({ length: 12 }, (_, i) => `:v${i} a rdfox:ConstraintViolation ; :about :thing${i} .`).join(' ');
    const e = await expectError(ds.importData('ADD', `${PREFIXES} ${many}`), ConstraintViolationError);
    expect(e.violations).to.equal(12);
    expect(e.message).to.contain('and 2 more');
    expect(e.message.match(/<http:\/\/example\.com\/about>/g)).to.have.length(10);
    expect(await ds.countFacts()).to.equal(0);
  });

  it('refuse what a commit procedure marks from the SHACL tables, as in RDFox\'s example', async () => {
    const ds = await env.newStore();
    const SHAPES = `@prefix sh: <${SH}> . @prefix : <${EX}> . :ClassShape sh:targetClass :Employee ; sh:path :worksFor ; sh:class :Employer .`;
    await ds.importData('ADD', SHAPES, { defaultGraph: `${EX}shacl` });
    await ds.setCommitProcedure(`PREFIX : <${EX}> PREFIX sh: <${SH}> PREFIX rdfox: <${RDFOX}> INSERT { ?r a rdfox:ConstraintViolation } WHERE { TT SHACL { :data :shacl ?r sh:conforms false } }`);
    const data = `@prefix : <${EX}> . :John a :Employee ; :worksFor :Company1 .`;
    await expectError(ds.importData('ADD', data, { defaultGraph: `${EX}data` }), ConstraintViolationError);
    expect(await ds.countFacts()).to.equal(3);
    await ds.importData('ADD', `${data} :Company1 a :Employer .`, { defaultGraph: `${EX}data` });
    expect(await ds.countFacts()).to.equal(6);
    await expectError(ds.importData('DELETE', `@prefix : <${EX}> . :Company1 a :Employer .`, { defaultGraph: `${EX}data` }), ConstraintViolationError);
    expect(await ds.countFacts()).to.equal(6);
  });

  it('show the violations only to a role that may read the default graph', async () => {
    const ds = await env.newStore();
    await ds.importData('ADD', `${PREFIXES} [?x, a, rdfox:ConstraintViolation] :- [?x, :secret, ?y] :g .`);
    const writer = await namedGraphWriter(env, ds.dataStoreName, `${EX}g`);
    const e = await expectError(writer.importData('ADD', `<${EX}agent> <${EX}secret> "swordfish" .`, { defaultGraph: `${EX}g` }), ConstraintViolationError);
    expect(e.violations).to.equal(1);
    expect(e.message).not.to.contain('agent').and.not.to.contain('swordfish');
    expect(e.message).to.contain('may not read the default graph');
  });
});
