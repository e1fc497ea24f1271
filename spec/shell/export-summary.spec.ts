/**
 * `export` ends with a summary line, as imports and queries do: what was written (facts or
 * rules), the format, the size, where, and the time taken.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { runCli, tempDir } from './helpers.js';

describe('shell: export prints a summary line', function () {
  this.timeout(120_000);
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir('quadlog-shell-export-');
  });
  afterEach(() => dir.remove());

  it('says how many facts or rules went where, in which format, how big, in how long', async () => {
    const script = [
      'dstore create s',
      'prefix ex: <http://example.com/>',
      'import ! ex:a ex:p ex:b . ex:b ex:p ex:c .',
      'import ! [?x, ex:q, ?y] :- [?x, ex:p, ?y] . [?x, ex:r, ?y] :- [?x, ex:q, ?y] .',
      'export facts.ttl',
      'export all.nt application/n-triples fact-domain all',
      'export rules.dlog application/x.datalog',
      'set output null',
      'export - application/n-quads fact-domain derived',
      'set output out',
      'export - application/n-triples',
    ].join('\n');
    const result = await runCli(['shell'], { cwd: dir.path, input: script + '\n' });
    expect(result.stderr).to.equal('');
    const size = (name: string): string => `${statSync(join(dir.path, name)).size} B`;
    const lines = result.stdout.split('\n');
    const line = (start: string): string => lines.find((l) => l.startsWith(start)) ?? `(no line starting ${start})`;
    expect(line('exported 2 facts as text/turtle')).to.match(new RegExp(`^exported 2 facts as text/turtle, ${size('facts.ttl')}, to ${join(dir.path, 'facts.ttl')} in [\\d.]+ s$`));
    expect(line('exported 6 facts as application/n-triples')).to.match(new RegExp(`^exported 6 facts as application/n-triples, ${size('all.nt')}, to ${join(dir.path, 'all.nt')} in [\\d.]+ s$`));
    expect(readFileSync(join(dir.path, 'all.nt'), 'utf8').trim().split('\n')).to.have.length(6);
    expect(line('exported 2 rules as application/x.datalog')).to.match(new RegExp(`^exported 2 rules as application/x.datalog, ${size('rules.dlog')}, to ${join(dir.path, 'rules.dlog')} in [\\d.]+ s$`));
    // to the output when it is not the screen: the summary says so
    expect(line('exported 4 facts as application/n-quads')).to.match(/^exported 4 facts as application\/n-quads, \d+ B, to output null in [\d.]+ s$/);
    // on the screen, the export is its own summary: nothing follows it
    expect(result.stdout).to.match(/<http:\/\/example\.com\/b> <http:\/\/example\.com\/p> <http:\/\/example\.com\/c> \.\n$/);
  });

  it('ends the progress display of an export before its summary (export.monitor summary reports it done)', async () => {
    const script = ['dstore create s', 'import ! <http://e.com/a> <http://e.com/p> <http://e.com/b> .', 'set export.monitor summary', 'export out.nt application/n-triples'].join('\n');
    const result = await runCli(['shell'], { cwd: dir.path, input: script + '\n' });
    expect(result.stderr).to.equal('');
    const lines = result.stdout.split('\n');
    const done = lines.findIndex((l) => l.startsWith('export done'));
    const summary = lines.findIndex((l) => l.startsWith('exported 1 fact as application/n-triples'));
    expect(done, result.stdout).to.be.greaterThan(-1);
    expect(summary, result.stdout).to.be.greaterThan(done);
  });
});
