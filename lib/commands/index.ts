/**
 * The command language of quadlog's shell, for every way in: `quadlog shell` (a terminal or a
 * script), `POST /commands` and `/shells` of the HTTP endpoint. The interpreter is a client of
 * the public API only (see {@link Shell}).
 *
 * ```ts
 * const shell = new Shell({ connection: await ConnectionFactory.newServerConnection(url, role, password), io: { write: (t) => process.stdout.write(t) } });
 * await shell.run('dstore create family\nimport ! <http://e.com/a> <http://e.com/p> 1 .\nSELECT * WHERE { ?s ?p ?o }');
 * await shell.close();
 * ```
 * @module
 */
export { CommandError, type CommandContext, SHELL_VARIABLES } from './base.js';
export { COMMANDS, type Command, fileIri, isSparqlStart } from './commands.js';
export { complete, type CompletionSource } from './completion.js';
export { progressLine, progressRates, bytesText, seconds } from './output.js';
export {
  type ProgressDisplay,
  type RunOptions,
  Shell,
  type DataStoreConnectionInfo,
  type ShellEndpoint,
  type ShellEndpointParameters,
  type ShellFailure,
  type ShellFileWriter,
  type ShellFiles,
  type ShellIO,
  type ShellOptions,
  type ShellRunResult,
} from './shell.js';
export { type CommandText, LineAssembler, positionOf, splitScript, splitWords, type Word } from './words.js';
