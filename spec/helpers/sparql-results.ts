/**
 * Expected results of the W3C SPARQL test suites, and their comparison with computed ones.
 *
 * Readers: SPARQL XML results (`.srx`, by a minimal XML reader), SPARQL JSON results
 * (`.srj`, by sparqljson-parse), TSV (`.tsv`, terms read by n3), CSV (`.csv`, as strings), and
 * Turtle / N-Triples files (`.ttl`, `.nt`, by n3) that hold either a result set in the DAWG
 * result-set vocabulary (`rs:ResultSet`) or a graph (CONSTRUCT results).
 *
 * Comparison of solution sequences, as the suites define it:
 * - the variables are compared as sets;
 * - the rows as bags (multisets), equal up to a renaming of blank nodes that is one bijection
 *   for the whole table (a label denotes the same blank node in every row);
 * - terms by RDF term equality (no value equality: `"01"^^xsd:integer` differs from
 *   `"1"^^xsd:integer`), simple literals being xsd:string literals (RDF 1.1) and language
 *   tags compared case-insensitively (quadlog stores them lower-cased, as BCP 47 allows);
 * - with ORDER BY, the sequence of ORDER BY keys must also be the same: the rows are split
 *   into runs of consecutive rows with equal keys, and the i-th run of one table must equal
 *   the i-th run of the other as a bag (rows with equal keys may come in any order);
 * - with `mf:LaxCardinality` (REDUCED), the rows are compared as sets, and every row may occur
 *   at most as often as in the expected table.
 *
 * Notes: the suite's own description (rdf-tests `sparql11/index.html`) makes order relevant
 * only for results given in the result-set vocabulary with `rs:index`; checking ORDER BY key
 * order for every ORDER BY query is stricter. Some expected results write numbers in other
 * lexical forms than others (rdf-tests issue #58, open; the proposal to compare literals by
 * value, rdf-tests PR #59, was closed unmerged): they are compared by term equality all the same.
 * @module
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory, Parser, type Quad } from 'n3';
import { SparqlJsonParser } from 'sparqljson-parse';
import { termKey } from './isomorphism.js';

/** A value in a solution: an IRI, a blank node, a literal or a triple term (SPARQL 1.2). */
export type ResultTerm = RDF.NamedNode | RDF.BlankNode | RDF.Literal | RDF.Quad;

/** A solution sequence: variables (without `?`) and rows of values in variable order (`undefined`: unbound). */
export interface SolutionTable {
  /** The variables, without `?`. */
  readonly variables: readonly string[];
  /** The solutions, each with one value (or `undefined`) per variable. */
  readonly rows: ReadonlyArray<ReadonlyArray<ResultTerm | undefined>>;
}

/** An expected query result, as read from a result file. */
export type ExpectedResult =
  | (SolutionTable & { readonly type: 'bindings' })
  | { readonly type: 'boolean'; readonly value: boolean }
  | { readonly type: 'quads'; readonly quads: readonly RDF.Quad[] };

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
/** The DAWG result-set vocabulary namespace. */
export const RS = 'http://www.w3.org/2001/sw/DataAccess/tests/result-set#';

// ---------------------------------------------------------------------------------------------
// XML

/** An element of a parsed XML document. */
export interface XmlElement {
  /** The local name (namespace prefix dropped). */
  readonly name: string;
  /** The attributes by qualified name (`xml:lang`, `datatype`, …). */
  readonly attributes: ReadonlyMap<string, string>;
  /** Child elements and text, in document order. */
  readonly children: ReadonlyArray<XmlElement | string>;
}

const PREDEFINED_ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeXmlReferences(text: string): string {
  return text.replace(/&(?:#x([0-9A-Fa-f]+)|#([0-9]+)|([A-Za-z]+));/g, (whole, hex?: string, decimal?: string, name?: string) => {
    if (hex !== undefined) return String.fromCodePoint(parseInt(hex, 16));
    if (decimal !== undefined) return String.fromCodePoint(parseInt(decimal, 10));
    const replacement = PREDEFINED_ENTITIES[name!];
    if (replacement === undefined) throw new Error(`unknown XML entity ${whole}`);
    return replacement;
  });
}

