/**
 * Keys typed at the terminal while a command runs are shown as they are typed and kept: a
 * finished line runs after the command, shown after its own prompt; an unfinished one waits
 * at the next prompt, to be edited or run; Ctrl-C drops them with the command. Driven through
 * a pseudo-terminal (tmux), as interactive.spec.ts.
 */
import { expect } from 'chai';
import { lastLine, useTerminal } from './terminal-helpers.js';

describe('shell: keys typed during a long command are shown and kept for the next prompt', function () {
  this.timeout(120_000);
  const tty = useTerminal('quadlog-shell-typeahead-');

  it('shows what is typed during the work, runs a finished line after it, and leaves the rest at the prompt', async () => {
    const t = await tty.start();
    await t.line('sleep 8000');
    await t.waitFor(/^> sleep 8000\n/m);
    await t.type('echo one');
    await t.keys(['Enter']);
    await t.type('echo two');
    // shown while the command still runs (no prompt has come back)
    let screen = await t.waitFor(/^echo one\necho two$/m);
    expect(lastLine(screen)).to.equal('echo two');
    // after it: the finished line after its prompt, its output, and the unfinished one waiting
    screen = await t.waitFor(/^> echo one\none\n> echo two$/m);
    expect(screen).to.not.match(/^one\S/m);
    expect(lastLine(screen)).to.equal('> echo two');
    // it waits to be edited, not run
    await t.keys(['BSpace', 'BSpace', 'BSpace']);
    await t.type('three');
    await t.keys(['Enter']);
    screen = await t.waitFor(/^> echo three\nthree\n> $/m);
    expect(screen).to.not.match(/^two$/m);
  });

  it('drops what was typed ahead when Ctrl-C interrupts the command', async () => {
    const t = await tty.start();
    await t.line('sleep 600000');
    await t.waitFor(/^> sleep 600000\n/m);
    await t.type('echo never');
    await t.waitFor(/^echo never$/m);
    await t.keys(['C-c']);
    await t.waitFor(/InterruptedError[^\n]*\n> $/m);
    await t.line('echo still here');
    const screen = await t.waitFor(/^still here\n> $/m);
    expect(screen).to.not.match(/^never$/m);
  });
});
