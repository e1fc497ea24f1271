/**
 * The interactive shell driven through a real pseudo-terminal: tmux, on a server socket of its
 * own (`tmux -L <unique>`), in a fresh directory with its own history file. Keys are typed with
 * send-keys and the screen is read with capture-pane, polled until the expected text appears
 * (no timing is assumed; the bound is the test's timeout).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { lastLine, useTerminal } from './terminal-helpers.js';

describe('shell: quadlog shell at a terminal (tmux)', function () {
  this.timeout(120_000);
  const tty = useTerminal('quadlog-shell-tty-');

  it('edits lines, completes commands, stores and prefixes, and runs what is typed', async () => {
    const t = await tty.start({ columns: 200, rows: 50 });
    await t.type('dst');
    await t.keys(['Tab']);
    await t.waitFor(/> dstore $/m);
    await t.type('create family');
    await t.keys(['Enter']);
    await t.waitFor(/data store 'family' created and made active\nfamily> $/m);
    await t.type('prefix ex: <http://example.com/>');
    await t.keys(['Enter']);
    await t.waitFor(/^prefix ex: <http:\/\/example\.com\/>\nfamily> $/m);
    await t.type('active fa');
    await t.keys(['Tab']);
    await t.waitFor(/family> active family $/m);
    await t.keys(['Enter']);
    await t.waitFor(/data store 'family' is active\nfamily> $/m);
    await t.type('import ! ex:a ex:p ex:b .');
    await t.keys(['Enter']);
    await t.waitFor(/1 fact \(1 new\) in [\d.]+ s\nfamily> $/m);
    // a query over two lines, a prefix completed in it
    await t.type('SELECT ?x WHERE { ?x e');
    await t.keys(['Tab']);
    await t.waitFor(/family> SELECT \?x WHERE \{ \?x ex:$/m);
    await t.type('p ?y } \\');
    await t.keys(['Enter']);
    await t.waitFor(/^\.\.\. $/m);
    await t.type('ORDER BY ?x');
    await t.keys(['Enter']);
    const screen = await t.waitFor(/1 answer in [\d.]+ s\nfamily> $/m);
    expect(screen).to.contain(' ?x\n------\n ex:a\n');
    // line editing: move left and insert
    await t.type('echo wrld');
    await t.keys(['Left', 'Left', 'Left']);
    await t.type('o');
    await t.keys(['Enter']);
    await t.waitFor(/^ewrld\n|^world\n/m).then((s) => expect(s).to.match(/^world$/m));
  });

  it('keeps a history across sessions, recalled with the Up key', async () => {
    const history = join(tty.dir, 'history');
    let t = await tty.start({ history, columns: 200, rows: 50 });
    await t.type('echo first command');
    await t.keys(['Enter']);
    await t.waitFor(/^first command\n> $/m);
    await t.type('role create secretive password hidden');
    await t.keys(['Enter']);
    await t.waitFor(/role 'secretive' created\n> $/m);
    await t.type('quit');
    await t.keys(['Enter']);
    await t.waitFor(/\[exited 0\]/);
    await t.kill();
    const saved = readFileSync(history, 'utf8');
    expect(saved).to.contain('echo first command\n').and.to.contain('quit\n');
    // lines carrying a password stay out of the file
    expect(saved).to.not.contain('hidden');
    t = await tty.start({ history, columns: 200, rows: 50 });
    await t.keys(['Up', 'Up']);
    await t.waitFor(/> echo first command$/m);
    await t.keys(['Enter']);
    await t.waitFor(/^first command\n> $/m);
  });

  it('interrupts a long query with Ctrl-C, and the shell goes on; Ctrl-C at the prompt clears the line', async () => {
    let facts = '';
    for (let i = 0; i < 1000; i++) facts += `<http://e.com/n${i}> <http://e.com/p> <http://e.com/n${i + 1}> .\n`;
    writeFileSync(join(tty.dir, 'chain.nt'), facts);
    const t = await tty.start({ columns: 200, rows: 50 });
    await t.type('dstore create s');
    await t.keys(['Enter']);
    await t.type('import chain.nt');
    await t.keys(['Enter']);
    await t.waitFor(/1,000 facts \(1,000 new\) in [\d.]+ s\ns> $/m);
    await t.type('SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f }');
    await t.keys(['Enter']);
    // the query is running once the line is taken and no prompt follows it
    for (;;) {
      const screen = await t.screen(true);
      if (lastLine(screen).endsWith('?f }')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await t.keys(['C-c']);
    await t.waitFor(/column 1: SELECT: InterruptedError: [^\n]*\ns> $/m);
    await t.type('echo this is not run');
    await t.keys(['C-c']);
    await t.waitFor(/\^C\ns> $/m);
    await t.type('echo still here');
    await t.keys(['Enter']);
    const screen = await t.waitFor(/^still here\ns> $/m);
    expect(screen).to.not.contain('this is not run\n');
    expect(lastLine(screen)).to.equal('s> ');
  });
});
