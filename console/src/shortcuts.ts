/**
 * Every keyboard shortcut of the console, for the help panel to list and for the code that
 * binds them to name. `Mod` keys are Ctrl on Linux and Windows and Cmd on macOS.
 * @module
 */

/** A keyboard shortcut: the keys to press, what they do, and where they work. */
export interface Shortcut {
  /** The keys, as a user reads them (`Ctrl-Enter (Cmd-Enter on macOS)`). */
  readonly keys: string;
  /** What the keys do. */
  readonly action: string;
  /** Where they work (`query editor`, `prefix fields` …). */
  readonly where: string;
}

/** The editor's key bindings of the query tools, in CodeMirror's notation (`Mod` is Ctrl or Cmd). */
export const QUERY_KEYS = {
  run: 'Mod-Enter',
  plan: 'Mod-Shift-Enter',
  download: 'Mod-Shift-s',
  stop: 'Escape',
  error: 'F8',
} as const;

/** Every keyboard shortcut of the console. */
export const SHORTCUTS: readonly Shortcut[] = [
  { keys: 'Ctrl-Enter (Cmd-Enter on macOS)', action: 'Run the query or update', where: 'query editor' },
  { keys: 'Ctrl-Shift-Enter (Cmd-Shift-Enter)', action: 'Show the query plan', where: 'query editor' },
  { keys: 'Ctrl-Shift-S (Cmd-Shift-S)', action: 'Download the answer in the chosen format', where: 'query editor' },
  { keys: 'Escape', action: 'Stop the running query (when no completion list is open)', where: 'query editor' },
  { keys: 'F8', action: 'Go to the syntax error of the last run', where: 'query editor' },
  { keys: 'Ctrl-Space', action: 'Complete a prefix name or keyword', where: 'query editor' },
  { keys: 'Ctrl-Z / Ctrl-Shift-Z (Cmd-Z / Cmd-Shift-Z)', action: 'Undo / redo', where: 'query editor' },
  { keys: 'Tab / Shift-Tab', action: 'Indent / unindent the selected lines', where: 'query editor' },
  { keys: 'Enter', action: 'Save the edited prefix', where: 'prefix fields' },
  { keys: 'Enter', action: 'Browse the focused IRI', where: 'Browse tab' },
  { keys: '?', action: 'Open the list of keyboard shortcuts', where: 'anywhere but a text field or the editor' },
  { keys: 'Escape', action: 'Close the list of keyboard shortcuts', where: 'help panel' },
];
