/**
 * The SPARQL editor: CodeMirror 6 with the SPARQL mode of @codemirror/legacy-modes
 * (highlighting), bracket matching, undo history, and completion of the store's prefix names
 * and of SPARQL keywords; the query tools' keys (shortcuts.ts: Ctrl-Enter runs, Ctrl-Shift-Enter
 * shows the plan, Ctrl-Shift-S downloads, Escape stops, F8 goes to the error).
 *
 * A syntax error the endpoint reports at a line and column is marked where it is: the rest of
 * the line from there is underlined, the line number gets a marker in a gutter of its own
 * (with the message as its tooltip), and the caret moves there. The mark goes at the next edit.
 * @module
 */
import { autocompletion, closeBrackets, closeBracketsKeymap, type Completion, type CompletionContext, type CompletionResult, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, defaultHighlightStyle, indentOnInput, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { sparql } from '@codemirror/legacy-modes/mode/sparql';
import { EditorSelection, EditorState, Prec, RangeSet, StateEffect, StateField } from '@codemirror/state';
import { Decoration, type DecorationSet, drawSelection, EditorView, gutter, GutterMarker, highlightActiveLine, keymap, lineNumbers, placeholder } from '@codemirror/view';
import type { TextPosition } from './error-position.js';
import { QUERY_KEYS } from './shortcuts.js';
import type { Prefix } from './terms.js';

const KEYWORDS = [
  'SELECT', 'DISTINCT', 'REDUCED', 'WHERE', 'FILTER', 'OPTIONAL', 'UNION', 'MINUS', 'GRAPH', 'SERVICE', 'BIND', 'VALUES', 'ORDER BY', 'GROUP BY', 'HAVING',
  'LIMIT', 'OFFSET', 'ASK', 'CONSTRUCT', 'DESCRIBE', 'PREFIX', 'BASE', 'FROM', 'FROM NAMED', 'NOT EXISTS', 'EXISTS', 'COUNT', 'SUM', 'MIN', 'MAX', 'AVG',
  'SAMPLE', 'GROUP_CONCAT', 'INSERT DATA', 'DELETE DATA', 'INSERT', 'DELETE', 'WITH', 'USING', 'CLEAR', 'DROP', 'LOAD', 'CREATE', 'ASC', 'DESC',
];

/** The style nonce of the page's answer, carried by its stylesheet link ('' when absent). */
function styleNonce(): string {
  return document.querySelector<HTMLLinkElement>('link[rel=stylesheet][nonce]')?.nonce ?? '';
}

/** The error marked in the editor: where, and the message. */
interface MarkedError {
  /** Where the caret goes. */
  readonly at: number;
  /** The underlined range (empty in an empty text). */
  readonly from: number;
  readonly to: number;
  readonly line: number;
  readonly message: string;
}

const setError = StateEffect.define<MarkedError | null>();

/** The error marked, cleared by the next edit. */
const errorField = StateField.define<MarkedError | null>({
  create: () => null,
  update(value, tr) {
    for (const effect of tr.effects) if (effect.is(setError)) return effect.value;
    return tr.docChanged ? null : value;
  },
});

class ErrorMarker extends GutterMarker {
  constructor(private readonly message: string) {
    super();
  }

  override eq(other: GutterMarker): boolean {
    return other instanceof ErrorMarker && other.message === this.message;
  }

  override toDOM(): Node {
    const marker = document.createElement('span');
    marker.className = 'cm-error-marker';
    marker.setAttribute('data-role', 'error-marker');
    marker.title = this.message;
    marker.textContent = '●';
    return marker;
  }
}

const errorMark = Decoration.mark({ class: 'cm-error-underline', attributes: { 'data-role': 'error-mark' } });

/** The underline and the gutter marker of the marked error. */
const errorDecorations = [
  EditorView.decorations.compute([errorField], (state): DecorationSet => {
    const error = state.field(errorField);
    return error && error.to > error.from ? Decoration.set([errorMark.range(error.from, error.to)]) : Decoration.none;
  }),
  gutter({
    class: 'cm-error-gutter',
    markers: (view) => {
      const error = view.state.field(errorField);
      if (!error) return RangeSet.empty;
      const line = view.state.doc.line(error.line);
      return RangeSet.of([new ErrorMarker(error.message).range(line.from)]);
    },
    initialSpacer: () => new ErrorMarker(''),
  }),
];

/** What the editor's keys call (see shortcuts.ts). */
export interface EditorActions {
  /** Runs the text (Ctrl-Enter). */
  run(): void;
  /** Shows the plan (Ctrl-Shift-Enter). */
  plan?(): void;
  /** Downloads the answer (Ctrl-Shift-S). */
  download?(): void;
  /** Stops the running query (Escape); returns whether something was stopped. */
  stop?(): boolean;
  /** Called after each change of the text. */
  changed?(): void;
}

/** The editor of the query tab. */
export interface SparqlEditor {
  /** The CodeMirror view. */
  readonly view: EditorView;
  /** The text. */
  text(): string;
  /** Replaces the text. */
  setText(text: string): void;
  /** Focuses the editor. */
  focus(): void;
  /**
   * Marks an error at `position` (clamped to the text) with `message`, and moves the caret
   * there; the mark goes at the next edit.
   */
  markError(position: TextPosition, message: string): void;
  /** Removes the error mark. */
  clearError(): void;
  /** Moves the caret to the marked error; false when none is marked. */
  goToError(): boolean;
}

/**
 * Creates the editor in `parent`. `prefixes` gives the store's prefixes at the time of a
 * completion; `actions` are called by the keys of the query tools.
 */
export function createEditor(parent: HTMLElement, prefixes: () => readonly Prefix[], actions: EditorActions, initial = ''): SparqlEditor {
  const bound = (action: (() => void) | undefined) => (): boolean => {
    if (!action) return false;
    action();
    return true;
  };
  const complete = (context: CompletionContext): CompletionResult | null => {
    const word = context.matchBefore(/[A-Za-z_][\w.-]*:?|[A-Za-z_]?/);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    // after a prefix name's colon the local name is the user's
    if (/:./.test(word.text)) return null;
    const options: Completion[] = [
      ...prefixes().map((p): Completion => ({ label: p.name, type: 'namespace', detail: p.iri, boost: 1 })),
      ...KEYWORDS.map((k): Completion => ({ label: k, type: 'keyword' })),
    ];
    return { from: word.from, options, validFor: /^[\w.-]*:?$/ };
  };
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: initial,
      extensions: [
        Prec.highest(
          keymap.of([
            { key: QUERY_KEYS.run, run: bound(() => actions.run()) },
            { key: QUERY_KEYS.plan, run: bound(actions.plan && (() => actions.plan?.())) },
            { key: QUERY_KEYS.download, run: bound(actions.download && (() => actions.download?.())), preventDefault: true },
            { key: QUERY_KEYS.error, run: () => goToError() },
          ]),
        ),
        // Escape closes an open completion list first (the completion keymap is of higher precedence)
        Prec.low(keymap.of([{ key: QUERY_KEYS.stop, run: () => actions.stop?.() ?? false }])),
        errorField,
        errorDecorations,
        lineNumbers(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        closeBrackets(),
        highlightActiveLine(),
        StreamLanguage.define(sparql),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        autocompletion({ override: [complete], activateOnTyping: true }),
        placeholder('SELECT ?s ?p ?o WHERE { ?s ?p ?o }   — Ctrl-Enter runs'),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap, indentWithTab]),
        EditorView.lineWrapping,
        // the editor's stylesheet is a <style> element: the page's CSP admits it by this nonce
        EditorView.cspNonce.of(styleNonce()),
        EditorView.contentAttributes.of({ 'aria-label': 'SPARQL query', 'data-role': 'sparql-editor' }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) actions.changed?.();
        }),
      ],
    }),
  });
  function goToError(): boolean {
    const error = view.state.field(errorField);
    if (!error) return false;
    view.dispatch({ selection: EditorSelection.cursor(error.at), effects: EditorView.scrollIntoView(error.at, { y: 'center' }) });
    view.focus();
    return true;
  }
  return {
    view,
    text: () => view.state.doc.toString(),
    setText: (text: string) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    focus: () => view.focus(),
    markError(position: TextPosition, message: string): void {
      const doc = view.state.doc;
      const line = doc.line(Math.min(Math.max(position.line, 1), doc.lines));
      const at = Math.min(line.from + position.column - 1, line.to);
      // the rest of the line from the column; at the end of a line, its last character (or the
      // line break after it)
      let from = at;
      let to = line.to;
      if (to <= from) {
        if (from < doc.length) to = from + 1;
        else from = Math.max(0, from - 1);
      }
      view.dispatch({ effects: setError.of({ at, from, to, line: line.number, message }) });
      goToError();
    },
    clearError: () => view.dispatch({ effects: setError.of(null) }),
    goToError,
  };
}
