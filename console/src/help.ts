/**
 * The keyboard help panel: a dialog listing every shortcut of the console ({@link SHORTCUTS}),
 * opened by the header's "?" button or by typing `?` anywhere but in a text field or the
 * editor, and closed by Escape, its Close button or a click beside it.
 * @module
 */
import { h } from './dom.js';
import { SHORTCUTS } from './shortcuts.js';

/** Whether a key typed at `target` goes to text (an input, a text area, a select, the editor). */
export function typesText(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input, textarea, select, [contenteditable=""], [contenteditable=true], .cm-editor')) return true;
  return false;
}

/** The help panel (one per page). */
export class HelpPanel {
  /** The dialog element (added to the page by the constructor). */
  readonly element: HTMLDialogElement;

  /** Creates the panel in `host` and listens for `?`. */
  constructor(host: HTMLElement) {
    const close = h('button', { type: 'button', 'data-role': 'help-close' }, 'Close');
    close.addEventListener('click', () => this.close());
    const rows = SHORTCUTS.map((s) => h('tr', { 'data-role': 'shortcut' }, h('td', {}, h('kbd', {}, s.keys)), h('td', {}, s.action), h('td', { class: 'hint' }, s.where)));
    this.element = h(
      'dialog',
      { class: 'help-panel', 'data-role': 'help-panel', 'aria-label': 'keyboard shortcuts' },
      h('div', { class: 'help-head' }, h('h2', {}, 'Keyboard shortcuts'), close),
      h('table', { class: 'shortcuts', 'data-role': 'shortcuts' }, h('thead', {}, h('tr', {}, h('th', {}, 'Keys'), h('th', {}, 'Action'), h('th', {}, 'Where'))), h('tbody', {}, ...rows)),
      h('p', { class: 'hint small' }, 'Type ? outside a text field to open this list; Escape closes it. A click on an IRI in an answer opens it in the Browse tab.'),
    );
    // a click on the backdrop (the dialog itself, outside its content) closes it
    this.element.addEventListener('click', (event) => {
      if (event.target === this.element) this.close();
    });
    host.append(this.element);
    document.addEventListener('keydown', (event) => {
      if (event.key !== '?' || event.ctrlKey || event.metaKey || event.altKey || typesText(event.target)) return;
      event.preventDefault();
      if (this.element.open) this.close();
      else this.open();
    });
  }

  /** Whether the panel is open. */
  get isOpen(): boolean {
    return this.element.open;
  }

  /** Opens the panel. */
  open(): void {
    if (!this.element.open) this.element.showModal();
  }

  /** Closes the panel. */
  close(): void {
    if (this.element.open) this.element.close();
  }

  /** A button that opens the panel. */
  button(): HTMLButtonElement {
    const button = h('button', { type: 'button', 'data-role': 'help', title: 'Keyboard shortcuts (?)', 'aria-label': 'keyboard shortcuts' }, '?');
    button.addEventListener('click', () => this.open());
    return button;
  }
}
