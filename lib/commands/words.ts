/**
 * The text of the command language: scripts split into commands (a line ending in `\`
 * continues on the next), commands split into words (quotes, `<IRI>`s, `#` comments), and
 * `$(name)` variables expanded, with the position of everything kept for error messages.
 * @module
 */

/** One command of a script: its text (continuation lines joined by newlines) and where it starts. */
export interface CommandText {
  /** The command's text, without the continuation backslashes. */
  readonly text: string;
  /** The line (1-based) of the script the command starts on. */
  readonly line: number;
  /** Where each line of the command starts in `text` (the first is 0). */
  readonly lineStarts: readonly number[];
}

/** A line and column (1-based) in a script. */
export interface Position {
  /** The line. */
  readonly line: number;
  /** The column. */
  readonly column: number;
}

/** The line and column of an offset into a command's text. */
export function positionOf(command: CommandText, offset: number): Position {
  let i = 0;
  while (i + 1 < command.lineStarts.length && command.lineStarts[i + 1]! <= offset) i++;
  return { line: command.line + i, column: offset - command.lineStarts[i]! + 1 };
}

/**
 * Assembles commands from lines: a line whose last character (trailing blanks aside) is a
 * backslash continues on the next line. Blank lines and lines holding only a `#` comment
 * (outside a continuation) make no command.
 */
export class LineAssembler {
  private parts: string[] = [];
  private starts: number[] = [];
  private length = 0;
  private firstLine = 0;
  private lineNumber: number;

  /** Creates an assembler whose first line is numbered `firstLine` (default 1). */
  constructor(firstLine = 1) {
    this.lineNumber = firstLine - 1;
  }

  /** Whether a command is waiting for its continuation lines. */
  get pending(): boolean {
    return this.parts.length > 0;
  }

  /** Adds a line (without its line break); returns a command when the line completes one. */
  push(line: string): CommandText | undefined {
    this.lineNumber++;
    const trimmed = line.replace(/[ \t\r]+$/, '');
    const continued = trimmed.endsWith('\\') && !trimmed.endsWith('\\\\');
    const body = continued ? trimmed.slice(0, -1) : trimmed;
    if (this.parts.length === 0) {
      if (!continued && (body.trim() === '' || body.trimStart().startsWith('#'))) return undefined;
      this.firstLine = this.lineNumber;
    }
    this.starts.push(this.length);
    this.parts.push(body);
    this.length += body.length + 1;
    return continued ? undefined : this.take();
  }

  /** The command waiting for continuation lines, if any (at the end of the input). */
  flush(): CommandText | undefined {
    return this.parts.length > 0 ? this.take() : undefined;
  }

  private take(): CommandText | undefined {
    const command = { text: this.parts.join('\n'), line: this.firstLine, lineStarts: this.starts };
    this.parts = [];
    this.starts = [];
    this.length = 0;
    return command.text.trim() === '' ? undefined : command;
  }
}

/** The commands of a script. */
export function splitScript(script: string, firstLine = 1): CommandText[] {
  const assembler = new LineAssembler(firstLine);
  const commands: CommandText[] = [];
  for (const line of script.split('\n')) {
    const command = assembler.push(line);
    if (command) commands.push(command);
  }
  const last = assembler.flush();
  if (last) commands.push(last);
  return commands;
}

/** A word of a command. */
export interface Word {
  /** The word's value: quotes and brackets removed, escapes and variables resolved. */
  readonly text: string;
  /** The word as written. */
  readonly raw: string;
  /** Where the word starts in the command's text. */
  readonly start: number;
  /** Where it ends (exclusive). */
  readonly end: number;
  /** Whether it was quoted (`"…"` or `'…'`). */
  readonly quoted: boolean;
  /** Whether it was an IRI in angle brackets (`<…>`); `text` is then the IRI without them. */
  readonly iri: boolean;
}

/** A mistake in a command's text, at an offset. */
export class CommandSyntaxError extends Error {
  /** Creates the error for an offset into the command's text. */
  constructor(
    message: string,
    /** The offset. */
    readonly offset: number,
  ) {
    super(message);
    this.name = 'CommandSyntaxError';
  }
}

/** Resolves a variable's value; undefined when it is not set. */
export type VariableLookup = (name: string) => string | undefined;

const VARIABLE = /\$\(([^()\s]*)\)/g;

/**
 * Replaces every `$(name)` in `text` by the variable's value.
 * @throws CommandSyntaxError at the variable (offset `base` + its index) when it is not set.
 */
export function expandVariables(text: string, lookup: VariableLookup, base = 0): string {
  if (!text.includes('$(')) return text;
  return text.replace(VARIABLE, (whole, name: string, index: number) => {
    const value = lookup(name);
    if (value === undefined) throw new CommandSyntaxError(`variable '${name}' is not set (used as ${whole})`, base + index);
    return value;
  });
}

/**
 * Splits a command (from `from`, default its start) into words. Words are separated by
 * blanks; `"…"` (with `\"` and `\\` escapes) and `'…'` quote, `<…>` is an IRI, and `#` at the
 * start of a word begins a comment that runs to the end of the line. Variables are expanded
 * everywhere except inside single quotes.
 * @throws CommandSyntaxError for an unterminated quote or IRI, or a variable that is not set.
 */
export function splitWords(text: string, lookup: VariableLookup, from = 0): Word[] {
  const words: Word[] = [];
  let i = from;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    const start = i;
    if (c === '"') {
      let value = '';
      i++;
      while (i < n && text[i] !== '"') {
        if (text[i] === '\\' && i + 1 < n && (text[i + 1] === '"' || text[i + 1] === '\\')) i++;
        value += text[i];
        i++;
      }
      if (i >= n) throw new CommandSyntaxError('unterminated "…" quote', start);
      i++;
      words.push({ text: expandVariables(value, lookup, start + 1), raw: text.slice(start, i), start, end: i, quoted: true, iri: false });
      continue;
    }
    if (c === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0) throw new CommandSyntaxError("unterminated '…' quote", start);
      i = close + 1;
      words.push({ text: text.slice(start + 1, close), raw: text.slice(start, i), start, end: i, quoted: true, iri: false });
      continue;
    }
    if (c === '<' && i + 1 < n && !/[\s=]/.test(text[i + 1]!)) {
      const close = text.indexOf('>', i + 1);
      if (close < 0) throw new CommandSyntaxError('unterminated <…> IRI', start);
      i = close + 1;
      words.push({ text: expandVariables(text.slice(start + 1, close), lookup, start + 1), raw: text.slice(start, i), start, end: i, quoted: false, iri: true });
      continue;
    }
    while (i < n && !/[\s]/.test(text[i]!)) i++;
    const raw = text.slice(start, i);
    words.push({ text: expandVariables(raw, lookup, start), raw, start, end: i, quoted: false, iri: false });
  }
  return words;
}

/** The first word of a command (its name) and where the rest starts, without expanding anything. */
export function commandName(text: string): { readonly name: string; readonly start: number; readonly end: number } {
  const m = /^\s*(\S*)/.exec(text)!;
  const start = m[0].length - m[1]!.length;
  return { name: m[1]!, start, end: m[0].length };
}
