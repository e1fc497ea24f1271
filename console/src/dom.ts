/**
 * A small DOM builder. Text always goes in as text nodes (never as HTML), attributes through
 * setAttribute (never `style`, which the Content-Security-Policy refuses), so nothing a store
 * holds can become markup or script.
 * @module
 */

/** What may be a child: nodes, text, and nothing (null, undefined, false are skipped). */
export type Child = Node | string | number | null | undefined | false;

/** Attributes and event handlers of an element. */
export interface Attributes {
  readonly [name: string]: string | number | boolean | undefined | ((event: Event) => void);
}

function apply(element: Element, attributes: Attributes | undefined): void {
  if (!attributes) return;
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name === 'style') throw new Error('inline styles are refused by the console CSP: use a class');
    if (typeof value === 'function') {
      element.addEventListener(name.replace(/^on/, ''), value);
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
}

function append(element: Element, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'number' ? String(child) : child);
  }
}

/** An HTML element with attributes (`onclick` etc. add listeners) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes?: Attributes, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  apply(element, attributes);
  append(element, children);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes and children. */
export function s<K extends keyof SVGElementTagNameMap>(tag: K, attributes?: Attributes, ...children: Child[]): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag);
  apply(element, attributes);
  append(element, children);
  return element;
}

/** Replaces the children of an element. */
export function replace(element: Element, ...children: Child[]): void {
  element.replaceChildren();
  append(element, children);
}

/** An element found by selector, or an error naming it. */
export function must<T extends Element>(root: ParentNode, selector: string): T {
  const found = root.querySelector<T>(selector);
  if (!found) throw new Error(`no element ${selector}`);
  return found;
}
