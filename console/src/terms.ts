/**
 * What the console reads from the management interface, without the DOM: SPARQL JSON answers
 * (`application/sparql-results+json`), RDF terms shortened by a store's prefixes, the form of
 * a SPARQL text (query or update), and import notification rows.
 * @module
 */

/** An RDF term of a SPARQL JSON answer. */
export interface Term {
  /** `uri`, `bnode`, `literal` or `triple` (an RDF 1.2 triple term). */
  readonly type: 'uri' | 'bnode' | 'literal' | 'triple';
  /** The IRI, blank node label or lexical form ('' for a triple term). */
  readonly value: string;
  /** A literal's datatype IRI (absent for simple and language-tagged literals). */
  readonly datatype?: string;
  /** A literal's language tag. */
  readonly lang?: string;
  /** A literal's base direction (RDF 1.2: `ltr` or `rtl`). */
  readonly dir?: string;
  /** A triple term's subject, predicate and object. */
  readonly triple?: readonly [Term, Term, Term];
}

/** A SPARQL answer: the variables and rows (undefined = unbound), or an ASK's boolean. */
export interface Answer {
  /** The answer variables in order. */
  readonly variables: readonly string[];
  /** The rows, one term (or undefined) per variable. */
  readonly rows: ReadonlyArray<ReadonlyArray<Term | undefined>>;
  /** An ASK answer's value. */
  readonly boolean?: boolean;
}

/** A prefix of a store: the name with its colon, and the IRI. */
export interface Prefix {
  /** The prefix name, e.g. `ex:` (`:` for the empty prefix). */
  readonly name: string;
  /** The IRI it stands for. */
  readonly iri: string;
}

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDF_LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function termOf(value: unknown): Term | undefined {
  if (!isRecord(value)) return undefined;
  const type = value['type'];
  const text = value['value'];
  if (type === 'triple' && isRecord(text)) {
    const parts = [termOf(text['subject']), termOf(text['predicate']), termOf(text['object'])];
    if (parts[0] === undefined || parts[1] === undefined || parts[2] === undefined) return undefined;
    return { type: 'triple', value: '', triple: [parts[0], parts[1], parts[2]] };
  }
  if (typeof text !== 'string') return undefined;
  if (type === 'uri' || type === 'bnode') return { type, value: text };
  if (type === 'literal' || type === 'typed-literal') {
    const lang = value['xml:lang'];
    const dir = value['its:dir'];
    const datatype = value['datatype'];
    return {
      type: 'literal',
      value: text,
      ...(typeof lang === 'string' && lang !== '' ? { lang } : {}),
      ...(typeof lang === 'string' && lang !== '' && typeof dir === 'string' && dir !== '' ? { dir } : {}),
      ...(typeof datatype === 'string' && datatype !== RDF_LANG_STRING && datatype !== `${XSD}string` ? { datatype } : {}),
    };
  }
  return undefined;
}

/**
 * Parses a SPARQL 1.1 JSON answer.
 * @throws Error when the text is not one.
 */
export function parseSparqlJson(text: string): Answer {
  const json: unknown = JSON.parse(text);
  if (!isRecord(json)) throw new Error('the answer is not a SPARQL JSON answer');
  const head = isRecord(json['head']) ? json['head'] : {};
  const vars = Array.isArray(head['vars']) ? head['vars'].filter((v): v is string => typeof v === 'string') : [];
  if (typeof json['boolean'] === 'boolean') return { variables: [], rows: [], boolean: json['boolean'] };
  const results = json['results'];
  if (!isRecord(results) || !Array.isArray(results['bindings'])) throw new Error('the answer has no results.bindings');
  const rows = results['bindings'].map((binding: unknown) => {
    const record = isRecord(binding) ? binding : {};
    return vars.map((v) => termOf(record[v]));
  });
  return { variables: vars, rows };
}

/** The text of an answer cell: a literal's lexical form, an IRI, a blank node label, a triple term in SPARQL syntax, or ''. */
export function cellText(term: Term | undefined): string {
  return term?.type === 'triple' ? showTerm(term, []).full : (term?.value ?? '');
}

/** The rows of a listing (e.g. `Name`, `Property`/`Value`) as texts by column name. */
export function listingRows(answer: Answer): Array<Record<string, string>> {
  return answer.rows.map((row) => {
    const record: Record<string, string> = {};
    answer.variables.forEach((v, i) => (record[v] = cellText(row[i])));
    return record;
  });
}

/** The characters a local name may have without escaping (a conservative PN_LOCAL). */
const LOCAL_NAME = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_-])?)?$/;

/**
 * An IRI written with the longest prefix whose IRI starts it and leaves a local name that
 * needs no escaping (`ex:alice`), or undefined when no prefix fits.
 */
export function shortenIri(iri: string, prefixes: readonly Prefix[]): string | undefined {
  let best: Prefix | undefined;
  for (const prefix of prefixes) {
    if (prefix.iri === '' || !iri.startsWith(prefix.iri)) continue;
    if (!LOCAL_NAME.test(iri.slice(prefix.iri.length))) continue;
    if (!best || prefix.iri.length > best.iri.length) best = prefix;
  }
  return best ? best.name + iri.slice(best.iri.length) : undefined;
}

/** How a term is shown: its text, the full form (for a tooltip) and its kind (for styling). */
export interface ShownTerm {
  /** The text shown. */
  readonly text: string;
  /** The full term in SPARQL syntax. */
  readonly full: string;
  /** `iri`, `bnode`, `literal`, `triple` or `unbound`. */
  readonly kind: 'iri' | 'bnode' | 'literal' | 'triple' | 'unbound';
  /** A literal's datatype or language, shortened (shown beside the value). */
  readonly annotation?: string;
}

