/**
 * `clear` empties the active data store, so it asks first, and its question says how to clear
 * the screen instead: `cls` (a command) or Ctrl-L. Driven through a pseudo-terminal (tmux) as
 * interactive.spec.ts, and as a script.
 */
import { expect } from 'chai';
import { runCli } from './helpers.js';
import { lastLine, useTerminal } from './terminal-helpers.js';

describe('shell: clearing the screen is not clearing the store', function () {
  this.timeout(120_000);
  const tty = useTerminal('quadlog-shell-cls-');

  it('clear asks before emptying the store, naming cls and Ctrl-L; cls and Ctrl-L clear the screen', async () => {
    const t = await tty.start();
    await t.line('dstore create s');
    await t.line('import ! <http://e.com/a> <http://e.com/p> <http://e.com/b> .');
    await t.waitFor(/1 fact \(1 new\) in [\d.]+ s\ns> $/m);
    await t.line('clear');
    let screen = await t.waitFor(/\[y\/N\] $/m);
    expect(lastLine(screen)).to.equal("delete every fact, rule and axiom of data store 's'? (to clear the screen instead, type cls or press Ctrl-L) [y/N] ");
    await t.line('n');
    await t.waitFor(/^cancelled\ns> $/m);
    await t.line('ASK { ?s ?p ?o }');
    await t.waitFor(/^true\ns> $/m);
    // cls: the screen is cleared, the store kept
    await t.line('echo marker one');
    await t.waitFor(/^marker one\ns> $/m);
    await t.line('cls');
    screen = await t.waitFor(/^s> \s*$/, false);
    expect(screen).to.not.contain('marker one');
    await t.line('ASK { ?s ?p ?o }');
    await t.waitFor(/^s> ASK \{ \?s \?p \?o \}\ntrue\ns> \s*$/, false);
    // Ctrl-L at the prompt keeps what is being typed
    await t.line('echo marker two');
    await t.waitFor(/^marker two\ns> $/m);
    await t.type('echo typed');
    await t.keys(['C-l']);
    screen = await t.waitFor(/^s> echo typed\s*$/, false);
    expect(screen).to.not.contain('marker two');
    await t.keys(['Enter']);
    await t.waitFor(/^typed\ns> $/m);
  });

  it('in a script: cls does nothing, and clear without force names cls in its refusal', async () => {
    const result = await runCli(['shell'], { cwd: tty.dir, input: 'dstore create s\ncls\necho after cls\nclear\n' });
    expect(result.stdout).to.equal("data store 's' created and made active\nafter cls\n");
    expect(result.stderr).to.contain("'clear' asks for confirmation, and this shell cannot ask: add 'force'");
    const none = await runCli(['shell'], { cwd: tty.dir, input: 'clear force\n' });
    expect(none.stderr).to.contain('clear empties the active data store (to clear the screen instead, type cls or press Ctrl-L): no data store is active');
  });
});
