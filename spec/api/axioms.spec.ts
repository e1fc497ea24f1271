import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { useServer } from '../helpers/server.js';
import { LUBM_DIR } from '../helpers/test-data.js';

const LUBM = LUBM_DIR;

/** The with-reasoning counts of answers-lubm1.tsv, by query number. */
function expectedCounts(): Map<number, number> {
  const lines = readFileSync(`${LUBM}/answers-lubm1.tsv`, 'utf8').trim().split('\n').slice(1);
  return new Map(lines.map((l) => {
    const cols = l.split('\t');
    return [Number(cols[0]!.replace(/\D/g, '')), Number(cols[2])];
  }));
}

describe('api: OWL axioms from triples', function () {
  this.timeout(120_000);
  const env = useServer('axioms');

  it('answers the 14 LUBM queries on LUBM(1) exactly, with the univ-bench axioms', async () => {
    const ds = await env.newStore();
    expect((await ds.importData('ADD', { path: `${LUBM}/univ-bench.ttl` })).errors).to.equal(0);
    const axioms = await ds.importAxiomsFromTriples();
    expect(axioms.changedAxioms).to.be.greaterThan(40);
    expect(axioms.processedAxioms).to.equal(axioms.changedAxioms);
    // the two superclass existentials are outside OWL 2 RL: dropped with a warning naming them
    const warnings = axioms.rows.filter((r) => r.type === 'warning').map((r) => r.description);
    expect(warnings).to.have.length(2);
    expect(warnings.join('\n')).to.match(/GraduateStudent/).and.to.match(/ResearchAssistant/);
    expect((await ds.importData('ADD', { path: `${LUBM}/lubm1.nt.gz` })).errors).to.equal(0);
    const expected = expectedCounts();
    for (let q = 1; q <= 14; q++) {
      const answer = await ds.evaluateQuery(readFileSync(`${LUBM}/q${q}.rq`, 'utf8'));
      expect(answer.type === 'bindings' && answer.rows.length, `q${q}`).to.equal(expected.get(q));
    }
  });

  it('lists axioms per graph, adds them once, and deleting one withdraws exactly its consequences', async () => {
    const ds = await env.newStore();
    await ds.setPrefix(':', 'http://example.com/');
    await ds.importData('ADD', ':Student rdfs:subClassOf :Person . :Person rdfs:subClassOf :Agent . :ann a :Student .');
    const first = await ds.importAxiomsFromTriples();
    expect(first.changedAxioms).to.equal(2);
    expect((await ds.importAxiomsFromTriples()).changedAxioms).to.equal(0);
    expect((await ds.listAxioms()).map((a) => a.axiom).sort()).to.have.length(2);
    const types = async (): Promise<string[]> => {
      const a = await ds.evaluateQuery('SELECT ?c WHERE { :ann a ?c } ORDER BY ?c');
      return a.type === 'bindings' ? a.rows.map((r) => r[0]!.value.replace('http://example.com/', '')) : [];
    };
    expect(await types()).to.deep.equal(['Agent', 'Person', 'Student']);
    // remove the second axiom from the source triples, then delete-axioms with only it
    await ds.importData('DELETE', ':Student rdfs:subClassOf :Person .');
    await ds.importData('ADD', '<http://example.com/g1> <http://example.com/p> <http://example.com/o> .');
    await ds.evaluateUpdate('PREFIX : <http://example.com/> INSERT DATA { GRAPH :tmp { :Person rdfs:subClassOf :Agent } }');
    const removed = await ds.importAxiomsFromTriples('http://example.com/tmp', false, undefined, 'DELETE');
    expect(removed.changedAxioms).to.equal(1);
    expect(await types()).to.deep.equal(['Person', 'Student']);
    expect((await ds.exportDataToString('application/x.datalog', { 'rule-domain': 'axioms' })).trim().split('\n').filter((l) => l.includes(':-'))).to.have.length(1);
  });
});
