/**
 * Fuzzing the shell language (lib/commands) in-process: the shell specs' command list and
 * further scripts, mutated, run by a {@link Shell} of a fresh server with `on-error continue`.
 * A run never throws; every failure it reports is a documented error (status below 500) whose
 * message names the script position (`fuzz.qlog:<line>:<column>:`) and has no 'undefined'.
 * The shell has no local files (exec, export to a file and `set output` are refused) and the
 * server reads no IRI, so no mutation can touch the machine.
 * @module
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { ConnectionFactory, Server } from '../../lib/index.js';
import { Shell } from '../../lib/commands/index.js';
import { COMMAND_LIST, FAILING_LIST } from '../shell/helpers.js';
import { type CorpusFile, fuzzParameters, HANG_BOUND_MS, mutatedFile, Tally, withinBound } from './helpers.js';

const SCRIPTS: readonly CorpusFile[] = [
  COMMAND_LIST,
  FAILING_LIST,
  `dstore create s2
active s2
prefix : <http://example.com/>
import ! :a :p :b ; :q "x"@en , 3 .
import ! [?x, :r, ?y] :- [?x, :p, ?y], NOT [?y, :q, ?x] .
set query.answer-format application/sparql-results+json
SELECT * WHERE { ?s ?p ?o } LIMIT 3
set query.fact-domain derived
ASK { :a :r :b }
begin read-only
SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }
rollback
info
serverinfo
prefix
role create r2
grant privileges read,write |datastores|s2 to r2
revoke privileges write |datastores|s2 from r2
role delete r2 force
mat
remat
compact
clear force
help import
unset greeting
echo $(active) done`,
].map((text, i) => ({ name: `script-${i + 1}.qlog`, text }));

describe('fuzz: the shell language (mutated scripts)', function () {
  this.timeout(120_000);

  it('a mutated script runs to its end, each failure a documented error naming its position', async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(mutatedFile(SCRIPTS), async (input) => {
        // `sleep` with a mutated number would only wait as told: not what this spec looks for
        const script = `set on-error continue\n${input.text.replace(/\bsleep\b/g, 'echo')}`;
        const context = `script from ${input.source}: ${JSON.stringify(script)}`;
        const server = await Server.create({ roleName: 'admin', password: 'pw', parameters: { 'password-hashing': 'fast', 'allowed-url-schemes-on-import': 'file' } });
        let output = '';
        let errors = '';
        const shell = new Shell({
          connection: await ConnectionFactory.newServerConnection(server.url, 'admin', 'pw'),
          io: { write: (t) => void (output += t), error: (t) => void (errors += t) },
        });
        try {
          const result = await withinBound(shell.run(script, { source: 'fuzz.qlog' }), HANG_BOUND_MS, context);
          tally.add(result.status);
          expect(result.status, `${context}\n${errors}`).to.be.oneOf(['completed', 'quit']);
          if (result.failure) {
            const f = result.failure;
            tally.add(f.name);
            expect(f.status, `${context}\n${f.message}`).to.be.below(500);
            expect(f.message, context).to.match(/^fuzz\.qlog:\d+:\d+: /);
            expect(f.message, context).to.not.match(/\bundefined\b|\[object Object\]|TypeError|RangeError/);
          }
          expect(errors, context).to.not.match(/\bundefined\b|\[object Object\]|TypeError|RangeError/);
          expect(output, context).to.not.match(/\[object Object\]/);
          for (const line of errors.split('\n').filter((l) => l !== '')) expect(line, context).to.match(/^fuzz\.qlog:\d+(:\d+)?: /);
        } finally {
          await shell.close();
          await server.shutdown();
        }
      }),
      fuzzParameters(250),
    );
    tally.report('shell');
  });
});
