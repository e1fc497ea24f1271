/**
 * The commands of the shell, with RDFox's names where RDFox has the command, and SPARQL typed
 * directly. Each command checks its arguments, calls the public API and prints what happened.
 * @module
 */
import {
  EXPLANATION_TYPES,
  type ExplanationType,
  type ExportParameters,
  ImportError,
  type ImportResult,
  type ImportSource,
  type ProgressReport,
  renderExplanation,
  type TransactionType,
  type UpdateType,
} from '../index.js';
import { bytesText, count, listing, plural, seconds } from './output.js';
import { ADMIN_COMMANDS } from './admin-commands.js';
import { confirmed as confirm, graphName, isKeyword as keyword, pairs } from './arguments.js';
import { type CommandContext, CommandError, SHELL_VARIABLES } from './base.js';
import type { Shell } from './shell.js';
import type { Word } from './words.js';
import { runSparql } from './sparql-command.js';
import { answer, evaluate, update } from './statements.js';
import { dsconn, srvconn } from './connections.js';
import { endpoint } from './endpoint-command.js';
import { factAtom } from './fact-syntax.js';
import { commitproc, dsprop, recompile, threads } from './store-commands.js';
import { validateCommand } from './shacl-command.js';
import { deltaquery, deltaqueryanswer } from './delta-query-commands.js';

export { runSparql };

/** A command of the shell. */
export interface Command {
  /** Its name. */
  readonly name: string;
  /** Other names. */
  readonly aliases?: readonly string[];
  /** Its syntax. */
  readonly syntax: string;
  /** One line saying what it does. */
  readonly summary: string;
  /** More about it. */
  readonly details?: string;
  /** Subcommands and keywords (for completion). */
  readonly keywords?: readonly string[];
  /** What arguments complete to: stores, variables, commands, delta queries (of the active store). */
  readonly completes?: 'stores' | 'variables' | 'commands' | 'deltaqueries';
  /** Runs it. */
  run(ctx: CommandContext): Promise<void>;
}

/** The first words of SPARQL texts. */
const SPARQL_KEYWORDS: ReadonlySet<string> = new Set(['SELECT', 'ASK', 'CONSTRUCT', 'DESCRIBE', 'INSERT', 'DELETE', 'PREFIX', 'BASE', 'LOAD', 'CLEAR', 'DROP', 'CREATE', 'ADD', 'MOVE', 'COPY', 'WITH']);

/**
 * Whether a command is SPARQL: it starts with a SPARQL keyword (any case). `prefix` alone, or
 * with a name and an IRI and nothing after, is the `prefix` command; `clear` is the `clear`
 * command unless SILENT, GRAPH, DEFAULT, NAMED or ALL follows.
 */
export function isSparqlStart(text: string, name: string): boolean {
  const upper = name.toUpperCase();
  if (!SPARQL_KEYWORDS.has(upper)) return false;
  if (upper === 'PREFIX') return !/^\s*prefix(\s+\S*:?(\s*<[^>]*>)?)?\s*$/i.test(text);
  if (upper === 'CLEAR') return /^\s*clear\s+(silent|graph|default|named|all)\b/i.test(text);
  return true;
}

// ---- helpers ----

function arg(ctx: CommandContext, index: number, what: string): Word {
  const word = ctx.args[index];
  if (!word) throw new CommandError(`${what} is missing (syntax: ${findCommand(ctx.name)?.syntax ?? ctx.name})`);
  return word;
}

function noMore(ctx: CommandContext, index: number): void {
  const extra = ctx.args[index];
  if (extra) throw new CommandError(`unexpected argument (syntax: ${findCommand(ctx.name)?.syntax ?? ctx.name})`, extra);
}

function elapsed(start: number): string {
  return seconds(performance.now() - start);
}

