/**
 * The shell's named connections, with RDFox's commands: `srvconn` (server connections, the
 * first named `sc1`) and `dsconn` (data store connections, by default named after their
 * store). The active data store connection is what `active` shows and sets; a name with no
 * connection opens one to the store of that name, as before.
 * @module
 */
import { ConnectionFactory, type ServerConnection } from '../index.js';
import { isKeyword } from './arguments.js';
import { type CommandContext, CommandError } from './base.js';
import type { Command } from './commands.js';
import { listing } from './output.js';
import type { Word } from './words.js';

const DSCONN_SYNTAX = 'dsconn list | active [<name>] | open [<name>] to <store> [as <role> [password <password>]] | close [<name> | to <store>]';
const SRVCONN_SYNTAX = 'srvconn list | active [<name>] | open [<name>] [as <role> [password <password>]] | close [<name>]';

function unexpected(word: Word, syntax: string): CommandError {
  return new CommandError(`unexpected argument '${word.text}' (syntax: ${syntax})`, word);
}

function noMore(ctx: CommandContext, index: number, syntax: string): void {
  const extra = ctx.args[index];
  if (extra) throw unexpected(extra, syntax);
}

function need(ctx: CommandContext, index: number, what: string, syntax: string): Word {
  const word = ctx.args[index];
  if (!word) throw new CommandError(`${what} is missing (syntax: ${syntax})`, ctx.args[index - 1]);
  return word;
}

/**
 * `as <role> [password <password>]` from argument `index` on: a new server connection as that
 * role (the password asked for where the shell can ask), or undefined without `as`.
 */
async function asRole(ctx: CommandContext, index: number, syntax: string): Promise<ServerConnection | undefined> {
  const as = ctx.args[index];
  if (!as) return undefined;
  if (!isKeyword(as, 'as')) throw unexpected(as, syntax);
  const role = need(ctx, index + 1, 'the role after as', syntax);
  let password: string;
  const keyword = ctx.args[index + 2];
  if (keyword) {
    if (!isKeyword(keyword, 'password')) throw unexpected(keyword, syntax);
    password = need(ctx, index + 3, 'the password', syntax).text;
    noMore(ctx, index + 4, syntax);
  } else {
    const io = ctx.shell.io;
    if (!io.askPassword) throw new CommandError(`connecting as role '${role.text}' needs its password, and this shell cannot ask: add 'password <password>'`, role);
    password = await io.askPassword(`password for role '${role.text}': `);
  }
  ctx.blame = role;
  return ConnectionFactory.newServerConnection(ctx.shell.sc.serverURL, role.text, password);
}

/** `dsconn`: the shell's data store connections. */
export const dsconn: Command = {
  name: 'dsconn',
  syntax: DSCONN_SYNTAX,
  summary: 'list, choose, open and close the data store connections of the shell',
  details:
    '`open` names the connection `<name>` (default: the store\'s name, or ds<n> when that is taken) and leaves the active one as it is; `as <role>` connects as another role (its password is asked for, or given with `password`), through a new server connection of that role that srvconn lists. `close` closes the active connection, the one named, or (`to <store>`) every connection to a store, rolling back an open transaction. `active <name>` is the command `active`: a name with no connection opens one to the store of that name.',
  keywords: ['list', 'active', 'open', 'close', 'to', 'as', 'password'],
  async run(ctx) {
    const shell = ctx.shell;
    const sub = need(ctx, 0, 'the subcommand (list, active, open or close)', DSCONN_SYNTAX);
    switch (sub.text.toLowerCase()) {
      case 'list': {
        noMore(ctx, 1, DSCONN_SYNTAX);
        const rows = shell.dataStoreConnections().map((c) => [c.name, c.dataStore, c.role, c.transaction ?? 'none', c.name === shell.activeDataStore ? 'yes' : '']);
        await ctx.out(rows.length > 0 ? listing(['Name', 'DataStore', 'Role', 'Transaction', 'Active'], rows) : 'no data store connections\n');
        return;
      }
      case 'active': {
        const name = ctx.args[1];
        noMore(ctx, 2, DSCONN_SYNTAX);
        if (!name) {
          await ctx.out(shell.activeDataStore !== undefined ? `${shell.activeDataStore}\n` : 'no data store connection is active\n');
          return;
        }
        ctx.blame = name;
        shell.activate(name.text);
        await ctx.note(`data store connection '${name.text}' is active\n`);
        return;
      }
      case 'open': {
        let i = 1;
        let name: Word | undefined;
        if (ctx.args[i] && !isKeyword(ctx.args[i], 'to')) name = ctx.args[i++];
        const to = need(ctx, i, "'to' and the data store", DSCONN_SYNTAX);
        if (!isKeyword(to, 'to')) throw unexpected(to, DSCONN_SYNTAX);
        const store = need(ctx, i + 1, 'the data store after to', DSCONN_SYNTAX);
        const server = await asRole(ctx, i + 2, DSCONN_SYNTAX);
        ctx.blame = name ?? store;
        // a connection as another role comes with a server connection of that role (listed by srvconn)
        const serverName = server ? shell.addServerConnection(undefined, server) : undefined;
        let opened: string;
        try {
          opened = shell.openDataStoreConnection(name?.text, store.text, server && serverName !== undefined ? { name: serverName, connection: server } : undefined);
        } catch (e) {
          if (serverName !== undefined) shell.closeServerConnection(serverName);
          throw e;
        }
        await ctx.note(`data store connection '${opened}' to '${store.text}' opened${server ? ` as role '${server.roleName}' (server connection '${serverName ?? ''}')` : ''}\n`);
        return;
      }
      case 'close': {
        const first = ctx.args[1];
        let names: string[];
        if (first && isKeyword(first, 'to')) {
          const store = need(ctx, 2, 'the data store after to', DSCONN_SYNTAX);
          noMore(ctx, 3, DSCONN_SYNTAX);
          names = shell.dataStoreConnections().filter((c) => c.dataStore === store.text).map((c) => c.name);
          if (names.length === 0) throw new CommandError(`no data store connection is open to '${store.text}'`, store);
        } else {
          noMore(ctx, 2, DSCONN_SYNTAX);
          const name = first?.text ?? shell.activeDataStore;
          if (name === undefined) throw new CommandError('no data store connection is active: name the one to close');
          names = [name];
        }
        for (const name of names) {
          if (!(await shell.closeDataStoreConnection(name))) throw new CommandError(`no data store connection is named '${name}' (dsconn list shows them)`, first);
          await ctx.note(`data store connection '${name}' closed\n`);
        }
        return;
      }
      default:
        throw new CommandError(`unknown subcommand '${sub.text}' (list, active, open or close)`, sub);
    }
  },
};

