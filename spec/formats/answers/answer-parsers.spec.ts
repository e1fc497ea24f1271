/**
 * Readers of the answer formats, for the writer tests: a small XML parser (with the line-end
 * and attribute-value normalisation of XML 1.0) for SPARQL XML results, an RFC 4180 CSV reader,
 * and a TSV reader whose terms are read by n3. The readers are tested here too.
 */
import { expect } from 'chai';
import type * as RDF from '@rdfjs/types';
import { DataFactory as F, Parser } from 'n3';
import type { AnswerTerm } from '../../../lib/formats/answers/index.js';

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';

/** A table of answers or a boolean answer. */
export type Answer =
  | { readonly variables: readonly string[]; readonly rows: ReadonlyArray<ReadonlyArray<AnswerTerm | undefined>> }
  | { readonly boolean: boolean };

/** A table (throws when the answer is a boolean). */
export function table(answer: Answer): { variables: readonly string[]; rows: ReadonlyArray<ReadonlyArray<AnswerTerm | undefined>> } {
  if ('boolean' in answer) throw new Error('expected a table, found a boolean answer');
  return answer;
}

/** A term in N-Triples-like syntax (language tags lower-cased), `null` for unbound: for comparisons. */
export function show(term: RDF.Term | undefined): string | null {
  if (term === undefined) return null;
  switch (term.termType) {
    case 'NamedNode':
      return `<${term.value}>`;
    case 'BlankNode':
      return `_:${term.value}`;
    case 'Literal': {
      const direction = (term as { direction?: unknown }).direction;
      if (term.language !== '') return `${JSON.stringify(term.value)}@${term.language.toLowerCase()}${typeof direction === 'string' && direction ? `--${direction}` : ''}`;
      return term.datatype.value === XSD_STRING ? JSON.stringify(term.value) : `${JSON.stringify(term.value)}^^<${term.datatype.value}>`;
    }
    case 'Quad':
      return `<<( ${show(term.subject)} ${show(term.predicate)} ${show(term.object)} )>>`;
    default:
      return `?${term.termType}`;
  }
}

/** The rows of a table as arrays of {@link show} strings. */
export function showRows(rows: ReadonlyArray<ReadonlyArray<RDF.Term | undefined>>): Array<Array<string | null>> {
  return rows.map((row) => row.map(show));
}

// ---------------------------------------------------------------------------------------------
// XML

/** An XML element: local name (prefix dropped), attributes by qualified name, children. */
export interface XmlElement {
  readonly name: string;
  readonly attributes: ReadonlyMap<string, string>;
  readonly children: ReadonlyArray<XmlElement | string>;
}

function decodeReferences(text: string): string {
  return text.replace(/&(?:#x([0-9A-Fa-f]+)|#([0-9]+)|(lt|gt|amp|quot|apos));/g, (_m, hexCode?: string, decimal?: string, name?: string) => {
    if (hexCode !== undefined) return String.fromCodePoint(parseInt(hexCode, 16));
    if (decimal !== undefined) return String.fromCodePoint(parseInt(decimal, 10));
    return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[name as 'lt'];
  });
}

/**
 * Parses XML enough for SPARQL results: elements, attributes, text, character and predefined
 * entity references, comments, processing instructions and CDATA. Line ends are normalised
 * (CR LF and CR become LF) and, in attribute values, literal tab, CR and LF become spaces, as an
 * XML 1.0 processor does. Throws on mismatched tags or stray `<`/`&`.
 */
