/**
 * Resource names and resource specifiers of access control, as RDFox writes them.
 *
 * A resource name is a path of segments from the server (`|`) down: `|datastores|ds|rules`.
 * A specifier is a resource name that may end in `*` (any element of a list, where the last
 * segment is a list element) and may begin with `>` instead of `|` (the resources named and
 * everything below them). In a name, a leading `*` is written `**` and every `|` as `||`.
 *
 * The grammar of resources is fixed ({@link RESOURCE_TREE}); a specifier naming something
 * outside it, a wildcard outside a list-element segment, or `>` on a resource that has no
 * subordinates is refused with a BadRequestError naming the problem.
 * @module
 */
import { BadRequestError } from '../model/errors.js';

/** A resource: its segments below the server (`[]` is the server itself). */
export type ResourcePath = readonly string[];

/** A parsed resource specifier. */
export interface ResourceSpecifier {
  /** The segments (unescaped names); a wildcard last segment is {@link WILDCARD_SEGMENT}. */
  readonly segments: readonly string[];
  /** Whether the specifier also covers everything below the resources it names (`>`). */
  readonly recursive: boolean;
  /** The canonical text (`|datastores|*`, `>datastores`, …). */
  readonly text: string;
}

/** The segment standing for the wildcard `*` (NUL cannot begin a name given in a specifier's text). */
export const WILDCARD_SEGMENT = '\u0000*';
const WILD = WILDCARD_SEGMENT;

/** A node of the resource grammar: fixed children by name, or one list-element child. */
interface GrammarNode {
  readonly fixed?: Readonly<Record<string, GrammarNode>>;
  readonly element?: GrammarNode;
}

const LEAF: GrammarNode = {};
const LIST: GrammarNode = { element: LEAF };

/** The resources of a server (RDFox's resource names). */
export const RESOURCE_TREE: GrammarNode = {
  fixed: {
    requests: LEAF,
    datastores: {
      element: {
        fixed: {
          rules: LEAF,
          axioms: LEAF,
          commitprocedure: LEAF,
          deltaqueries: LIST,
          datasources: LIST,
          tupletables: LIST,
          namedgraphs: { element: LEAF },
        },
      },
    },
    roles: LIST,
  },
};

function hasSubordinates(node: GrammarNode): boolean {
  return node.element !== undefined || (node.fixed !== undefined && Object.keys(node.fixed).length > 0);
}

/** Escapes one name for a resource name (`|` → `||`, a leading `*` → `**`). */
export function escapeSegment(name: string): string {
  const escaped = name.replace(/\|/g, '||');
  return escaped.startsWith('*') ? `*${escaped}` : escaped;
}

/** The text of a resource name. */
export function resourceName(path: ResourcePath): string {
  return path.length === 0 ? '|' : path.map((s) => `|${escapeSegment(s)}`).join('');
}

/** Splits the text after the leading `|` or `>` into unescaped segments (a bare `*` becomes {@link WILD}). */
function splitSegments(body: string, text: string): string[] {
  const segments: string[] = [];
  let current = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '|') {
      if (body[i + 1] === '|') {
        current += '|';
        i++;
        continue;
      }
      segments.push(current);
      current = '';
    } else current += c;
  }
  segments.push(current);
  return segments.map((raw) => {
    if (raw === '*') return WILD;
    if (raw.startsWith('**')) return raw.slice(1);
    if (raw.startsWith('*')) throw new BadRequestError(`invalid resource specifier '${text}': a name beginning with '*' is written with '**', and '*' alone stands for any element`);
    if (raw === '') throw new BadRequestError(`invalid resource specifier '${text}': empty segment (a '|' inside a name is written '||')`);
    return raw;
  });
}

/**
 * Parses a resource specifier (`|`, `>`, `|datastores|ds|rules`, `>datastores|*`, `|roles|**x`).
 * @throws BadRequestError naming the problem.
 */