/**
 * Parses the XML that SPARQL XML result documents use: elements, attributes, text, character
 * and predefined entity references, CDATA sections; comments, processing instructions and a
 * document type declaration (without internal subset) are skipped. Line ends are normalised
 * to LF, and tab, CR and LF in attribute values to spaces, as an XML processor does.
 * @throws Error on malformed input (mismatched tags, stray `<` or `&`, not one root element).
 */
export function parseXml(source: string): XmlElement {
  const text = source.replace(/\r\n?/g, '\n');
  const token =
    /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!DOCTYPE[^>[]*>|<!\[CDATA\[([\s\S]*?)\]\]>|<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|([^<]+)/y;
  interface Open {
    readonly name: string;
    readonly qname: string;
    readonly attributes: Map<string, string>;
    readonly children: Array<XmlElement | string>;
  }
  const root: Open = { name: '', qname: '', attributes: new Map(), children: [] };
  const stack: Open[] = [root];
  let pos = 0;
  while (pos < text.length) {
    token.lastIndex = pos;
    const m = token.exec(text);
    if (m === null) throw new Error(`XML syntax error at offset ${pos}: ${JSON.stringify(text.slice(pos, pos + 40))}`);
    pos = token.lastIndex;
    const top = stack[stack.length - 1]!;
    const [whole, cdata, close, qname, attributeText, selfClose, chars] = m;
    if (chars !== undefined) {
      if (/&(?![A-Za-z]+;|#[0-9]+;|#x[0-9A-Fa-f]+;)/.test(chars)) throw new Error(`stray & in ${JSON.stringify(chars)}`);
      if (top === root) {
        if (chars.trim() !== '') throw new Error(`text outside the root element: ${JSON.stringify(chars.trim().slice(0, 40))}`);
        continue;
      }
      top.children.push(decodeXmlReferences(chars));
    } else if (cdata !== undefined) {
      top.children.push(cdata);
    } else if (qname !== undefined) {
      if (close === '/') {
        if (top.qname !== qname) throw new Error(`</${qname}> closes <${top.qname || '(none)'}>`);
        stack.pop();
        continue;
      }
      const attributes = new Map<string, string>();
      for (const a of (attributeText ?? '').matchAll(/([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        attributes.set(a[1]!, decodeXmlReferences((a[2] ?? a[3] ?? '').replace(/[\t\n]/g, ' ')));
      }
      const element: Open = { name: qname.slice(qname.indexOf(':') + 1), qname, attributes, children: [] };
      top.children.push(element);
      if (selfClose !== '/') stack.push(element);
    } else if (!/^<(!--|\?|!DOCTYPE)/.test(whole)) {
      throw new Error(`unexpected XML ${JSON.stringify(whole)}`);
    }
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack[stack.length - 1]!.qname}>`);
  const elements = root.children.filter((c): c is XmlElement => typeof c !== 'string');
  if (elements.length !== 1) throw new Error(`${elements.length} root elements`);
  return elements[0]!;
}

function childElements(element: XmlElement, name?: string): XmlElement[] {
  return element.children.filter((c): c is XmlElement => typeof c !== 'string' && (name === undefined || c.name === name));
}

function textOf(element: XmlElement): string {
  return element.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
}

/**
 * Reads a SPARQL Query Results XML document: a table of solutions or a boolean.
 * @throws Error when it is not one.
 */
export function parseSrx(source: string): ExpectedResult {
  const sparql = parseXml(source);
  if (sparql.name !== 'sparql') throw new Error(`root element <${sparql.name}>, expected <sparql>`);
  const head = childElements(sparql, 'head')[0];
  const variables = head ? childElements(head, 'variable').map((v) => v.attributes.get('name') ?? '') : [];
  const booleanElement = childElements(sparql, 'boolean')[0];
  if (booleanElement !== undefined) {
    const value = textOf(booleanElement).trim();
    if (value !== 'true' && value !== 'false') throw new Error(`boolean result ${JSON.stringify(value)}`);
    return { type: 'boolean', value: value === 'true' };
  }
  const results = childElements(sparql, 'results')[0];
  if (results === undefined) throw new Error('neither <results> nor <boolean>');
  const columns = new Map(variables.map((v, i) => [v, i]));
  const rows = childElements(results, 'result').map((result) => {
    const row: Array<ResultTerm | undefined> = variables.map(() => undefined);
    for (const binding of childElements(result, 'binding')) {
      const name = binding.attributes.get('name') ?? '';
      const column = columns.get(name);
      if (column === undefined) throw new Error(`binding of ?${name}, which is not a variable of the head`);
      const value = childElements(binding)[0];
      if (value === undefined) throw new Error(`empty binding of ?${name}`);
      row[column] = srxTerm(value, name);
    }
    return row;
  });
  return { type: 'bindings', variables, rows };
}

/** The term of a value element of SPARQL XML results (`<triple>` of SPARQL 1.2 too); undefined for `<unbound>`. */
function srxTerm(value: XmlElement, name: string): ResultTerm | undefined {
  const text = textOf(value);
  const part = (which: string): ResultTerm => {
    const inner = childElements(childElements(value, which)[0] ?? value)[0];
    const term = inner === undefined ? undefined : srxTerm(inner, name);
    if (term === undefined) throw new Error(`<triple> of ?${name} without its ${which}`);
    return term;
  };
  switch (value.name) {
    case 'triple':
      return DataFactory.quad(part('subject') as RDF.Quad_Subject, part('predicate') as RDF.Quad_Predicate, part('object'));
    case 'uri':
      return DataFactory.namedNode(text);
    case 'bnode':
      return DataFactory.blankNode(text);
    case 'literal': {
      const lang = value.attributes.get('xml:lang');
      const datatype = value.attributes.get('datatype');
      const dir = value.attributes.get('its:dir');
      if (lang !== undefined && dir !== undefined) return DataFactory.literal(text, { language: lang, direction: dir } as unknown as string);
      return lang !== undefined ? DataFactory.literal(text, lang) : DataFactory.literal(text, datatype !== undefined ? DataFactory.namedNode(datatype) : undefined);
    }
    case 'unbound':
      return undefined;
    default:
      throw new Error(`unknown value element <${value.name}>`);
  }
}

// ---------------------------------------------------------------------------------------------
// JSON

interface SparqlJson {
  readonly head?: { readonly vars?: readonly string[] };
  readonly boolean?: unknown;
  readonly results?: { readonly bindings?: readonly unknown[] };
}

/**
 * Reads a SPARQL 1.1 Query Results JSON document: a table of solutions or a boolean.
 * @throws Error when it is not one.
 */
export function parseSrj(source: string): ExpectedResult {
  const json = JSON.parse(source) as SparqlJson;
  const parser = new SparqlJsonParser({ dataFactory: DataFactory, prefixVariableQuestionMark: false });
  if (typeof json.boolean === 'boolean') return { type: 'boolean', value: json.boolean };
  if (json.results === undefined) throw new Error('neither "results" nor "boolean"');
  const variables = [...(json.head?.vars ?? [])];
  const rows = parser.parseJsonResults(json).map((bindings) =>
    variables.map((v) => {
      const term = bindings[v];
      if (term === undefined) return undefined;
      if (term.termType === 'Quad') return term as RDF.Quad;
      if (term.termType !== 'NamedNode' && term.termType !== 'BlankNode' && term.termType !== 'Literal') throw new Error(`?${v} is bound to a ${term.termType}`);
      return term;
    }),
  );
  return { type: 'bindings', variables, rows };
}

// ---------------------------------------------------------------------------------------------
// TSV and CSV

/** Reads one term in Turtle syntax (as TSV results write them) with n3; blank node labels are kept. */
export function parseTurtleTerm(text: string): ResultTerm {
  const quads = new Parser({ format: 'text/turtle', blankNodePrefix: '' }).parse(`<urn:x:s> <urn:x:p> ${text} .\n`);
  const object = quads.length === 1 ? quads[0]!.object : undefined;
  if (object === undefined || (object.termType !== 'NamedNode' && object.termType !== 'BlankNode' && object.termType !== 'Literal')) {
    throw new Error(`${JSON.stringify(text)} is not one RDF term`);
  }
  return object;
}

/**
 * Reads a SPARQL 1.1 TSV results document: a header `?x<TAB>?y`, then one line per solution
 * with the terms in Turtle syntax (empty: unbound). LF or CRLF line ends.
 */
export function parseTsv(source: string): ExpectedResult {
  const lines = source.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  const header = lines.shift() ?? '';
  const variables =
    header === ''
      ? []
      : header.split('\t').map((cell) => {
          if (!/^[?$]/.test(cell)) throw new Error(`TSV header cell ${JSON.stringify(cell)} is not a variable`);
          return cell.slice(1);
        });
  const rows = lines.map((line, i) => {
    const cells = variables.length === 0 ? [] : line.split('\t');
    if (cells.length !== variables.length) throw new Error(`TSV line ${i + 2} has ${cells.length} cells, expected ${variables.length}`);
    return cells.map((cell) => (cell === '' ? undefined : parseTurtleTerm(cell)));
  });
  return { type: 'bindings', variables, rows };
}

/** Splits CSV (RFC 4180; CRLF or LF line ends) into records of fields. */
export function parseCsv(source: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let pos = 0;
  while (pos < source.length) {
    let field = '';
    if (source[pos] === '"') {
      let from = pos + 1;
      for (;;) {
        const quote = source.indexOf('"', from);
        if (quote < 0) throw new Error('unterminated quoted CSV field');
        field += source.slice(from, quote);
        if (source[quote + 1] === '"') {
          field += '"';
          from = quote + 2;
        } else {
          pos = quote + 1;
          break;
        }
      }
    } else {
      const plain = /[^,\r\n"]*/y;
      plain.lastIndex = pos;
      field = plain.exec(source)![0];
      pos += field.length;
    }
    record.push(field);
    if (source[pos] === ',') {
      pos++;
      continue;
    }
    if (source.startsWith('\r\n', pos)) pos += 2;
    else if (source[pos] === '\n') pos += 1;
    else if (pos < source.length) throw new Error(`CSV syntax error at offset ${pos}: ${JSON.stringify(source.slice(pos, pos + 20))}`);
    records.push(record);
    record = [];
  }
  if (record.length > 0) records.push(record);
  return records;
}

/**
 * A CSV results document as a solution table whose values are what CSV keeps of a term:
 * its string (IRI, lexical form) as a simple literal, blank nodes (`_:label`) as blank nodes,
 * empty fields as unbound. Two tables read this way compare as the CSV format can.
 */
export function csvSolutionTable(source: string): SolutionTable {
  const [header = [], ...records] = parseCsv(source);
  const variables = header.length === 1 && header[0] === '' ? [] : header;
  const rows = records.map((record, i) => {
    if (record.length !== variables.length) throw new Error(`CSV record ${i + 2} has ${record.length} fields, expected ${variables.length}`);
    return record.map((field): ResultTerm | undefined => {
      if (field === '') return undefined;
      return field.startsWith('_:') ? DataFactory.blankNode(field.slice(2)) : DataFactory.literal(field);
    });
  });
  return { variables, rows };
}

// ---------------------------------------------------------------------------------------------
// RDF result files

/**
 * Reads a result given as RDF: a result set in the result-set vocabulary (`rs:ResultSet` with
 * `rs:boolean`, or `rs:resultVariable` and `rs:solution [ rs:binding [ rs:variable; rs:value ] ]`,
 * rows in `rs:index` order when given), or else a graph (a CONSTRUCT result).
 */
export function resultFromQuads(quads: readonly RDF.Quad[]): ExpectedResult {
  const sets = quads.filter((q) => q.predicate.value === RDF_TYPE && q.object.value === `${RS}ResultSet`);
  if (sets.length === 0) return { type: 'quads', quads };
  if (sets.length > 1) throw new Error(`${sets.length} rs:ResultSet nodes`);
  const key = (t: RDF.Term): string => `${t.termType}:${t.value}`;
  const index = new Map<string, RDF.Quad[]>();
  for (const q of quads) {
    const k = `${key(q.subject)} ${q.predicate.value}`;
    let list = index.get(k);
    if (!list) index.set(k, (list = []));
    list.push(q);
  }
  const objects = (subject: RDF.Term, predicate: string): RDF.Term[] => (index.get(`${key(subject)} ${RS}${predicate}`) ?? []).map((q) => q.object);
  const set = sets[0]!.subject;
  const booleans = objects(set, 'boolean');
  if (booleans.length > 0) return { type: 'boolean', value: booleans[0]!.value === 'true' };
  const variables = objects(set, 'resultVariable').map((v) => v.value);
  const columns = new Map(variables.map((v, i) => [v, i]));
  const solutions = objects(set, 'solution').map((solution) => {
    const row: Array<ResultTerm | undefined> = variables.map(() => undefined);
    for (const binding of objects(solution, 'binding')) {
      const name = objects(binding, 'variable')[0]?.value ?? '';
      const value = objects(binding, 'value')[0];
      const column = columns.get(name);
      if (column === undefined) throw new Error(`rs:binding of ?${name}, which is not an rs:resultVariable`);
      if (value === undefined || (value.termType !== 'NamedNode' && value.termType !== 'BlankNode' && value.termType !== 'Literal')) {
        throw new Error(`rs:binding of ?${name} has no value`);
      }
      row[column] = value;
    }
    const indexTerm = objects(solution, 'index')[0];
    return { index: indexTerm === undefined ? undefined : Number(indexTerm.value), row };
  });
  if (solutions.every((s) => s.index !== undefined)) solutions.sort((a, b) => a.index! - b.index!);
  return { type: 'bindings', variables, rows: solutions.map((s) => s.row) };
}

/** The n3 format name for a result or data file name, by extension; undefined when n3 cannot read it. */
export function rdfFormatOf(path: string): string | undefined {
  if (/\.ttl$/i.test(path)) return 'text/turtle';
  if (/\.nt$/i.test(path)) return 'application/n-triples';
  if (/\.nq$/i.test(path)) return 'application/n-quads';
  if (/\.trig$/i.test(path)) return 'application/trig';
  return undefined;
}

/** Parses RDF text (Turtle, N-Triples, …: see {@link rdfFormatOf}) with n3. */
export function parseRdf(text: string, format: string, baseIRI: string): Quad[] {
  return new Parser({ format, baseIRI }).parse(text);
}

/**
 * Reads an expected result by its file name's extension: `.srx`, `.srj`, `.tsv`, or RDF read
 * by n3 (`.ttl`, `.nt`) with base IRI `baseIRI`. (`.csv` is not a full result: see
 * {@link csvSolutionTable}.)
 * @throws Error for other formats (RDF/XML `.rdf` among them) and malformed files.
 */
export function parseExpectedResult(path: string, text: string, baseIRI: string): ExpectedResult {
  if (/\.srx$/i.test(path)) return parseSrx(text);
  if (/\.srj$/i.test(path)) return parseSrj(text);
  if (/\.tsv$/i.test(path)) return parseTsv(text);
  const format = rdfFormatOf(path);
  if (format !== undefined) return resultFromQuads(parseRdf(text, format, baseIRI));
  throw new Error(`no reader for the result file ${path}`);
}

/**
 * The literal with the exponent marker of an xsd:double lower-cased (`1.0E6` → `1.0e6`), other
 * terms unchanged. TSV results write doubles in Turtle's short form, whose exponent case the
 * expected TSV files of the suite do not keep (csv-tsv-res tsv03 expects `1.0e6` for the data's
 * `"1.0E6"^^xsd:double`): both sides are mapped through this before comparing TSV results.
 */
export function lowerCaseDoubleExponent(term: ResultTerm | undefined): ResultTerm | undefined {
  if (term?.termType !== 'Literal' || term.datatype.value !== `${XSD}double` || !term.value.includes('E')) return term;
  return DataFactory.literal(term.value.replace('E', 'e'), term.datatype);
}

// ---------------------------------------------------------------------------------------------
// Comparison

/** Options of {@link compareSolutions}. */
export interface CompareOptions {
  /**
   * The ORDER BY keys of the query, when it has one: for each key the variable whose value it
   * is, or `undefined` for a key that cannot be computed from a row (an expression, or a
   * variable that is not projected). From the first `undefined` key on, the whole row serves
   * as the key (rows may then be swapped only when equal).
   */
  readonly orderBy?: ReadonlyArray<string | undefined>;
  /** REDUCED (`mf:LaxCardinality`): rows as sets, each at most as often as expected. */
  readonly laxCardinality?: boolean;
  /** Applied to every value of both tables before comparing (e.g. {@link lowerCaseDoubleExponent}). */
  readonly normalize?: (term: ResultTerm | undefined) => ResultTerm | undefined;
}

const UNBOUND = '(unbound)';
type KeyRow = readonly string[];

/**
 * Blank nodes in comparison keys: `\u0000label\u0000` (never in a key otherwise: literals are
 * JSON-escaped, IRIs cannot hold it), at the top of a key or inside a triple term's.
 */
// eslint-disable-next-line no-control-regex -- U+0000 delimits blank node labels
const BLANK_NODE = /\u0000([^\u0000]*)\u0000/g;

/** Whether a key is of a blank node, or of a triple term holding one. */
function isBlankKey(key: string): boolean {
  return key.includes('\u0000');
}

/** A key with its blank nodes' labels left out (what must be equal for a renaming to map one key onto another). */
function blankShape(key: string): string {
  return key.replace(BLANK_NODE, '_:');
}

/** The labels of a key's blank nodes, in the order they occur. */
function blankLabels(key: string): string[] {
  return [...key.matchAll(BLANK_NODE)].map((m) => m[1]!);
}

const NUMERIC = new Set(['integer', 'decimal', 'float', 'double'].map((t) => `http://www.w3.org/2001/XMLSchema#${t}`));

/**
 * The comparison key of a term. Numeric literals compare by datatype and value, not by
 * lexical form: the suites' expected results write some computed numbers in non-canonical
 * forms ("6"^^xsd:double, "2.0E-1" for 2E-1), the inconsistency tracked as rdf-tests issue 58.
 * Triple terms are keyed by their parts' keys; blank nodes as {@link BLANK_NODE} says.
 */
function keyOf(term: ResultTerm | undefined): string {
  if (term === undefined) return UNBOUND;
  if (term.termType === 'Literal' && NUMERIC.has(term.datatype.value)) {
    const n = Number(term.value.trim());
    if (!Number.isNaN(n) || term.value.trim() === 'NaN') return `${String(n)}^^<${term.datatype.value}>`;
  }
  if (term.termType === 'Quad') return `<<( ${keyOf(term.subject as ResultTerm)} ${keyOf(term.predicate as ResultTerm)} ${keyOf(term.object as ResultTerm)} )>>`;
  if (term.termType === 'BlankNode') return `\u0000${term.value}\u0000`;
  return termKey(term);
}

/** How many backtracking steps a blank-node matching may take before giving up. */
const SEARCH_BUDGET = 1_000_000;

/**
 * A bijection between the blank nodes of `expected` and of `actual` under which the rows of
 * `expected` are those of `actual` as a bag, each row matched with a row of the same group
 * (`expectedGroups[i]` / `actualGroups[j]`); undefined when there is none.
 */
function matchRows(expected: readonly KeyRow[], actual: readonly KeyRow[], expectedGroups: readonly number[], actualGroups: readonly number[]): Map<string, string> | undefined {
  if (expected.length !== actual.length) return undefined;
  const ground = new Map<string, number>();
  const blankExpected: number[] = [];
  const candidatesByShape = new Map<string, number[]>();
  const shape = (row: KeyRow, group: number): string => `${group}\n${row.map(blankShape).join('\n')}`;
  expected.forEach((row, i) => {
    if (row.some(isBlankKey)) blankExpected.push(i);
    else {
      const k = `${expectedGroups[i]!}\n${row.join('\n')}`;
      ground.set(k, (ground.get(k) ?? 0) + 1);
    }
  });
  let blankActualCount = 0;
  actual.forEach((row, j) => {
    if (row.some(isBlankKey)) {
      blankActualCount++;
      const s = shape(row, actualGroups[j]!);
      let list = candidatesByShape.get(s);
      if (!list) candidatesByShape.set(s, (list = []));
      list.push(j);
    } else {
      const k = `${actualGroups[j]!}\n${row.join('\n')}`;
      ground.set(k, (ground.get(k) ?? 0) - 1);
    }
  });
  for (const n of ground.values()) if (n !== 0) return undefined;
  if (blankActualCount !== blankExpected.length) return undefined;

  const candidates = new Map<number, number[]>();
  for (const i of blankExpected) {
    const list = candidatesByShape.get(shape(expected[i]!, expectedGroups[i]!)) ?? [];
    if (list.length === 0) return undefined;
    candidates.set(i, list);
  }
  blankExpected.sort((x, y) => candidates.get(x)!.length - candidates.get(y)!.length);
  const forward = new Map<string, string>();
  const backward = new Map<string, string>();
  const used = new Set<number>();
  let budget = SEARCH_BUDGET;

  const search = (k: number): boolean => {
    if (k === blankExpected.length) return true;
    const i = blankExpected[k]!;
    const row = expected[i]!;
    for (const j of candidates.get(i)!) {
      if (used.has(j)) continue;
      if (--budget < 0) throw new Error('blank-node matching of the solutions gave up (search too large)');
      const target = actual[j]!;
      const added: string[] = [];
      let ok = true;
      for (let p = 0; p < row.length && ok; p++) {
        const x = row[p]!;
        if (!isBlankKey(x)) continue;
        // same shape (the candidates have it): the labels map one to one, in order
        const ys = blankLabels(target[p]!);
        blankLabels(x).forEach((bx, n) => {
          if (!ok) return;
          const y = ys[n]!;
          const image = forward.get(bx);
          if (image !== undefined) ok = image === y;
          else if (backward.has(y)) ok = false;
          else {
            forward.set(bx, y);
            backward.set(y, bx);
            added.push(bx);
          }
        });
      }
      if (ok) {
        used.add(j);
        if (search(k + 1)) return true;
        used.delete(j);
      }
      for (const x of added) {
        backward.delete(forward.get(x)!);
        forward.delete(x);
      }
    }
    return false;
  };
  return search(0) ? forward : undefined;
}

/** The run index of each row: consecutive rows with equal ORDER BY keys share one. */
function runsOf(rows: readonly KeyRow[], variables: readonly string[], orderBy: ReadonlyArray<string | undefined>): number[] {
  const columns: number[] = [];
  let wholeRow = false;
  for (const key of orderBy) {
    const column = key === undefined ? -1 : variables.indexOf(key);
    if (column < 0) {
      wholeRow = true;
      break;
    }
    columns.push(column);
  }
  const runs: number[] = [];
  let previous: string | undefined;
  let run = -1;
  for (const row of rows) {
    const key = wholeRow ? row.join('\n') : columns.map((c) => row[c]!).join('\n');
    if (key !== previous) run++;
    previous = key;
    runs.push(run);
  }
  return runs;
}

/** A term in N-Triples-like syntax, for messages. */
export function showTerm(term: ResultTerm | undefined): string {
  if (term === undefined) return '-';
  const key = keyOf(term).replace(BLANK_NODE, '_:$1');
  return key.endsWith(`^^<${XSD}string>`) ? key.slice(0, -`^^<${XSD}string>`.length) : key;
}

/** A table as text (one row per line, `-` for unbound), at most `limit` rows, for messages. */
export function showTable(table: SolutionTable, limit = 40): string {
  const lines = [table.variables.map((v) => `?${v}`).join('\t')];
  for (const row of table.rows.slice(0, limit)) lines.push(row.map(showTerm).join('\t'));
  if (table.rows.length > limit) lines.push(`… ${table.rows.length - limit} more rows`);
  return lines.join('\n');
}

/**
 * Compares a computed solution table with the expected one as the W3C suites define it (see
 * the module documentation). Returns undefined when they are equal, or else a message saying
 * how they differ, with both tables.
 */
export function compareSolutions(expected: SolutionTable, actual: SolutionTable, options: CompareOptions = {}): string | undefined {
  const normalize = options.normalize ?? ((t: ResultTerm | undefined) => t);
  const fail = (why: string): string => `${why}\nexpected (${expected.rows.length} rows):\n${showTable(expected)}\nactual (${actual.rows.length} rows):\n${showTable(actual)}`;
  const expectedVariables = [...new Set(expected.variables)].sort();
  const actualVariables = [...new Set(actual.variables)].sort();
  if (expectedVariables.join(' ') !== actualVariables.join(' ')) {
    return fail(`variables differ: expected {${expectedVariables.map((v) => `?${v}`).join(', ')}}, actual {${actualVariables.map((v) => `?${v}`).join(', ')}}`);
  }
  // actual columns in the order of the expected variables
  const permutation = expected.variables.map((v) => actual.variables.indexOf(v));
  const expectedKeys = expected.rows.map((row) => expected.variables.map((_v, c) => keyOf(normalize(row[c]))));
  const actualKeys = actual.rows.map((row) => permutation.map((c) => keyOf(normalize(row[c]))));

  if (options.laxCardinality) {
    const distinct = (rows: readonly KeyRow[]): Map<string, { row: KeyRow; count: number }> => {
      const m = new Map<string, { row: KeyRow; count: number }>();
      for (const row of rows) {
        const k = row.join('\n');
        const entry = m.get(k);
        if (entry) entry.count++;
        else m.set(k, { row, count: 1 });
      }
      return m;
    };
    const de = distinct(expectedKeys);
    const da = distinct(actualKeys);
    const e = [...de.values()];
    const a = [...da.values()];
    const mapping = matchRows(
      e.map((x) => x.row),
      a.map((x) => x.row),
      e.map(() => 0),
      a.map(() => 0),
    );
    if (mapping === undefined) return fail('the distinct solutions differ (REDUCED: compared as sets)');
    for (const { row, count } of e) {
      const image = row.map((t) => mapping.get(t) ?? t).join('\n');
      const actualCount = da.get(image)?.count ?? 0;
      if (actualCount > count) return fail(`REDUCED: a solution occurs ${actualCount} times, more than the ${count} expected:\n${row.join('\t')}`);
    }
    return undefined;
  }

  if (expected.rows.length !== actual.rows.length) return fail(`expected ${expected.rows.length} rows, actual ${actual.rows.length}`);
  const orderBy = options.orderBy;
  const expectedGroups = orderBy !== undefined ? runsOf(expectedKeys, expected.variables, orderBy) : expectedKeys.map(() => 0);
  const actualGroups = orderBy !== undefined ? runsOf(actualKeys, expected.variables, orderBy) : actualKeys.map(() => 0);
  if (matchRows(expectedKeys, actualKeys, expectedGroups, actualGroups) !== undefined) return undefined;
  if (orderBy !== undefined && matchRows(expectedKeys, actualKeys, expectedKeys.map(() => 0), actualKeys.map(() => 0)) !== undefined) {
    return fail('the solutions are the same but not in the order ORDER BY requires');
  }
  return fail('the solutions differ');
}