export function parseXml(source: string): XmlElement {
  const text = source.replace(/\r\n?/g, '\n');
  const token =
    /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|([^<]+)/y;
  const root: { name: string; attributes: Map<string, string>; children: Array<XmlElement | string> } = { name: '#document', attributes: new Map(), children: [] };
  const stack = [root];
  let pos = 0;
  while (pos < text.length) {
    token.lastIndex = pos;
    const m = token.exec(text);
    if (m === null) throw new Error(`XML syntax error at ${pos}: ${JSON.stringify(text.slice(pos, pos + 40))}`);
    pos = token.lastIndex;
    const top = stack[stack.length - 1]!;
    const [whole, cdata, close, qname, attributeText, selfClose, chars] = m;
    if (chars !== undefined) {
      if (/&(?!(?:#x[0-9A-Fa-f]+|#[0-9]+|lt|gt|amp|quot|apos);)/.test(chars)) throw new Error(`stray & in ${JSON.stringify(chars)}`);
      top.children.push(decodeReferences(chars));
    } else if (cdata !== undefined) {
      top.children.push(cdata);
    } else if (qname !== undefined) {
      const name = qname.includes(':') ? qname.slice(qname.indexOf(':') + 1) : qname;
      if (close === '/') {
        if (top.name !== name) throw new Error(`</${qname}> closes <${top.name}>`);
        stack.pop();
        continue;
      }
      const attributes = new Map<string, string>();
      for (const a of (attributeText ?? '').matchAll(/([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        const raw = a[2] ?? a[3] ?? '';
        if (raw.includes('<')) throw new Error(`< in attribute ${a[1]!}`);
        attributes.set(a[1]!, decodeReferences(raw.replace(/[\t\n]/g, ' ')));
      }
      const element = { name, attributes, children: [] as Array<XmlElement | string> };
      top.children.push(element);
      if (selfClose !== '/') stack.push(element);
    } else if (!whole.startsWith('<!--') && !whole.startsWith('<?')) {
      throw new Error(`unexpected ${whole}`);
    }
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack[stack.length - 1]!.name}>`);
  const elements = root.children.filter((c): c is XmlElement => typeof c !== 'string');
  if (elements.length !== 1) throw new Error('not exactly one root element');
  return elements[0]!;
}

function childElements(element: XmlElement, name?: string): XmlElement[] {
  return element.children.filter((c): c is XmlElement => typeof c !== 'string' && (name === undefined || c.name === name));
}

function textOf(element: XmlElement): string {
  return element.children.filter((c): c is string => typeof c === 'string').join('');
}

/** The term of a SPARQL XML results value element (`uri`, `bnode`, `literal`, `triple`). */
function xmlTerm(value: XmlElement, expand: (iri: string) => string): AnswerTerm {
  const text = textOf(value);
  if (value.name === 'uri') return F.namedNode(expand(text));
  if (value.name === 'bnode') return F.blankNode(text);
  if (value.name === 'triple') {
    const part = (name: string): AnswerTerm => xmlTerm(childElements(childElements(value, name)[0]!)[0]!, expand);
    const factory: RDF.DataFactory = F;
    const [subject, predicate, object] = [part('subject'), part('predicate'), part('object')];
    if (subject.termType === 'Literal' || subject.termType === 'Quad' || predicate.termType !== 'NamedNode') throw new Error('not a triple term');
    return factory.quad(subject, predicate, object);
  }
  const language = value.attributes.get('xml:lang');
  const direction = value.attributes.get('its:dir');
  if (language !== undefined && direction !== undefined) {
    const factory: RDF.DataFactory = F;
    return factory.literal(text, { language, direction: direction as 'ltr' | 'rtl' });
  }
  if (language !== undefined) return F.literal(text, language);
  if (value.attributes.has('datatype')) return F.literal(text, F.namedNode(expand(value.attributes.get('datatype')!)));
  return F.literal(text);
}

/** Reads a SPARQL XML results document (`expand` maps IRIs read, e.g. to undo abbreviation). */
export function parseSparqlXml(source: string, expand: (iri: string) => string = (iri) => iri): Answer {
  const sparql = parseXml(source);
  if (sparql.name !== 'sparql') throw new Error(`root element ${sparql.name}`);
  const head = childElements(sparql, 'head')[0];
  if (head === undefined) throw new Error('no head');
  const variables = childElements(head, 'variable').map((v) => v.attributes.get('name')!);
  const booleanElement = childElements(sparql, 'boolean')[0];
  if (booleanElement !== undefined) return { boolean: textOf(booleanElement).trim() === 'true' };
  const results = childElements(sparql, 'results')[0];
  if (results === undefined) throw new Error('no results');
  const rows = childElements(results, 'result').map((result) => {
    const row: Array<AnswerTerm | undefined> = variables.map(() => undefined);
    for (const binding of childElements(result, 'binding')) {
      const index = variables.indexOf(binding.attributes.get('name')!);
      if (index >= 0) row[index] = xmlTerm(childElements(binding)[0]!, expand);
    }
    return row;
  });
  return { variables, rows };
}

// ---------------------------------------------------------------------------------------------
// CSV and TSV

/** Splits RFC 4180 CSV (CRLF line ends required) into records of fields. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let pos = 0;
  while (pos < text.length) {
    let field: string;
    if (text[pos] === '"') {
      let end = pos + 1;
      field = '';
      for (;;) {
        const q = text.indexOf('"', end);
        if (q < 0) throw new Error('unterminated quoted field');
        field += text.slice(end, q);
        if (text[q + 1] === '"') {
          field += '"';
          end = q + 2;
        } else {
          pos = q + 1;
          break;
        }
      }
    } else {
      const m = /[^,\r\n"]*/y;
      m.lastIndex = pos;
      field = m.exec(text)![0];
      pos += field.length;
    }
    record.push(field);
    if (text[pos] === ',') {
      pos++;
    } else if (text.startsWith('\r\n', pos)) {
      records.push(record);
      record = [];
      pos += 2;
    } else {
      throw new Error(`bad CSV at ${pos}: ${JSON.stringify(text.slice(pos, pos + 20))}`);
    }
  }
  if (record.length > 0) throw new Error('last CSV record has no line end');
  return records;
}

/** Reads one TSV (or Turtle) term with n3, `prefixes` declared. */
export function parseTurtleTerm(text: string, prefixes: ReadonlyMap<string, string> = new Map()): AnswerTerm {
  let document = '';
  for (const [name, iri] of prefixes) document += `@prefix ${name} <${iri}> .\n`;
  document += `<urn:x:s> <urn:x:p> ${text} .\n`;
  const quads = new Parser({ format: 'text/turtle', blankNodePrefix: '' }).parse(document);
  if (quads.length !== 1) throw new Error(`${JSON.stringify(text)} is not one term`);
  return quads[0]!.object as AnswerTerm;
}

/** Reads a SPARQL TSV results document (LF line ends). */
export function parseTsv(text: string, prefixes: ReadonlyMap<string, string> = new Map()): Answer {
  if (!text.endsWith('\n')) throw new Error('TSV must end with a line end');
  const lines = text.slice(0, -1).split('\n');
  const header = lines.shift()!;
  const variables = header === '' ? [] : header.split('\t').map((v) => {
    if (!v.startsWith('?')) throw new Error(`header cell ${v}`);
    return v.slice(1);
  });
  const rows = lines.map((line) => {
    const cells = variables.length === 0 ? [] : line.split('\t');
    if (cells.length !== variables.length) throw new Error(`row ${JSON.stringify(line)} has ${cells.length} cells`);
    return cells.map((cell) => (cell === '' ? undefined : parseTurtleTerm(cell, prefixes)));
  });
  return { variables, rows };
}

// ---------------------------------------------------------------------------------------------

describe('answer readers used by the writer tests', () => {
  it('parseXml normalises line ends and attribute whitespace and decodes references', () => {
    const element = parseXml('<?xml version="1.0"?>\r\n<!-- c --><a x="1&#9;2\t3" y=\'&quot;\'>t\r\nu\rv&#13;&lt;<![CDATA[<&>]]><b/></a>');
    expect(element.name).to.equal('a');
    expect(element.attributes.get('x')).to.equal('1\t2 3');
    expect(element.attributes.get('y')).to.equal('"');
    expect(element.children[0]).to.equal('t\nu\nv\r<');
    expect(element.children[1]).to.equal('<&>');
    expect(() => parseXml('<a><b></a></b>')).to.throw();
    expect(() => parseXml('<a>&</a>')).to.throw();
    expect(() => parseXml('<a x="<"/>')).to.throw();
  });

  it('parseCsv reads quoted fields and requires CRLF', () => {
    expect(parseCsv('a,"b,""c""\r\nd",\r\n\r\n')).to.deep.equal([['a', 'b,"c"\r\nd', ''], ['']]);
    expect(() => parseCsv('a,b\n')).to.throw();
  });

  it('parseTsv reads terms with n3', () => {
    const answer = table(parseTsv('?x\t?y\n<http://e/a>\t"a\\tb"@EN\n_:b1\t\n4\tex:c\n', new Map([['ex:', 'http://e/']])));
    expect(answer.variables).to.deep.equal(['x', 'y']);
    expect(showRows(answer.rows)).to.deep.equal([
      ['<http://e/a>', '"a\\tb"@en'],
      ['_:b1', null],
      ['"4"^^<http://www.w3.org/2001/XMLSchema#integer>', '<http://e/c>'],
    ]);
  });
});
