import { join } from 'node:path';
import { expect } from 'chai';
import { normalise, ROOT, runCli, tempDir } from './helpers.js';

/** The workshop-style scripts and their data (see the README there). */
const WORKSHOP = join(ROOT, 'spec', 'shell', 'fixtures', 'workshop');

describe('shell: workshop-style scripts run unchanged by quadlog shell -f', function () {
  this.timeout(120_000);

  it('start.rdfox: imports, rules, query files through evaluate and answer, explain, a transaction by exec, an update, CSV answers, quit', async () => {
    // run from another directory: the script finds its files through dir.executing-script
    const cwd = tempDir('quadlog-workshop-');
    try {
      const result = await runCli(['shell', '-f', join(WORKSHOP, 'start.rdfox')], { cwd: cwd.path });
      expect(result.stderr).to.equal('');
      expect(result.code).to.equal(0);
      expect(normalise(result.stdout)).to.equal(`data store 'org' created and made active
data store 'org' is active
prefix : <https://example.org/org#>
20 facts (20 new) in <t>
0 facts (0 new), 6 rules (6 new) in <t>
--- the chain of command
 ?boss   | ?name
---------+----------
 :grace  | "Grace"
 :edsger | "Edsger"
--- colleagues
 ?a    | ?b
-------+----------
 :ada  | :alan
 :alan | :barbara
--- budgets
 ?name     | ?total
-----------+--------
 "Alan"    | 200000
 "Ada"     | 120000
 "Barbara" | 80000
--- why Ada answers to Edsger
[:ada, :answersTo, :edsger]    [derived, proof height 2]
  <= [:ada, :answersTo, :edsger] :- [:ada, :answersTo, :grace], [:grace, :reportsTo, :edsger] .
    [:ada, :answersTo, :grace]    [derived, proof height 1]
      <= [:ada, :answersTo, :grace] :- [:ada, :reportsTo, :grace] .
        [:ada, :reportsTo, :grace]    [explicit]
    [:grace, :reportsTo, :edsger]    [explicit]
--- is Barbara staff?
true
--- a transaction
read-write transaction started on 'org'
3 facts (3 new) in <t>
materialisation up to date (22 derived facts) in <t>
 ?staff
--------
 6
transaction rolled back
 ?staff
--------
 5
--- a raise for the compiler
name,total
Alan,230000
Ada,150000
Barbara,80000
`);
    } finally {
      cwd.remove();
    }
  });

  it('serve.rdfox: a setup that tolerates what exists, a reader role, dsconn and srvconn, the endpoint started and stopped', async () => {
    const cwd = tempDir('quadlog-workshop-');
    try {
      const result = await runCli(['shell', '--sandbox-directory', WORKSHOP, '--allowed-url-schemes', 'file', '-f', join(WORKSHOP, 'serve.rdfox')], { cwd: cwd.path });
      expect(result.code).to.equal(0);
      expect(result.stderr).to.equal(`${join(WORKSHOP, 'serve.rdfox')}:6:15: dstore, argument 2 'org': DuplicateResourceError: data store 'org' already exists\n`);
      const out = normalise(result.stdout).replace(/http:\/\/127\.0\.0\.1:\d+/g, '<url>');
      expect(out).to.equal(`data store 'org' created and made active
data store 'org' is active
20 facts (20 new) in <t>
role 'viewer' created
granted read on >datastores|org to role 'viewer'
data store connection 'as-viewer' to 'org' opened as role 'viewer' (server connection 'sc2')
 Name      | DataStore | Role   | Transaction | Active
-----------+-----------+--------+-------------+--------
 as-viewer | org       | viewer | none        |
 org       | org       | admin  | none        | yes
data store connection 'as-viewer' (data store 'org') is active
 ?n
-----------
 "Ada"
 "Alan"
 "Barbara"
 "Edsger"
 "Grace"
5 answers in <t>
data store connection 'as-viewer' closed
 Name | Role   | Active
------+--------+--------
 sc1  | admin  | yes
 sc2  | viewer |
endpoint listening at <url>
endpoint listening at <url>
endpoint stopped
`);
    } finally {
      cwd.remove();
    }
  });
});