/** The IRI of a file to import, or of an IRI argument. */
function importIri(shell: Shell, word: Word): string {
  if (word.iri) return word.text;
  if (/^(https?|file):\/\//i.test(word.text)) return word.text;
  let path: string;
  try {
    path = shell.resolvePath(word.text, 'dir.facts', word);
  } catch (e) {
    throw e instanceof CommandError ? new CommandError(e.message, word) : e;
  }
  return fileIri(path);
}

/** A `file:` IRI of an absolute path (each segment percent-encoded). */
export function fileIri(path: string): string {
  const p = path.replace(/\\/g, '/');
  return 'file://' + (p.startsWith('/') ? '' : '/') + p.split('/').map((s) => encodeURIComponent(s).replace(/%3A/gi, ':')).join('/');
}

function importSummary(result: ImportResult, deleting: boolean, start: number): string {
  const change = deleting ? 'deleted' : 'new';
  const parts = [`${plural(result.processedFacts, 'fact')} (${count(result.changedFacts)} ${change})`];
  if (result.processedRules > 0) parts.push(`${plural(result.processedRules, 'rule')} (${count(result.changedRules)} ${change})`);
  if (result.processedAxioms > 0) parts.push(`${plural(result.processedAxioms, 'axiom')} (${count(result.changedAxioms)} ${change})`);
  if (result.warnings > 0) parts.push(plural(result.warnings, 'warning'));
  return `${parts.join(', ')} in ${elapsed(start)}\n`;
}

function rowText(row: ImportResult['rows'][number]): string {
  const at = (row.line !== undefined ? `line ${row.line}: ` : '') + (row.column !== undefined ? `column ${row.column}: ` : '');
  return `${row.type}: ${at}${row.description}`;
}


// ---- the commands ----

const active: Command = {
  name: 'active',
  syntax: 'active [<store>]',
  summary: 'show the active data store, or make another one active',
  details: 'Commands that work on a data store (import, export, queries, transactions, …) use the active one.',
  completes: 'stores',
  async run(ctx) {
    const name = ctx.args[0];
    noMore(ctx, 1);
    if (!name) {
      await ctx.out(ctx.shell.activeDataStore !== undefined ? `${ctx.shell.activeDataStore}\n` : 'no data store is active\n');
      return;
    }
    ctx.blame = name;
    ctx.shell.activate(name.text);
    const store = ctx.shell.store().dataStoreName;
    await ctx.note(store === name.text ? `data store '${store}' is active\n` : `data store connection '${name.text}' (data store '${store}') is active\n`);
  },
};

const begin: Command = {
  name: 'begin',
  syntax: 'begin [read-only | read-write]',
  summary: 'start a transaction on the active data store (read-write by default)',
  details: '`read` and `write` are accepted for read-only and read-write. Until commit or rollback, every command on the store runs inside the transaction.',
  keywords: ['read-only', 'read-write'],
  async run(ctx) {
    const kind = ctx.args[0];
    noMore(ctx, 1);
    let type: TransactionType = 'read-write';
    if (kind) {
      if (keyword(kind, 'read-only', 'read')) type = 'read-only';
      else if (!keyword(kind, 'read-write', 'write')) throw new CommandError(`unknown transaction type '${kind.text}' (read-only or read-write)`, kind);
    }
    const ds = ctx.shell.store();
    await ds.beginTransaction(type);
    await ctx.note(`${type} transaction started on '${ds.dataStoreName}'\n`);
  },
};

const commit: Command = {
  name: 'commit',
  syntax: 'commit',
  summary: 'commit the transaction of the active data store (reasoning brings the materialisation up to date)',
  async run(ctx) {
    noMore(ctx, 0);
    const ds = ctx.shell.store();
    const start = performance.now();
    const progress = ctx.shell.progress('reason.monitor', 'reasoning');
    try {
      await ds.commitTransaction({ onProgress: progress.onProgress });
    } finally {
      await progress.done();
    }
    await ctx.note(`transaction committed in ${elapsed(start)}\n`);
  },
};

const rollback: Command = {
  name: 'rollback',
  syntax: 'rollback',
  summary: 'roll back the transaction of the active data store',
  async run(ctx) {
    noMore(ctx, 0);
    await ctx.shell.store().rollbackTransaction();
    await ctx.note('transaction rolled back\n');
  },
};

const compact: Command = {
  name: 'compact',
  syntax: 'compact',
  summary: 'reclaim the space of deleted facts of the active data store (not inside a transaction)',
  async run(ctx) {
    noMore(ctx, 0);
    const start = performance.now();
    await ctx.shell.store().compact();
    await ctx.note(`compacted in ${elapsed(start)}\n`);
  },
};

/** What `clear` says to someone who meant the terminal's `clear`. */
const SCREEN_HINT = 'to clear the screen instead, type cls or press Ctrl-L';

const clear: Command = {
  name: 'clear',
  syntax: 'clear [rules-explicate-facts] [force]',
  summary: 'delete every fact, rule and axiom of the active data store, or (rules-explicate-facts) drop the rules and keep every fact as explicit',
  details: 'Asks for confirmation unless `force` is given (the question says that cls or Ctrl-L clears the screen, in case the terminal\'s clear was meant). `CLEAR GRAPH …` and the other SPARQL forms run as SPARQL.',
  keywords: ['rules-explicate-facts', 'force'],
  async run(ctx) {
    let explicate = false;
    let force = false;
    for (const w of ctx.args) {
      if (keyword(w, 'rules-explicate-facts')) explicate = true;
      else if (keyword(w, 'force')) force = true;
      else throw new CommandError(`unexpected argument (syntax: ${this.syntax})`, w);
    }
    let ds;
    try {
      ds = ctx.shell.store();
    } catch (e) {
      throw e instanceof CommandError ? new CommandError(`clear empties the active data store (${SCREEN_HINT}): ${e.message}`) : e;
    }
    const what = explicate ? 'drop every rule and make every fact explicit in' : 'delete every fact, rule and axiom of';
    if (!(await confirm(ctx, `${what} data store '${ds.dataStoreName}'? (${SCREEN_HINT})`, force))) return;
    if (explicate) await ds.clearRulesExplicateFacts();
    else await ds.clear();
    await ctx.note(explicate ? 'rules dropped, facts made explicit\n' : 'data store cleared\n');
  },
};

const cls: Command = {
  name: 'cls',
  syntax: 'cls',
  summary: 'clear the screen (as Ctrl-L does at the prompt); the store is left alone (clear empties it)',
  details: 'Outside a terminal (scripts, HTTP) it does nothing.',
  async run(ctx) {
    noMore(ctx, 0);
    await ctx.shell.io.clearScreen?.();
  },
};

const dstore: Command = {
  name: 'dstore',
  syntax: 'dstore list | create <name> [type <type>] [<parameter> <value>]... | delete <name> [force] | info <name>',
  summary: 'list, create, delete and describe data stores',
  details:
    '`create` makes the new store active when none is. `delete` asks for confirmation unless `force` is given. `info` (or `show`) lists the store\'s properties. Types: parallel-nn (default), parallel-nw, parallel-ww; parameters such as equality, use-DRed.',
  keywords: ['list', 'create', 'delete', 'info', 'show'],
  completes: 'stores',
  async run(ctx) {
    const sub = arg(ctx, 0, 'the subcommand (list, create, delete or info)');
    const shell = ctx.shell;
    switch (sub.text.toLowerCase()) {
      case 'list': {
        noMore(ctx, 1);
        const names = shell.sc.listDataStores();
        await ctx.out(names.length > 0 ? names.map((n) => `${n}${n === shell.activeDataStore ? ' (active)' : ''}\n`).join('') : 'no data stores\n');
        return;
      }
      case 'create': {
        const name = arg(ctx, 1, 'the name of the store');
        const parameters = pairs(ctx, 2);
        const type = parameters['type'];
        delete parameters['type'];
        ctx.blame = name;
        shell.sc.createDataStore(name.text, type, parameters);
        const activated = shell.activeDataStore === undefined;
        if (activated) shell.activate(name.text);
        await ctx.note(`data store '${name.text}' created${activated ? ' and made active' : ''}\n`);
        return;
      }
      case 'delete': {
        const name = arg(ctx, 1, 'the name of the store');
        const force = ctx.args[2];
        if (force && !keyword(force, 'force')) throw new CommandError(`unexpected argument (syntax: ${this.syntax})`, force);
        noMore(ctx, 3);
        if (!(await confirm(ctx, `delete data store '${name.text}' and everything in it?`, force !== undefined))) return;
        ctx.blame = name;
        shell.forget(name.text);
        shell.sc.deleteDataStore(name.text);
        await ctx.note(`data store '${name.text}' deleted\n`);
        return;
      }
      case 'info':
      case 'show': {
        const name = arg(ctx, 1, 'the name of the store');
        noMore(ctx, 2);
        ctx.blame = name;
        const ds = shell.sc.newDataStoreConnection(name.text);
        try {
          const rows = await ds.getDataStoreProperties();
          await ctx.out(listing(['Property', 'Value'], rows.map((r) => [r.property, r.value])));
        } finally {
          ds.close();
        }
        return;
      }
      default:
        throw new CommandError(`unknown subcommand '${sub.text}' (list, create, delete or info)`, sub);
    }
  },
};

const echo: Command = {
  name: 'echo',
  syntax: 'echo <word>...',
  summary: 'print the words, separated by one space (variables are expanded)',
  async run(ctx) {
    await ctx.out(ctx.args.map((w) => w.text).join(' ') + '\n');
  },
};

const exec: Command = {
  name: 'exec',
  syntax: 'exec [<repeat>] <file> [<argument>]...',
  summary: 'run a script (repeatedly), its arguments as $(1), $(2), …',
  details:
    'A relative file name is found in dir.scripts. The script has its own on-error (starting as the caller\'s) and dir.executing-script; when it stops on a failure, the exec fails, and the caller\'s on-error decides what follows.',
  async run(ctx) {
    const shell = ctx.shell;
    let i = 0;
    let repeat = 1;
    if (ctx.args[0] && /^\d+$/.test(ctx.args[0].text) && ctx.args[1]) {
      repeat = Number(ctx.args[0].text);
      i = 1;
    }
    const file = arg(ctx, i, 'the script file');
    if (!shell.files) throw new CommandError(`exec reads a script file, and ${shell.remote ? 'a remote shell' : 'this shell'} has no file access (send the script's text instead)`, file);
    const path = shell.resolvePath(file.text, 'dir.scripts', file);
    ctx.blame = file;
    let text: string;
    try {
      text = await shell.files.readText(path);
    } catch (e) {
      throw new CommandError(`cannot read the script '${path}': ${(e as Error).message}`, file);
    }
    const directory = path.replace(/[\\/][^\\/]*$/, '') || '/';
    const args = ctx.args.slice(i + 1).map((w) => w.text);
    for (let r = 0; r < repeat; r++) await shell.runNested(text, path, directory, args);
  },
};

const explain: Command = {
  name: 'explain',
  syntax: 'explain [shortest | to-explicit | exhaustive] [<max-depth> [<max-rule-instances>]] <fact>',
  summary: 'explain how a fact of the active data store was derived, as an indented proof tree',
  details:
    'The fact is a Datalog atom — [ex:a, ex:p, ex:b] for a triple, ex:Person[ex:ann] for a class membership, [ex:a, ex:p, ex:b] ex:g in a named graph, T(ex:a, ex:b) in a tuple table — or three terms as in Turtle: ex:a ex:p ex:b (a stands for rdf:type, a fourth term names the graph, a final . is allowed). The store\'s prefixes apply. shortest (the default) prints one shortest proof, to-explicit every proof down to explicit facts, exhaustive every proof; <max-depth> and <max-rule-instances> bound the tree.',
  keywords: ['shortest', 'to-explicit', 'exhaustive'],
  async run(ctx) {
    const ds = ctx.shell.store();
    const args = ctx.args;
    let i = 0;
    let type: ExplanationType | undefined;
    if (args[i] && !args[i]!.quoted && (EXPLANATION_TYPES as readonly string[]).includes(args[i]!.text)) type = args[i++]!.text as ExplanationType;
    const limits: number[] = [];
    while (limits.length < 2 && args[i] && /^\d+$/.test(args[i]!.text) && i < args.length - 1) limits.push(Number(args[i++]!.text));
    const first = args[i];
    if (!first) throw new CommandError('explain needs the fact to explain, in Datalog (for example: explain :Person[:ann])');
    const fact = factAtom(i === args.length - 1 && first.quoted ? first.text : (i === 0 ? ctx.command.text.slice(first.start) : ctx.rest(args[i - 1]!)).trim());
    ctx.blame = first;
    const explanation = await ds.explain(fact, {
      ...(type !== undefined ? { type } : {}),
      ...(limits[0] !== undefined ? { maxDistanceFromRoot: limits[0] } : {}),
      ...(limits[1] !== undefined ? { maxRuleInstancesPerFact: limits[1] } : {}),
    });
    await ctx.out(renderExplanation(explanation));
  },
};

/**
 * Counts the rules of a Datalog export as its text goes by: one rule a line, after the
 * `@prefix` lines.
 */
class RuleCounter {
  private partial = '';
  /** The rules counted. */
  rules = 0;

  /** Counts the whole lines of a chunk. */
  add(chunk: string): void {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.count(line);
  }

  /** Counts the last line (the text has ended). */
  end(): number {
    this.count(this.partial);
    this.partial = '';
    return this.rules;
  }

  private count(line: string): void {
    const text = line.trim();
    if (text !== '' && !/^(@prefix|@base|prefix|base)\b/i.test(text) && !text.startsWith('#')) this.rules++;
  }
}

const exportCommand: Command = {
  name: 'export',
  syntax: 'export [<file> | -] [<format> [<parameter> <value>]...]',
  summary: 'export the facts (or, as application/x.datalog, the rules) of the active data store',
  details:
    'Without a file, or with `-`, the export is printed. The format is a media type (default text/turtle: also application/n-triples, application/n-quads, application/trig, application/ld+json, application/rdf+xml, application/x.datalog); parameters: fact-domain explicit|derived|all, rule-domain user|axioms|internal|all. A relative file name is written in dir.output. ' +
    'An export to a file ends with a summary line: what was written (facts, or rules), the format, the file, its size and the time taken; so does `export -` when `output` sends the export elsewhere than the screen.',
  async run(ctx) {
    const shell = ctx.shell;
    const target = ctx.args[0];
    const format = ctx.args[1]?.text ?? 'text/turtle';
    const parameters = pairs(ctx, 2) as ExportParameters;
    const ds = shell.store();
    const start = performance.now();
    const rules = format.trim().toLowerCase() === 'application/x.datalog' ? new RuleCounter() : undefined;
    let bytes = 0;
    let facts = 0;
    const progress = shell.progress('export.monitor', 'export');
    let ended = false;
    // the progress display ends once, before the summary is printed
    const end = async (): Promise<void> => {
      if (ended) return;
      ended = true;
      await progress.done();
    };
    // the facts written come with the last progress report, wanted whatever export.monitor says
    const onProgress = (report: ProgressReport): void => {
      facts = report.facts;
      progress.onProgress?.(report);
    };
    const summary = (where: string): string => {
      const what = rules ? plural(rules.end(), 'rule') : plural(facts, 'fact');
      return `exported ${what} as ${format}, ${bytesText(bytes)}, ${where} in ${elapsed(start)}\n`;
    };
    const counted = (chunk: string): string => {
      bytes += Buffer.byteLength(chunk);
      rules?.add(chunk);
      return chunk;
    };
    try {
      if (!target || target.text === '-') {
        await ds.exportData((chunk) => ctx.out(counted(chunk)), format, parameters, { onProgress });
        await end();
        // printed on the screen, the export is its own summary; sent elsewhere, it is said where
        const output = shell.variable('output') ?? 'out';
        if (output !== 'out') await ctx.note(summary(`to output ${output}`));
        return;
      }
      if (!shell.files) throw new CommandError(`exporting to a file is not available in ${shell.remote ? 'a remote shell' : 'this shell'} (export to the output with 'export -')`, target);
      const path = shell.resolvePath(target.text, 'dir.output', target);
      ctx.blame = target;
      const writer = await shell.files.createWriter(path);
      try {
        await ds.exportData((chunk) => writer.write(counted(chunk)), format, parameters, { onProgress });
      } finally {
        await writer.close();
      }
      await end();
      await ctx.note(summary(`to ${path}`));
    } finally {
      await end();
    }
  },
};

function privilegeCommand(name: 'grant' | 'revoke'): Command {
  const to = name === 'grant' ? 'to' : 'from';
  return {
    name,
    syntax: `${name} privileges <access-types> <resource-specifier> ${to} <role> | ${name} role <super-role> ${to} <role>`,
    summary: name === 'grant' ? 'grant privileges, or membership of a role, to a role' : 'revoke privileges, or membership of a role, from a role',
    details: 'Access types are read, write, grant and full, comma-separated; resource specifiers are like |datastores|family or >datastores|*.',
    keywords: ['privileges', 'role', to],
    async run(ctx) {
      const sc = ctx.shell.sc;
      const kind = arg(ctx, 0, 'privileges or role');
      if (keyword(kind, 'privileges')) {
        const access = arg(ctx, 1, 'the access types');
        const resource = arg(ctx, 2, 'the resource specifier');
        const word = arg(ctx, 3, `'${to}'`);
        if (!keyword(word, to)) throw new CommandError(`expected '${to}'`, word);
        const role = arg(ctx, 4, 'the role');
        noMore(ctx, 5);
        ctx.blame = role;
        const changed = name === 'grant' ? sc.grantPrivileges(role.text, resource.text, access.text) : sc.revokePrivileges(role.text, resource.text, access.text);
        await ctx.note(changed ? `${name === 'grant' ? 'granted' : 'revoked'} ${access.text} on ${resource.text} ${to} role '${role.text}'\n` : 'nothing changed\n');
        return;
      }
      if (keyword(kind, 'role')) {
        const superRole = arg(ctx, 1, 'the super role');
        const word = arg(ctx, 2, `'${to}'`);
        if (!keyword(word, to)) throw new CommandError(`expected '${to}'`, word);
        const role = arg(ctx, 3, 'the role');
        noMore(ctx, 4);
        ctx.blame = role;
        const changed = name === 'grant' ? sc.grantRole(role.text, superRole.text) : sc.revokeRole(role.text, superRole.text);
        await ctx.note(changed ? `role '${role.text}' is ${name === 'grant' ? 'now' : 'no longer'} a member of '${superRole.text}'\n` : 'nothing changed\n');
        return;
      }
      throw new CommandError(`expected privileges or role, not '${kind.text}'`, kind);
    },
  };
}

const help: Command = {
  name: 'help',
  syntax: 'help [<command>]...',
  summary: 'list the commands, or describe some',
  completes: 'commands',
  async run(ctx) {
    if (ctx.args.length === 0) {
      const width = Math.max(...COMMANDS.map((c) => c.name.length));
      const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
      await ctx.out(
        [
          'commands:',
          ...lines,
          `  ${'SELECT …'.padEnd(width)}  SPARQL queries and updates are typed as they are (SELECT, ASK, CONSTRUCT, DESCRIBE, INSERT, DELETE, PREFIX, …)`,
          '',
          'A line ending in \\ continues on the next. $(name) is the value of a variable (set lists them); # starts a comment.',
          "help <command> describes a command; 'help set' lists the variables.",
          '',
        ].join('\n'),
      );
      return;
    }
    for (const w of ctx.args) {
      const c = findCommand(w.text);
      if (!c) {
        if (SPARQL_KEYWORDS.has(w.text.toUpperCase())) {
          await ctx.out(`${w.text.toUpperCase()} …\n  SPARQL typed directly runs on the active data store: queries print their answers (query.answer-format), updates change the store.\n\n`);
          continue;
        }
        throw new CommandError(`unknown command '${w.text}'`, w);
      }
      const lines = [`${c.syntax}`, `  ${c.summary}`];
      if (c.details) lines.push(`  ${c.details}`);
      if (c.aliases) lines.push(`  also: ${c.aliases.join(', ')}`);
      if (c.name === 'set') for (const v of SHELL_VARIABLES) lines.push(`  ${v.name}: ${v.description}${v.readOnly ? ' (read-only)' : ` (initially '${v.initial}')`}`);
      await ctx.out(lines.join('\n') + '\n\n');
    }
  },
};

const importCommand: Command = {
  name: 'import',
  syntax: 'import [> <graph>] [+ | +p | -] {! <content> | <file or <IRI>>...}',
  summary: 'add (+, the default), add with the prefixes they define (+p) or delete (-) facts and rules from files, IRIs or text',
  details:
    'Files are read by the server under its read policy (sandbox-directory, allowed-url-schemes-on-import), as file: IRIs; relative names are found in dir.facts, then dir.dlog. Any format (Turtle, N-Triples, N-Quads, TriG, Datalog), gzip\'d or not; import.format forces one. `> <graph>` sends triples to a named graph; `!` takes the rest of the command as the content. All sources are imported in one transaction: a failure changes nothing.',
  keywords: ['+', '+p', '-', '!', '>'],
  async run(ctx) {
    const shell = ctx.shell;
    let i = 0;
    let defaultGraph: string | undefined;
    if (keyword(ctx.args[0], '>')) {
      const g = arg(ctx, 1, 'the graph after >');
      defaultGraph = await graphName(ctx, g);
      i = 2;
    }
    let type: UpdateType = 'ADD';
    const op = ctx.args[i];
    if (op && !op.quoted && !op.iri && ['+', '+p', '-'].includes(op.text)) {
      type = op.text === '-' ? 'DELETE' : op.text === '+p' ? 'ADDITION_UPDATE_PREFIXES' : 'ADD';
      i++;
    }
    const first = ctx.args[i];
    if (!first) throw new CommandError(`give what to import: files, <IRI>s, or ! followed by content (syntax: ${this.syntax})`);
    let source: ImportSource;
    let label: string;
    if (keyword(first, '!')) {
      source = ctx.rest(first);
      ctx.blame = first;
      label = 'import';
    } else {
      const iris: string[] = [];
      for (const w of ctx.args.slice(i)) {
        let iri = importIri(shell, w);
        // a relative name not found among the facts may be a rule file of dir.dlog
        if (!w.iri && !/^(https?|file):/i.test(w.text) && shell.variable('dir.dlog') !== '' && shell.files) {
          const dlog = fileIri(shell.resolvePath(w.text, 'dir.dlog', w));
          if (dlog !== iri && !(await exists(shell, iri)) && (await exists(shell, dlog))) iri = dlog;
        }
        iris.push(iri);
      }
      source = { iris };
      const words = ctx.args.slice(i);
      label = words.length === 1 ? `import ${words[0]!.text}` : `import of ${words.length} sources`;
      if (words.length === 1) ctx.blame = words[0];
    }
    const ds = shell.store();
    const format = shell.variable('import.format') ?? '';
    const start = performance.now();
    const progress = shell.progress('import.monitor', label);
    let result: ImportResult;
    try {
      result = await ds.importData(type, source, {
        ...(format !== '' ? { mediaType: format } : {}),
        ...(defaultGraph !== undefined ? { defaultGraph } : {}),
        onProgress: progress.onProgress,
      });
    } catch (e) {
      await progress.done();
      if (e instanceof ImportError) {
        const errors = e.result.rows.filter((r) => r.type === 'error');
        // the first error is in the failure's message; the others are listed before it
        const more = errors.slice(1, 21).map((r) => rowText(r) + '\n');
        if (errors.length > 21) more.push(`… and ${count(errors.length - 21)} more errors\n`);
        await ctx.note(more.join(''));
      }
      throw e;
    }
    await progress.done();
    const notes = result.rows.filter((r) => r.type === 'warning').slice(0, 20).map((r) => rowText(r) + '\n');
    await ctx.note(notes.join('') + importSummary(result, type === 'DELETE', start));
  },
};

async function exists(shell: Shell, iri: string): Promise<boolean> {
  if (!shell.files?.exists || !iri.startsWith('file://')) return false;
  return shell.files.exists(decodeURIComponent(iri.slice('file://'.length)));
}

const importaxioms: Command = {
  name: 'importaxioms',
  syntax: 'importaxioms [<source-graph>] [> <target-graph>] [+ | -] [assertions]',
  summary: 'read OWL axioms from the triples of a graph and add (or delete) them as rules',
  details: 'Graphs are <IRI>s, prefixed names or UNDEF (the default graph, also when omitted). With `assertions`, ABox assertions become facts too.',
  keywords: ['>', '+', '-', 'assertions'],
  async run(ctx) {
    let source: string | undefined;
    let target: string | undefined;
    let deleting = false;
    let assertions = false;
    let i = 0;
    const first = ctx.args[0];
    if (first && !keyword(first, '>', '+', '-', 'assertions')) {
      source = await graphName(ctx, first);
      i = 1;
    }
    if (keyword(ctx.args[i], '>')) {
      target = await graphName(ctx, arg(ctx, i + 1, 'the target graph after >'));
      i += 2;
    }
    if (keyword(ctx.args[i], '+', '-')) {
      deleting = ctx.args[i]!.text === '-';
      i++;
    }
    if (keyword(ctx.args[i], 'assertions')) {
      assertions = true;
      i++;
    }
    noMore(ctx, i);
    const start = performance.now();
    const result = await ctx.shell.store().importAxiomsFromTriples(source, assertions, target, deleting ? 'DELETE' : 'ADD');
    const notes = result.rows.filter((r) => r.type === 'warning').slice(0, 20).map((r) => rowText(r) + '\n');
    await ctx.note(notes.join('') + importSummary(result, deleting, start));
  },
};

const info: Command = {
  name: 'info',
  syntax: 'info [extended]',
  summary: 'describe the active data store: fact counts and properties (extended: its components)',
  keywords: ['extended'],
  async run(ctx) {
    const extended = ctx.args[0];
    if (extended && !keyword(extended, 'extended')) throw new CommandError(`unexpected argument (syntax: ${this.syntax})`, extended);
    noMore(ctx, 1);
    const ds = ctx.shell.store();
    const rows: string[][] = [
      ['name', ds.dataStoreName],
      ['type', ds.type],
      ['unique-id', ds.uniqueId],
      ['transaction', ds.transactionType ?? 'none'],
      ['explicit-facts', count(await ds.countFacts({ factDomain: 'explicit' }))],
      ['derived-facts', count(await ds.countFacts({ factDomain: 'derived' }))],
      ['all-facts', count(await ds.countFacts({ factDomain: 'all' }))],
    ];
    for (const r of await ds.getDataStoreProperties()) if (!rows.some((row) => row[0] === r.property)) rows.push([r.property, r.value]);
    await ctx.out(listing(['Property', 'Value'], rows));
    if (extended) {
      const components = await ds.getComponentInfo(true);
      await ctx.out('\n' + listing(['Component', 'Property', 'Value'], components.map((c) => [String(c.componentId), c.property, String(c.value)])));
    }
  },
};

const serverinfo: Command = {
  name: 'serverinfo',
  syntax: 'serverinfo [extended]',
  summary: 'describe the server: its properties and data stores (extended: its components)',
  keywords: ['extended'],
  async run(ctx) {
    const extended = ctx.args[0];
    if (extended && !keyword(extended, 'extended')) throw new CommandError(`unexpected argument (syntax: ${this.syntax})`, extended);
    noMore(ctx, 1);
    const sc = ctx.shell.sc;
    const rows = sc.getServerProperties().map((r) => [r.property, r.value]);
    rows.push(['data-stores', sc.listDataStores().join(', ')], ['role', sc.roleName]);
    await ctx.out(listing(['Property', 'Value'], rows));
    if (extended) await ctx.out('\n' + listing(['Component', 'Property', 'Value'], sc.getComponentInfo(true).map((c) => [String(c.componentId), c.property, String(c.value)])));
  },
};

const mat: Command = {
  name: 'mat',
  syntax: 'mat',
  summary: 'bring the materialisation up to date (inside a read-write transaction; outside one it always is)',
  async run(ctx) {
    noMore(ctx, 0);
    const ds = ctx.shell.store();
    const start = performance.now();
    const progress = ctx.shell.progress('reason.monitor', 'reasoning');
    try {
      if (ds.transactionType === 'read-write') await ds.updateMaterialization({ onProgress: progress.onProgress });
      else if (ds.transactionType === 'read-only') throw new CommandError('mat needs a read-write transaction (this one is read-only)');
      else {
        await ds.beginTransaction('read-write');
        try {
          await ds.updateMaterialization({ onProgress: progress.onProgress });
          await ds.commitTransaction();
        } catch (e) {
          if (ds.transactionType !== undefined) await ds.rollbackTransaction();
          throw e;
        }
      }
    } finally {
      await progress.done();
    }
    await ctx.note(`materialisation up to date (${plural(await ds.countFacts({ factDomain: 'derived' }), 'derived fact')}) in ${elapsed(start)}\n`);
  },
};

const remat: Command = {
  name: 'remat',
  aliases: ['recompute'],
  syntax: 'remat',
  summary: 'recompute the materialisation from scratch',
  async run(ctx) {
    noMore(ctx, 0);
    const ds = ctx.shell.store();
    const start = performance.now();
    const progress = ctx.shell.progress('reason.monitor', 'reasoning');
    try {
      await ds.recomputeMaterialization({ onProgress: progress.onProgress });
    } finally {
      await progress.done();
    }
    await ctx.note(`materialisation recomputed (${plural(await ds.countFacts({ factDomain: 'derived' }), 'derived fact')}) in ${elapsed(start)}\n`);
  },
};

const prefix: Command = {
  name: 'prefix',
  syntax: 'prefix [<name:> [<IRI>]]',
  summary: 'list the prefixes of the active data store, set one, or (without an IRI) remove one',
  async run(ctx) {
    const name = ctx.args[0];
    const iri = ctx.args[1];
    noMore(ctx, 2);
    const ds = ctx.shell.store();
    if (!name) {
      const prefixes = await ds.getPrefixes();
      await ctx.out(prefixes.size > 0 ? [...prefixes].map(([n, i]) => `${n} <${i}>\n`).join('') : 'no prefixes\n');
      return;
    }
    if (!name.text.endsWith(':')) throw new CommandError(`a prefix name ends with ':' (as in ex:)`, name);
    ctx.blame = name;
    if (!iri) {
      const removed = await ds.unsetPrefix(name.text);
      await ctx.note(removed ? `prefix ${name.text} removed\n` : `prefix ${name.text} was not set\n`);
      return;
    }
    ctx.blame = iri;
    await ds.setPrefix(name.text, iri.text);
    await ctx.note(`prefix ${name.text} <${iri.text}>\n`);
  },
};

const quit: Command = {
  name: 'quit',
  aliases: ['exit'],
  syntax: 'quit',
  summary: 'end the shell (open transactions are rolled back)',
  run(ctx) {
    noMore(ctx, 0);
    return Promise.resolve().then(() => ctx.shell.quit());
  },
};

const role: Command = {
  name: 'role',
  syntax: 'role [list | show <name> | create <name> [password <password> | hash <hash> | no-password] | delete <name> [force] | member <name> <super-role>]',
  summary: 'show the shell\'s role, or list, describe, create and delete roles',
  details:
    '`create` asks for the password when none is given (and refuses where it cannot ask); a password typed in a command stays in scripts and history, so prefer the prompt or a hash. `member` tells whether a role is a member of another, directly or through others. `delete` asks for confirmation unless `force` is given.',
  keywords: ['list', 'show', 'create', 'delete', 'member', 'password', 'hash', 'no-password', 'force'],
  async run(ctx) {
    const sc = ctx.shell.sc;
    const sub = ctx.args[0];
    if (!sub) {
      await ctx.out(`${sc.roleName}\n`);
      return;
    }
    switch (sub.text.toLowerCase()) {
      case 'list':
        noMore(ctx, 1);
        await ctx.out(sc.listRoles().map((r) => `${r}\n`).join(''));
        return;
      case 'show': {
        const name = arg(ctx, 1, 'the role');
        noMore(ctx, 2);
        ctx.blame = name;
        const description = sc.describeRole(name.text);
        const rows = [['name', description.name], ['password-hash', description.passwordHash ?? '(none: the role cannot log in)']];
        for (const p of sc.listPrivileges(name.text)) rows.push(['privilege', `${p.accessTypes.join(',')} ${p.resourceSpecifier}`]);
        for (const m of sc.listRoleMemberships(name.text)) rows.push(['member-of', m]);
        for (const m of sc.listRoleMembers(name.text)) rows.push(['member', m]);
        await ctx.out(listing(['Property', 'Value'], rows));
        return;
      }
      case 'create': {
        const name = arg(ctx, 1, 'the role');
        const how = ctx.args[2];
        let password: string | undefined;
        let type: 'password' | 'password-hash' | 'none' = 'password';
        if (!how) {
          const io = ctx.shell.io;
          if (!io.askPassword) throw new CommandError("'role create' asks for the password, and this shell cannot ask: give 'password <password>', 'hash <hash>' or 'no-password'", name);
          password = await io.askPassword(`password for role '${name.text}': `);
          const again = await io.askPassword('again: ');
          if (password !== again) throw new CommandError('the passwords differ: the role was not created', name);
          noMore(ctx, 2);
        } else if (keyword(how, 'no-password')) {
          type = 'none';
          noMore(ctx, 3);
        } else if (keyword(how, 'password', 'hash')) {
          password = arg(ctx, 3, how.text === 'hash' ? 'the password hash' : 'the password').text;
          if (how.text.toLowerCase() === 'hash') type = 'password-hash';
          noMore(ctx, 4);
        } else throw new CommandError(`expected password, hash or no-password, not '${how.text}'`, how);
        ctx.blame = name;
        await sc.createRole(name.text, password, type);
        await ctx.note(`role '${name.text}' created\n`);
        return;
      }
      case 'delete': {
        const name = arg(ctx, 1, 'the role');
        const force = ctx.args[2];
        if (force && !keyword(force, 'force')) throw new CommandError(`unexpected argument (syntax: ${this.syntax})`, force);
        noMore(ctx, 3);
        if (!(await confirm(ctx, `delete role '${name.text}'?`, force !== undefined))) return;
        ctx.blame = name;
        sc.deleteRole(name.text);
        await ctx.note(`role '${name.text}' deleted\n`);
        return;
      }
      case 'member': {
        const name = arg(ctx, 1, 'the role');
        const superRole = arg(ctx, 2, 'the super role');
        noMore(ctx, 3);
        ctx.blame = name;
        const seen = new Set<string>();
        const queue = [name.text];
        let member = false;
        while (queue.length > 0 && !member) {
          const r = queue.shift()!;
          for (const m of sc.listRoleMemberships(r)) {
            if (m === superRole.text) member = true;
            if (!seen.has(m)) {
              seen.add(m);
              queue.push(m);
            }
          }
        }
        await ctx.out(`${member ? 'yes' : 'no'}: role '${name.text}' is ${member ? '' : 'not '}a member of '${superRole.text}'\n`);
        return;
      }
      default:
        throw new CommandError(`unknown subcommand '${sub.text}' (list, show, create, delete or member)`, sub);
    }
  },
};

const root: Command = {
  name: 'root',
  syntax: 'root <directory>',
  summary: 'set dir.root, the directory relative file names are resolved against',
  async run(ctx) {
    const dir = arg(ctx, 0, 'the directory');
    noMore(ctx, 1);
    const path = ctx.shell.resolvePath(dir.text, 'dir.root', dir);
    await ctx.shell.setVariable('dir.root', path, dir);
    await ctx.note(`dir.root is ${path}\n`);
  },
};

const set: Command = {
  name: 'set',
  syntax: 'set [<variable> [<value>]]',
  summary: 'list the variables, show one, or set one (help set describes them)',
  completes: 'variables',
  async run(ctx) {
    const shell = ctx.shell;
    const name = ctx.args[0];
    if (!name) {
      const names = shell.variableNames();
      await ctx.out(listing(['Variable', 'Value'], [...names.map((n) => [n, shell.variable(n) ?? '']), ['role', shell.roleName], ['active', shell.activeDataStore ?? '']]));
      return;
    }
    if (ctx.args.length === 1) {
      const value = shell.variable(name.text);
      if (value === undefined) throw new CommandError(`variable '${name.text}' is not set`, name);
      await ctx.out(`${name.text} = ${value}\n`);
      return;
    }
    const value = ctx.args.slice(1).map((w) => w.text).join(' ');
    await shell.setVariable(name.text, value, ctx.args[1]);
  },
};

const unset: Command = {
  name: 'unset',
  syntax: 'unset <variable>',
  summary: 'unset a variable (the shell\'s own go back to their initial values)',
  completes: 'variables',
  async run(ctx) {
    const name = arg(ctx, 0, 'the variable');
    noMore(ctx, 1);
    ctx.shell.unsetVariable(name.text, name);
    return Promise.resolve();
  },
};

const sleep: Command = {
  name: 'sleep',
  syntax: 'sleep <milliseconds>',
  summary: 'wait (an interrupt ends the wait)',
  async run(ctx) {
    const ms = arg(ctx, 0, 'the number of milliseconds');
    noMore(ctx, 1);
    if (!/^\d+$/.test(ms.text)) throw new CommandError('expected a number of milliseconds', ms);
    let wake: () => void = () => undefined;
    const waited = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Number(ms.text));
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    await ctx.shell.onInterrupt(wake, () => waited);
    ctx.shell.checkInterrupted();
  },
};

/** Every command, in alphabetical order. */
export const COMMANDS: readonly Command[] = [
  active,
  answer,
  begin,
  clear,
  cls,
  commit,
  commitproc,
  compact,
  deltaquery,
  deltaqueryanswer,
  dsconn,
  dsprop,
  dstore,
  echo,
  endpoint,
  evaluate,
  exec,
  explain,
  exportCommand,
  privilegeCommand('grant'),
  help,
  importCommand,
  importaxioms,
  info,
  mat,
  prefix,
  quit,
  recompile,
  remat,
  privilegeCommand('revoke'),
  role,
  rollback,
  root,
  serverinfo,
  set,
  sleep,
  srvconn,
  threads,
  unset,
  update,
  validateCommand,
  ...ADMIN_COMMANDS,
].sort((a, b) => a.name.localeCompare(b.name));

/** The command with a name or alias (any case), or undefined. */
export function findCommand(name: string): Command | undefined {
  const n = name.toLowerCase();
  return COMMANDS.find((c) => c.name === n || c.aliases?.includes(n));
}
