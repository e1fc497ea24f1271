/**
 * `set query.plan true` (another name for RDFox's `query.explain`) prints each query's plan
 * before its answers.
 */
import { expect } from 'chai';
import { normalise, runCli, tempDir } from './helpers.js';

describe('shell: set query.plan true prints the plan of each query', function () {
  this.timeout(120_000);
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir('quadlog-shell-plan-');
  });
  afterEach(() => dir.remove());

  it('prints the algebra and the join order before the answers, until it is set false again', async () => {
    const script = [
      'dstore create s',
      'prefix ex: <http://example.com/>',
      'import ! ex:a ex:p ex:b . ex:b ex:p ex:c .',
      'set query.plan true',
      'set query.plan',
      'set query.explain',
      'SELECT ?x WHERE { ?x ex:p ?y . ?y ex:p ex:c }',
      'set query.plan false',
      'ASK { ex:a ex:p ex:b }',
      'set query.plan maybe',
    ].join('\n');
    const result = await runCli(['shell'], { cwd: dir.path, input: script + '\n' });
    const out = normalise(result.stdout);
    expect(out).to.contain('query.plan = true\nquery.explain = true\n');
    expect(out).to.contain(
      ['algebra:', '  project ?x', '    bgp', '      ?x <http://example.com/p> ?y', '      ?y <http://example.com/p> <http://example.com/c>', 'join order:'].join('\n'),
    );
    expect(out).to.match(/join order:\n( {2}\d\. [^\n]*\n)+answers: 1, evaluated in [^\n]*\n \?x\n------\n ex:a\n1 answer in <t>\ntrue\n$/);
    expect(out.match(/algebra:/g)).to.have.length(1);
    expect(result.stderr).to.contain("invalid value 'maybe' for 'query.explain' (expected true, false)");
  });
});
