/**
 * Smaller RDFox commands about the active data store and the server: `recompile`, `dsprop`
 * (the store's properties), `commitproc` (its commit procedure) and `threads` (the server's
 * number of threads), each one call of the public API.
 * @module
 */
import { isKeyword } from './arguments.js';
import { type CommandContext, CommandError } from './base.js';
import type { Command } from './commands.js';
import { listing } from './output.js';

function noMore(ctx: CommandContext, index: number, syntax: string): void {
  const extra = ctx.args[index];
  if (extra) throw new CommandError(`unexpected argument '${extra.text}' (syntax: ${syntax})`, extra);
}

/** `recompile`: the compiled rules and commit procedure rebuilt. */
export const recompile: Command = {
  name: 'recompile',
  syntax: 'recompile',
  summary: 'rebuild the compiled rules and check the commit procedure of the active data store',
  async run(ctx) {
    noMore(ctx, 0, this.syntax);
    await ctx.shell.store().recompile();
    await ctx.note('rules recompiled\n');
  },
};

const DSPROP_SYNTAX = 'dsprop list | set <property> [<value>]';

/** `dsprop`: the properties of the active data store. */
export const dsprop: Command = {
  name: 'dsprop',
  syntax: DSPROP_SYNTAX,
  summary: 'list the properties of the active data store, show one, or set one',
  details: 'Only base-iri can be changed once a store exists; the other properties are fixed when it is created (dstore create <name> <property> <value>).',
  keywords: ['list', 'set'],
  async run(ctx) {
    const sub = ctx.args[0];
    if (!sub) throw new CommandError(`dsprop needs a subcommand: list or set (syntax: ${DSPROP_SYNTAX})`);
    const ds = ctx.shell.store();
    if (isKeyword(sub, 'list')) {
      noMore(ctx, 1, DSPROP_SYNTAX);
      await ctx.out(listing(['Property', 'Value'], (await ds.getDataStoreProperties()).map((r) => [r.property, r.value])));
      return;
    }
    if (!isKeyword(sub, 'set')) throw new CommandError(`unknown subcommand '${sub.text}' (list or set)`, sub);
    const name = ctx.args[1];
    if (!name) throw new CommandError(`the property is missing (syntax: ${DSPROP_SYNTAX})`, sub);
    const value = ctx.args[2];
    noMore(ctx, 3, DSPROP_SYNTAX);
    ctx.blame = name;
    if (!value) {
      const row = (await ds.getDataStoreProperties()).find((r) => r.property === name.text);
      if (!row) throw new CommandError(`data store '${ds.dataStoreName}' has no property '${name.text}'`, name);
      await ctx.out(`${row.property} = ${row.value}\n`);
      return;
    }
    const changed = await ds.setDataStoreProperty(name.text, value.text);
    await ctx.note(changed ? `${name.text} = ${value.text}\n` : 'nothing changed\n');
  },
};

const COMMITPROC_SYNTAX = 'commitproc show | set {! <update> | <file>} | delete';

/** `commitproc`: the commit procedure of the active data store. */
export const commitproc: Command = {
  name: 'commitproc',
  syntax: COMMITPROC_SYNTAX,
  summary: 'show, set or delete the commit procedure of the active data store (a SPARQL update run before every commit)',
  details: 'After `set`, `!` takes the rest of the command as the update; a file name is read by the shell (relative names in dir.queries), as evaluate reads its files.',
  keywords: ['show', 'set', 'delete', '!'],
  async run(ctx) {
    const sub = ctx.args[0];
    if (!sub) throw new CommandError(`commitproc needs a subcommand: show, set or delete (syntax: ${COMMITPROC_SYNTAX})`);
    const shell = ctx.shell;
    const ds = shell.store();
    switch (sub.text.toLowerCase()) {
      case 'show': {
        noMore(ctx, 1, COMMITPROC_SYNTAX);
        const text = await ds.getCommitProcedure();
        await ctx.out(text === undefined ? 'no commit procedure\n' : text.endsWith('\n') ? text : `${text}\n`);
        return;
      }
      case 'delete':
        noMore(ctx, 1, COMMITPROC_SYNTAX);
        await ctx.note((await ds.deleteCommitProcedure()) ? 'commit procedure deleted\n' : 'there was no commit procedure\n');
        return;
      case 'set': {
        const source = ctx.args[1];
        if (!source) throw new CommandError(`give the update after !, or a file holding it (syntax: ${COMMITPROC_SYNTAX})`, sub);
        let text: string;
        if (isKeyword(source, '!')) text = ctx.rest(source).trim();
        else {
          noMore(ctx, 2, COMMITPROC_SYNTAX);
          if (!shell.files) throw new CommandError(`commitproc set reads a file, and ${shell.remote ? 'a remote shell' : 'this shell'} has no file access (give the update after !)`, source);
          const path = shell.resolvePath(source.text, 'dir.queries', source);
          try {
            text = await shell.files.readText(path);
          } catch (e) {
            throw new CommandError(`cannot read the update file '${path}': ${(e as Error).message}`, source);
          }
        }
        ctx.blame = source;
        await ctx.note((await ds.setCommitProcedure(text)) ? 'commit procedure set\n' : 'nothing changed\n');
        return;
      }
      default:
        throw new CommandError(`unknown subcommand '${sub.text}' (show, set or delete)`, sub);
    }
  },
};

/** `threads`: the server's number of threads. */
export const threads: Command = {
  name: 'threads',
  syntax: 'threads [<number>]',
  summary: 'show or set the number of threads the server may use',
  details: "quadlog reasons and answers queries on Node's one JavaScript thread: the number (1 to 1024) is kept as the server property num-threads, for RDFox's scripts, and changes nothing else.",
  async run(ctx) {
    const n = ctx.args[0];
    noMore(ctx, 1, this.syntax);
    const sc = ctx.shell.sc;
    if (!n) {
      await ctx.out(`${sc.getNumberOfThreads()}\n`);
      return;
    }
    if (!/^\d+$/.test(n.text)) throw new CommandError('expected a number of threads', n);
    ctx.blame = n;
    sc.setNumberOfThreads(Number(n.text));
    await ctx.note(`the server may use ${n.text} threads\n`);
  },
};
