/**
 * The SPARQL editor: CodeMirror 6 with the SPARQL mode of @codemirror/legacy-modes
 * (highlighting), bracket matching, undo history, and completion of the store's prefix names
 * and of SPARQL keywords; Ctrl-Enter (Cmd-Enter) runs.
 * @module
 */
import { autocompletion, closeBrackets, closeBracketsKeymap, type Completion, type CompletionContext, type CompletionResult, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, defaultHighlightStyle, indentOnInput, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { sparql } from '@codemirror/legacy-modes/mode/sparql';
import { EditorState, Prec } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers, placeholder } from '@codemirror/view';
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
}

/**
 * Creates the editor in `parent`. `prefixes` gives the store's prefixes at the time of a
 * completion; `run` is called by Ctrl-Enter.
 */
export function createEditor(parent: HTMLElement, prefixes: () => readonly Prefix[], run: () => void, initial = ''): SparqlEditor {
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
            {
              key: 'Mod-Enter',
              run: () => {
                run();
                return true;
              },
            },
          ]),
        ),
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
      ],
    }),
  });
  return {
    view,
    text: () => view.state.doc.toString(),
    setText: (text: string) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    focus: () => view.focus(),
  };
}