/** `srvconn`: the shell's server connections. */
export const srvconn: Command = {
  name: 'srvconn',
  syntax: SRVCONN_SYNTAX,
  summary: 'list, choose, open and close the server connections of the shell (the first is sc1)',
  details:
    'Commands act through the active server connection: its role is the shell\'s role (and new data store connections are opened through it). `open` without `as` duplicates the active connection; `as <role>` connects as another role (its password is asked for, or given with `password`); it does not make the new connection active (`srvconn active <name>` does). `close` closes the active connection or the one named.',
  keywords: ['list', 'active', 'open', 'close', 'as', 'password'],
  async run(ctx) {
    const shell = ctx.shell;
    const sub = need(ctx, 0, 'the subcommand (list, active, open or close)', SRVCONN_SYNTAX);
    switch (sub.text.toLowerCase()) {
      case 'list': {
        noMore(ctx, 1, SRVCONN_SYNTAX);
        const rows = shell.serverConnections().map((c) => [c.name, c.role, c.active ? 'yes' : '']);
        await ctx.out(rows.length > 0 ? listing(['Name', 'Role', 'Active'], rows) : 'no server connections\n');
        return;
      }
      case 'active': {
        const name = ctx.args[1];
        noMore(ctx, 2, SRVCONN_SYNTAX);
        if (!name) {
          await ctx.out(`${shell.activeServerConnection}\n`);
          return;
        }
        ctx.blame = name;
        shell.activateServer(name.text);
        await ctx.note(`server connection '${name.text}' is active (role '${shell.roleName}')\n`);
        return;
      }
      case 'open': {
        let i = 1;
        let name: Word | undefined;
        if (ctx.args[i] && !isKeyword(ctx.args[i], 'as')) name = ctx.args[i++];
        const connection = (await asRole(ctx, i, SRVCONN_SYNTAX)) ?? shell.sc.duplicate();
        ctx.blame = name;
        const opened = shell.addServerConnection(name?.text, connection);
        await ctx.note(`server connection '${opened}' opened as role '${connection.roleName}'\n`);
        return;
      }
      case 'close': {
        const name = ctx.args[1];
        noMore(ctx, 2, SRVCONN_SYNTAX);
        const target = name?.text ?? shell.activeServerConnection;
        if (!shell.closeServerConnection(target)) throw new CommandError(`no server connection is named '${target}' (srvconn list shows them)`, name);
        await ctx.note(`server connection '${target}' closed\n`);
        return;
      }
      default:
        throw new CommandError(`unknown subcommand '${sub.text}' (list, active, open or close)`, sub);
    }
  },
};