/** Escapes a literal's lexical form for SPARQL syntax (a double-quoted string). */
function quoted(value: string): string {
  return `"${value.replace(/[\\"\n\r\t]/g, (c) => ({ '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c] ?? c)}"`;
}

/** How a term is shown in a table or a picture, IRIs shortened by `prefixes`. */
export function showTerm(term: Term | undefined, prefixes: readonly Prefix[]): ShownTerm {
  if (term === undefined) return { text: '', full: 'unbound', kind: 'unbound' };
  switch (term.type) {
    case 'uri': {
      const short = shortenIri(term.value, prefixes);
      return { text: short ?? `<${term.value}>`, full: `<${term.value}>`, kind: 'iri' };
    }
    case 'bnode':
      return { text: `_:${term.value}`, full: `_:${term.value}`, kind: 'bnode' };
    case 'triple': {
      const parts = (term.triple ?? []).map((part) => showTerm(part, prefixes));
      const text = (part: ShownTerm): string => (part.kind === 'literal' ? part.full : part.text);
      return { text: `<<( ${parts.map(text).join(' ')} )>>`, full: `<<( ${parts.map((part) => part.full).join(' ')} )>>`, kind: 'triple' };
    }
    case 'literal': {
      if (term.lang !== undefined) {
        const tag = term.dir !== undefined ? `${term.lang}--${term.dir}` : term.lang;
        return { text: term.value, full: `${quoted(term.value)}@${tag}`, kind: 'literal', annotation: `@${tag}` };
      }
      if (term.datatype !== undefined) {
        const datatype = shortenIri(term.datatype, prefixes) ?? (term.datatype.startsWith(XSD) ? `xsd:${term.datatype.slice(XSD.length)}` : `<${term.datatype}>`);
        return { text: term.value, full: `${quoted(term.value)}^^<${term.datatype}>`, kind: 'literal', annotation: datatype };
      }
      return { text: term.value, full: quoted(term.value), kind: 'literal' };
    }
  }
}

/** An IRI in SPARQL (and Datalog) syntax, `<…>`, with the characters an IRI may not hold escaped. */
export function iriRef(iri: string): string {
  const escape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`;
  let out = '';
  for (const c of iri) out += c <= ' ' || '<>"{}|^`\\'.includes(c) ? escape(c) : c;
  return `<${out}>`;
}

/**
 * The IRI of a term's full form as {@link showTerm} gives it (`<http://…>`, the tooltip of an
 * answer cell), or undefined for any other term.
 */
export function iriOfTitle(full: string): string | undefined {
  return /^<[^<>\s]*>$/.test(full) ? full.slice(1, -1) : undefined;
}

/** The form of a SPARQL text: a query form, or UPDATE for anything else. */
export type SparqlForm = 'SELECT' | 'ASK' | 'CONSTRUCT' | 'DESCRIBE' | 'UPDATE';

/**
 * The form of a SPARQL text from the keyword after its prologue (comments, BASE and PREFIX
 * declarations skipped); UPDATE when it is not a query keyword, undefined for an empty text.
 */
export function sparqlForm(text: string): SparqlForm | undefined {
  let rest = text;
  for (;;) {
    const before = rest;
    rest = rest.replace(/^(?:\s+|#[^\n\r]*)+/, '');
    rest = rest.replace(/^BASE\s*<[^>]*>/i, '');
    rest = rest.replace(/^PREFIX\s+[^\s:]*:\s*<[^>]*>/i, '');
    if (rest === before) break;
  }
  const keyword = /^[A-Za-z]+/.exec(rest)?.[0]?.toUpperCase();
  if (keyword === undefined) return undefined;
  if (keyword === 'SELECT' || keyword === 'ASK' || keyword === 'CONSTRUCT' || keyword === 'DESCRIBE') return keyword;
  return 'UPDATE';
}

/** A row of an import's notifications (columns Type, Line, Column, Description, Value). */
export interface Notification {
  /** error, warning, prefix, information, … */
  readonly type: string;
  /** The line of the input (1-based), when known. */
  readonly line: number | undefined;
  /** The column of the input (1-based), when known. */
  readonly column: number | undefined;
  /** The message, prefix name or counter name. */
  readonly description: string;
  /** The prefix IRI or counter value ('' for messages). */
  readonly value: string;
}

/** The notification rows of an import answer. */
export function notificationsOf(answer: Answer): Notification[] {
  const index = (name: string): number => answer.variables.indexOf(name);
  const [type, line, column, description, value] = ['Type', 'Line', 'Column', 'Description', 'Value'].map(index);
  const at = (row: ReadonlyArray<Term | undefined>, i: number | undefined): string => (i === undefined || i < 0 ? '' : cellText(row[i]));
  const number = (text: string): number | undefined => (text === '' ? undefined : Number(text));
  return answer.rows.map((row) => ({
    type: at(row, type),
    line: number(at(row, line)),
    column: number(at(row, column)),
    description: at(row, description),
    value: at(row, value),
  }));
}

/** The media type of a file to import, from its name (undefined: the endpoint detects it). */
export function mediaTypeOfFile(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (lower.endsWith('.gz')) return undefined;
  const extension = lower.slice(lower.lastIndexOf('.') + 1);
  const types: Readonly<Record<string, string>> = {
    ttl: 'text/turtle',
    turtle: 'text/turtle',
    nt: 'application/n-triples',
    nq: 'application/n-quads',
    trig: 'application/trig',
    dlog: 'application/x.datalog',
    datalog: 'application/x.datalog',
    rul: 'application/x.datalog',
  };
  return types[extension];
}
