/**
 * What the shell and its commands share: the error of a command, the shell's variables and
 * what a command's implementation gets.
 * @module
 */
import { QuadlogError, VERSION } from '../index.js';
import type { Shell } from './shell.js';
import type { CommandText, Word } from './words.js';

/** Variables the shell keeps for itself: their default values and descriptions. */
export const SHELL_VARIABLES: ReadonlyArray<{ readonly name: string; readonly initial: string; readonly description: string; readonly readOnly?: boolean }> = [
  { name: 'dir.root', initial: '', description: 'the directory relative paths are resolved against (dir.* variables that are empty or relative start from it)' },
  { name: 'dir.facts', initial: '', description: 'directory of files to import (relative to dir.root)' },
  { name: 'dir.dlog', initial: '', description: 'directory of rule files, tried after dir.facts (relative to dir.root)' },
  { name: 'dir.scripts', initial: '', description: 'directory of scripts for exec (relative to dir.root)' },
  { name: 'dir.queries', initial: '', description: 'directory of query files for evaluate, answer and update (relative to dir.root)' },
  { name: 'dir.output', initial: '', description: 'directory of exports and output files (relative to dir.root)' },
  { name: 'dir.executing-script', initial: '', description: 'the directory of the script being executed', readOnly: true },
  { name: 'on-error', initial: 'stop', description: 'what a script does after a failed command: stop, continue or continue-if-exists (typed commands always go on)' },
  { name: 'output', initial: 'out', description: 'where answers and listings go: out, null (nowhere) or a file name' },
  { name: 'query.answer-format', initial: 'table', description: 'how answers are printed: table, or an answer media type (text/csv, application/sparql-results+json, …)' },
  { name: 'query.time-limit', initial: 'none', description: "stop queries after this many milliseconds (none: the server's limit, if any)" },
  { name: 'query.memory-limit', initial: 'none', description: "stop queries that hold more than this many bytes, estimated (none: the server's limit)" },
  { name: 'query.explain', initial: 'false', description: 'print the plan of each query before its answers (true or false; the query is evaluated once more to find the join orders); query.plan is another name for it' },
  { name: 'query.fact-domain', initial: 'all', description: 'facts queries match: explicit, derived or all' },
  { name: 'query.print-summary', initial: 'true', description: 'print the number of answers and the time taken after each query (true or false)' },
  { name: 'import.format', initial: '', description: 'media type forced on imports (empty: told from the file name or content)' },
  { name: 'import.monitor', initial: 'progress', description: 'progress of imports: off, progress (shown while long), summary (progress and a final line)' },
  { name: 'export.monitor', initial: 'progress', description: 'progress of exports: off, progress or summary' },
  { name: 'reason.monitor', initial: 'progress', description: 'progress of reasoning (commit, mat, remat, imports): off, progress or summary' },
  { name: 'pager', initial: 'auto', description: 'at a terminal, output longer than the screen goes through a pager: auto ($PAGER, else less -FRX, else the built-in one), builtin, or off (scripts and output that is not a terminal are never paged)' },
  { name: 'log-frequency', initial: '5', description: 'seconds between progress lines when the output is not a terminal' },
  { name: 'version', initial: VERSION, description: 'the version of quadlog', readOnly: true },
];

/** An error of a command, naming the argument it is about. */
export class CommandError extends QuadlogError {
  /** Creates the error; `word` is the argument it is about. */
  constructor(
    message: string,
    /** The argument. */
    readonly word?: Word | undefined,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'CommandError';
  }

  /** Always 400: the command was wrong. */
  override readonly status: number = 400;
}

/** What a command's implementation gets. */
export interface CommandContext {
  /** The shell. */
  readonly shell: Shell;
  /** The command's name as typed. */
  readonly name: string;
  /** The command's text. */
  readonly command: CommandText;
  /** The arguments (words after the name). */
  readonly args: readonly Word[];
  /** The argument an error of the API call being made is about (set by the command). */
  blame: Word | undefined;
  /** The raw text after a word (variables expanded), e.g. after `!`. */
  rest(after: Word): string;
  /** Writes a result (answers, listings) to the `output` target. */
  out(text: string): Promise<void>;
  /** Writes a message to the shell's output (not redirected by `output`). */
  note(text: string): Promise<void>;
}
