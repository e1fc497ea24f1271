/**
 * Long answers at a terminal page through a pager: less (or $PAGER) when there is one, the
 * built-in one otherwise; `set pager off` turns paging off; scripts and output that is not a
 * terminal are never paged. Driven through a pseudo-terminal (tmux), as interactive.spec.ts.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { runCli, which } from './helpers.js';
import { lastLine, numberedFacts, type Terminal, useTerminal } from './terminal-helpers.js';

const run = promisify(execFile);
const QUERY = 'SELECT ?x ?v WHERE { ?x ?p ?v } ORDER BY ?x';
const MORE = '-- more -- (space: next page, Enter: next line, q: stop)';

describe('shell: long answers page through a pager at a terminal', function () {
  this.timeout(120_000);
  const tty = useTerminal('quadlog-shell-pager-');

  before(async function () {
    this.timeout(600_000);
    if (!(await which('less'))) await run('apt-get', ['install', '-y', 'less'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  });
  beforeEach(() => {
    writeFileSync(join(tty.dir, 'facts.nt'), numberedFacts(100));
  });

  /** A 100-column, 30-row terminal with a store of 100 facts. */
  async function withFacts(env: readonly string[]): Promise<Terminal> {
    const t = await tty.start({ env });
    await t.line('dstore create s');
    await t.line('import facts.nt');
    await t.waitFor(/100 facts \(100 new\) in [\d.]+ s\ns> $/m);
    return t;
  }

  it('pages through less -FRX when PAGER is unset and less is installed', async () => {
    const t = await withFacts(['-u PAGER']);
    await t.line(QUERY);
    // less shows the first screenful and waits at its prompt
    let screen = await t.waitFor(/^:$/m, false);
    expect(screen).to.contain('<http://e.com/n1000>');
    expect(screen).to.not.contain('<http://e.com/n1050>');
    expect(screen).to.not.contain('100 answers');
    await t.keys(['Space']);
    await t.waitFor(/<http:\/\/e\.com\/n1050>/, false);
    await t.keys(['q']);
    screen = await t.waitFor(/s> $/m, false);
    expect(lastLine(screen)).to.equal('s> ');
    await t.line('echo after the pager');
    await t.waitFor(/^after the pager\ns> $/m);
  });

  it('pages through $PAGER when it is set', async () => {
    const t = await withFacts(['PAGER=sed s/^/paged:/']);
    await t.line(QUERY);
    const screen = await t.waitFor(/^paged:100 answers in [\d.]+ s\ns> $/m);
    expect(screen).to.contain('paged: <http://e.com/n1000> | "v1000"');
    expect(screen).to.contain('paged: <http://e.com/n1099> | "v1099"');
  });

  it('has a built-in pager (PAGER empty, or set pager builtin): space a page, Enter a line, q stops', async () => {
    const t = await withFacts(['PAGER=']);
    await t.line(QUERY);
    let screen = await t.waitFor(new RegExp(`^${MORE.replace(/[()]/g, '\\$&')}$`, 'm'), false);
    // 29 rows: the header, its rule and 27 answers; the last row is the question
    expect(screen).to.contain('<http://e.com/n1026>');
    expect(screen).to.not.contain('<http://e.com/n1027>');
    await t.keys(['Enter']);
    screen = await t.waitFor(/<http:\/\/e\.com\/n1027>[^\n]*\n-- more --/, false);
    expect(screen).to.not.contain('<http://e.com/n1028>');
    await t.keys(['Space']);
    // a screenful more: 29 rows
    screen = await t.waitFor(/<http:\/\/e\.com\/n1056>[^\n]*\n-- more --/, false);
    expect(screen).to.not.contain('<http://e.com/n1057>');
    await t.keys(['q']);
    screen = await t.waitFor(/^\(the rest of the output was dropped: the pager was closed\)\ns> $/m);
    expect(screen).to.not.contain('n1057');
    expect(screen).to.not.contain('InterruptedError');
    expect(screen).to.not.contain('100 answers');
    // the same with the variable, whatever PAGER says
    await t.line('set pager builtin');
    await t.line('SELECT ?x WHERE { ?x ?p ?v } ORDER BY ?x');
    await t.waitFor(/-- more -- \(space/, false);
    await t.keys(['q']);
    await t.waitFor(/dropped: the pager was closed\)\ns> $/m);
  });

  it('is turned off with set pager off, and short answers are never paged', async () => {
    const t = await withFacts(['-u PAGER']);
    await t.line('SELECT ?v WHERE { <http://e.com/n1007> ?p ?v }');
    await t.waitFor(/^ "v1007"\n1 answer in [\d.]+ s\ns> $/m);
    await t.line('set pager off');
    await t.line(QUERY);
    const screen = await t.waitFor(/^ <http:\/\/e\.com\/n1099> \| "v1099"\n100 answers in [\d.]+ s\ns> $/m);
    expect(screen).to.not.contain('-- more --');
  });

  it('never pages a script, nor output that is not a terminal', async () => {
    const result = await runCli(['shell'], { cwd: tty.dir, input: `dstore create s\nimport facts.nt\n${QUERY}\n`, env: { PAGER: 'sed s/^/paged:/' } });
    expect(result.stderr).to.equal('');
    expect(result.stdout).to.not.contain('paged:').and.to.not.contain('-- more --');
    expect(result.stdout).to.match(/ <http:\/\/e\.com\/n1099> \| "v1099"\n100 answers in [\d.]+ s\n$/);
  });
});
