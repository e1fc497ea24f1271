/**
 * The commands that run SPARQL given as text after `!` or read from files, with RDFox's names:
 * `evaluate` (queries and updates), `answer` (queries only) and `update` (updates only).
 * Query files are files of the shell's machine, read like `exec`'s scripts (relative names
 * in `dir.queries`); shells without file access (those of the HTTP endpoint) take the
 * statement after `!` only.
 * @module
 */
import { sparqlOperationType } from '../index.js';
import { isKeyword } from './arguments.js';
import { type CommandContext, CommandError } from './base.js';
import type { Command } from './commands.js';
import { runSparql } from './sparql-command.js';

/** Which statements a command takes. */
type Accepts = 'any' | 'query' | 'update';

/** The kind of a statement, in words, or an error when the command does not take it. */
function check(ctx: CommandContext, text: string, accepts: Accepts, where: string): void {
  if (accepts === 'any') return;
  let type: string;
  try {
    type = sparqlOperationType(text);
  } catch {
    // the evaluation reports what is wrong with the text
    return;
  }
  const isUpdate = type === 'UPDATE';
  if (accepts === 'query' && isUpdate) throw new CommandError(`${where} is an update: 'answer' evaluates queries (use 'update' or 'evaluate')`);
  if (accepts === 'update' && !isUpdate) throw new CommandError(`${where} is a ${type} query: 'update' evaluates updates (use 'answer' or 'evaluate')`);
}

/** A command running statements from `!` text or files. */
function statementCommand(name: string, accepts: Accepts, summary: string): Command {
  const what = accepts === 'query' ? 'query' : accepts === 'update' ? 'update' : 'statement';
  const syntax = `${name} {! <${what}> | <file>...}`;
  return {
    name,
    syntax,
    summary,
    details:
      `After \`!\`, the rest of the command is the ${what}; otherwise each file holds one (a relative name is found in dir.queries, itself relative to dir.root). ` +
      'Queries print their answers as typed SPARQL does (query.answer-format, output, query.explain); an update may chain operations with `;` and runs in one transaction (or in the open one). ' +
      'The files are read by the shell, like exec\'s scripts: a shell of the HTTP endpoint has none, and takes `!` only.',
    keywords: ['!'],
    async run(ctx) {
      const first = ctx.args[0];
      if (!first) throw new CommandError(`give the ${what} after !, or files holding them (syntax: ${syntax})`);
      if (isKeyword(first, '!')) {
        const text = ctx.rest(first).trim();
        if (text === '') throw new CommandError(`the ${what} after ! is missing`, first);
        check(ctx, text, accepts, `the ${what} after !`);
        await runSparql(ctx, text);
        return;
      }
      const shell = ctx.shell;
      for (const word of ctx.args) {
        ctx.blame = word;
        if (!shell.files) throw new CommandError(`${name} reads ${what} files, and ${shell.remote ? 'a remote shell' : 'this shell'} has no file access (give the ${what} after !)`, word);
        const path = shell.resolvePath(word.text, 'dir.queries', word);
        let text: string;
        try {
          text = await shell.files.readText(path);
        } catch (e) {
          throw new CommandError(`cannot read the ${what} file '${path}': ${(e as Error).message}`, word);
        }
        check(ctx, text, accepts, `'${path}'`);
        await runSparql(ctx, text);
        shell.checkInterrupted();
      }
    },
  };
}

/** `evaluate`: SPARQL queries and updates. */
export const evaluate: Command = statementCommand('evaluate', 'any', 'run a SPARQL query or update given after ! or held in files (printing answers, or what the update did)');

/** `answer`: SPARQL queries. */
export const answer: Command = statementCommand('answer', 'query', 'answer SPARQL queries (SELECT, ASK, CONSTRUCT, DESCRIBE) given after ! or held in files');

/** `update`: SPARQL updates. */
export const update: Command = statementCommand('update', 'update', 'run SPARQL updates given after ! or held in files');