export function parseResourceSpecifier(text: string): ResourceSpecifier {
  const first = text[0];
  if (first !== '|' && first !== '>') throw new BadRequestError(`invalid resource specifier '${text}': it must begin with '|' (one resource) or '>' (a resource and everything below it)`);
  const recursive = first === '>';
  const body = text.slice(1);
  const segments = body === '' ? [] : splitSegments(body, text);
  let node: GrammarNode = RESOURCE_TREE;
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    const fixed = node.fixed?.[segment];
    if (segment !== WILD && fixed !== undefined && node.element === undefined) {
      node = fixed;
      return;
    }
    if (node.element === undefined) {
      const known = Object.keys(node.fixed ?? {});
      throw new BadRequestError(`invalid resource specifier '${text}': unknown resource '${segment === WILD ? '*' : segment}' under '${resourceName(segments.slice(0, i).map(show))}'${known.length > 0 ? ` (expected ${known.join(', ')})` : ' (it has no subordinate resources)'}`);
    }
    if (segment === WILD && !last) throw new BadRequestError(`invalid resource specifier '${text}': '*' may only be the last segment`);
    node = node.element;
  });
  if (recursive && !hasSubordinates(node)) throw new BadRequestError(`invalid resource specifier '${text}': '>' needs a resource with subordinate resources (use '|' instead)`);
  const canonical = (recursive ? '>' : '|') + segments.map((s) => (s === WILD ? '*' : escapeSegment(s))).join('|');
  return { segments, recursive, text: canonical };
}

function show(segment: string): string {
  return segment === WILD ? '*' : segment;
}

/** Whether a specifier covers a resource. */
export function specifierMatches(spec: ResourceSpecifier, resource: ResourcePath): boolean {
  const n = spec.segments.length;
  if (spec.recursive ? resource.length < n : resource.length !== n) return false;
  for (let i = 0; i < n; i++) {
    const s = spec.segments[i]!;
    if (s !== WILD && s !== resource[i]) return false;
  }
  return true;
}

/** Whether every resource `inner` covers is also covered by `outer` (for checking grants). */
export function specifierCovers(outer: ResourceSpecifier, inner: ResourceSpecifier): boolean {
  const n = outer.segments.length;
  if (outer.recursive) {
    if (inner.segments.length < n) return false;
  } else if (inner.recursive || inner.segments.length !== n) return false;
  for (let i = 0; i < n; i++) {
    const o = outer.segments[i]!;
    if (o !== WILD && o !== inner.segments[i]) return false;
  }
  return true;
}

/**
 * Splits a `>` specifier into the resource it names and, for each kind of subordinate, a
 * specifier for that subordinate and everything below it (`>datastores` → `|datastores`,
 * `>datastores|*`). A union of privileges may cover a `>` specifier without any one of them
 * covering it; the parts let a check see that. Returns undefined for a `|` specifier. The
 * parts may have a wildcard before their last segment, which only these checks use.
 */
export function specifierParts(spec: ResourceSpecifier): ResourceSpecifier[] | undefined {
  if (!spec.recursive) return undefined;
  let node: GrammarNode = RESOURCE_TREE;
  for (const segment of spec.segments) {
    const next: GrammarNode | undefined = segment === WILD ? node.element : (node.element ?? node.fixed?.[segment]);
    if (next === undefined) return undefined;
    node = next;
  }
  const part = (segments: readonly string[], recursive: boolean): ResourceSpecifier => ({
    segments,
    recursive,
    text: (recursive ? '>' : '|') + segments.map((s) => (s === WILD ? '*' : escapeSegment(s))).join('|'),
  });
  const parts = [part(spec.segments, false)];
  const children: [string, GrammarNode][] = Object.entries(node.fixed ?? {});
  if (node.element !== undefined) children.push([WILD, node.element]);
  for (const [name, child] of children) parts.push(part([...spec.segments, name], hasSubordinates(child)));
  return parts;
}

/** The resources of one data store. */
export const storeResources = {
  /** The list of data stores. */
  list: ['datastores'] as ResourcePath,
  /** The data store itself. */
  store: (ds: string): ResourcePath => ['datastores', ds],
  /** A child of the data store (`rules`, `axioms`, `commitprocedure`, `datasources`, `tupletables`). */
  child: (ds: string, child: string): ResourcePath => ['datastores', ds, child],
  /** An element of a list of the data store (a data source, a tuple table). */
  element: (ds: string, list: string, name: string): ResourcePath => ['datastores', ds, list, name],
  /** A named graph, by its term in N-Triples form (`<http://…>`, `_:b`). */
  namedGraph: (ds: string, graphTerm: string): ResourcePath => ['datastores', ds, 'namedgraphs', graphTerm],
} as const;
