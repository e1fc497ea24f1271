/**
 * Shared pieces of the answer formats: abbreviation of IRIs with prefixes, relative IRIs, and
 * RDF terms in Turtle / N-Triples syntax (used by TSV and the Turtle result sets).
 * @module
 */
import { XSD, XSD_STRING, directionOf } from '../../model/terms.js';
import type { AnswerTerm } from './answer-writer.js';
import { BNODE_LABEL_RE, LOCAL_RE, PREFIX_NAME_RE, turtleString } from '../turtle-lexical.js';

export { turtleString };

const INTEGER_RE = /^[+-]?[0-9]+$/;
const DECIMAL_RE = /^[+-]?[0-9]*\.[0-9]+$/;
const DOUBLE_RE = /^[+-]?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)[eE][+-]?[0-9]+$/;
const XSD_INTEGER = `${XSD}integer`;
const XSD_DECIMAL = `${XSD}decimal`;
const XSD_DOUBLE = `${XSD}double`;
const XSD_BOOLEAN = `${XSD}boolean`;

/** Whether `name` (with its colon) can be written as the prefix of a prefixed name. */
export function isPrefixName(name: string): boolean {
  return PREFIX_NAME_RE.test(name);
}

/** Whether `local` is a valid local part of a prefixed name (no backslash escapes). */
export function isLocalName(local: string): boolean {
  return LOCAL_RE.test(local);
}

/**
 * Abbreviates IRIs to prefixed names: the namespace is the longest one among the prefixes that
 * the IRI starts with and leaves a valid local part (the first declared wins between equal
 * namespaces). Prefix names that are not valid Turtle prefix names, and empty namespaces, are
 * ignored.
 */
export class PrefixAbbreviator {
  /** The usable prefixes, [name with colon, namespace], in the order they were given. */
  readonly prefixes: ReadonlyArray<readonly [string, string]>;
  /** The same, longest namespace first. */
  private readonly entries: ReadonlyArray<readonly [string, string]>;
  private readonly cache = new Map<string, string | null>();

  /** Uses `prefixes`: name with colon → namespace IRI. */
  constructor(prefixes: ReadonlyMap<string, string>) {
    this.prefixes = [...prefixes].filter(([name, namespace]) => namespace !== '' && isPrefixName(name));
    this.entries = [...this.prefixes].sort((a, b) => b[1].length - a[1].length);
  }

  /** The prefixed name of `iri`, or undefined when no prefix abbreviates it. */
  abbreviate(iri: string): string | undefined {
    if (this.entries.length === 0) return undefined;
    const cached = this.cache.get(iri);
    if (cached !== undefined) return cached ?? undefined;
    let found: string | null = null;
    for (const [name, namespace] of this.entries) {
      if (iri.startsWith(namespace) && LOCAL_RE.test(iri.slice(namespace.length))) {
        found = name + iri.slice(namespace.length);
        break;
      }
    }
    if (this.cache.size >= 10_000) this.cache.clear();
    this.cache.set(iri, found);
    return found ?? undefined;
  }
}

/**
 * A function writing IRIs relative to `base` where that is exact, or undefined when `base` does
 * not allow it. Relative references are only produced for a base that ends with `/` and has no
 * query, fragment or dot segments, and only for IRIs whose rest after the base is empty, starts
 * with `?` or `#`, or is a path without a colon in its first segment and without dot segments:
 * resolving such a reference against the base gives back the IRI.
 */
export function relativizer(base: string): ((iri: string) => string | undefined) | undefined {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:[^?#]*\/$/.test(base) || hasDotSegment(base.slice(base.indexOf(':') + 1))) return undefined;
  return (iri) => {
    if (!iri.startsWith(base)) return undefined;
    const rest = iri.slice(base.length);
    if (rest === '' || rest.startsWith('?') || rest.startsWith('#')) return rest;
    if (rest.startsWith('/')) return undefined;
    const pathEnd = rest.search(/[?#]/);
    const path = pathEnd < 0 ? rest : rest.slice(0, pathEnd);
    const firstSegment = path.split('/', 1)[0]!;
    if (firstSegment.includes(':') || hasDotSegment(`/${path}`)) return undefined;
    return rest;
  };
}

/** Whether a path (starting with `/` or an authority) has a `.` or `..` segment. */
function hasDotSegment(path: string): boolean {
  return /\/\.\.?(?:\/|$)/.test(path);
}

function hex(code: number, digits: number): string {
  return code.toString(16).toUpperCase().padStart(digits, '0');
}

/** Unicode escape of a character for Turtle strings and IRIs. */
function uchar(c: string): string {
  const code = c.codePointAt(0)!;
  return code > 0xffff ? `\\U${hex(code, 8)}` : `\\u${hex(code, 4)}`;
}

// eslint-disable-next-line no-control-regex
const IRI_SPECIAL_RE = /[\u0000-\u0020<>"{}|^`\\\u007f]/;
// eslint-disable-next-line no-control-regex
const IRI_SPECIAL_G = /[\u0000-\u0020<>"{}|^`\\\u007f]/g;

/** An IRI reference in angle brackets, characters not allowed there written as `\u` escapes. */
export function iriRef(iri: string): string {
  return IRI_SPECIAL_RE.test(iri) ? `<${iri.replace(IRI_SPECIAL_G, uchar)}>` : `<${iri}>`;
}

/**
 * A blank node label valid in Turtle: the label itself when valid, otherwise `x` followed by the
 * label with every character other than ASCII letters and digits written as `_` + hex code + `_`.
 */
export function blankNodeLabel(label: string): string {
  if (BNODE_LABEL_RE.test(label)) return label;
  let out = 'x';
  for (const c of label) out += /[A-Za-z0-9]/.test(c) ? c : `_${hex(c.codePointAt(0)!, 1)}_`;
  return out;
}

/**
 * The Turtle short form of a literal (`4`, `5.5`, `1.0e6`, `true`) when its datatype is
 * xsd:integer, xsd:decimal, xsd:double or xsd:boolean and its lexical form is exactly the
 * matching Turtle token (so that reading it back gives the same literal); undefined otherwise.
 */
export function shortLiteral(datatype: string, value: string): string | undefined {
  switch (datatype) {
    case XSD_INTEGER:
      return INTEGER_RE.test(value) ? value : undefined;
    case XSD_DECIMAL:
      return DECIMAL_RE.test(value) ? value : undefined;
    case XSD_DOUBLE:
      return DOUBLE_RE.test(value) ? value : undefined;
    case XSD_BOOLEAN:
      return value === 'true' || value === 'false' ? value : undefined;
    default:
      return undefined;
  }
}

/** The most term texts a {@link WrittenTerms} keeps (it starts again when full). */
const WRITTEN_TERMS = 1 << 16;

/**
 * The texts of the terms an answer writer has written, by term object: an answer hands the
 * writer the same object for each occurrence of a term (the evaluator keeps one per id), so a
 * term that recurs (a predicate, a subject of many triples) is formatted once.
 */
export class WrittenTerms {
  private readonly texts = new Map<AnswerTerm, string>();

  /** @param format - the text of a term */
  constructor(private readonly format: (term: AnswerTerm) => string) {}

  /** The text of `term`, formatted on its first occurrence. */
  text(term: AnswerTerm): string {
    let text = this.texts.get(term);
    if (text === undefined) {
      text = this.format(term);
      if (this.texts.size >= WRITTEN_TERMS) this.texts.clear();
      this.texts.set(term, text);
    }
    return text;
  }
}

/**
 * Writes RDF terms in Turtle syntax: IRIs as prefixed names (when an abbreviator is given and a
 * prefix applies), else relative (when a relativizer is given and applies), else `<…>`; blank
 * nodes as `_:label`; literals quoted with `@lang` or `^^datatype`, xsd:string without datatype,
 * numbers and booleans in short form where exact.
 */
export class TurtleTermWriter {
  /** Uses the optional abbreviator and relativizer for IRIs. */
  constructor(
    private readonly abbreviator?: PrefixAbbreviator,
    private readonly relative?: (iri: string) => string | undefined,
  ) {}

  /** An IRI as a prefixed name, relative IRI or `<…>`. */
  iri(iri: string): string {
    const name = this.abbreviator?.abbreviate(iri);
    if (name !== undefined) return name;
    const rel = this.relative?.(iri);
    return iriRef(rel ?? iri);
  }

  private readonly written = new WrittenTerms((term) => this.format(term));

  /** Any answer term. */
  term(term: AnswerTerm): string {
    return this.written.text(term);
  }

  private format(term: AnswerTerm): string {
    switch (term.termType) {
      case 'NamedNode':
        return this.iri(term.value);
      case 'BlankNode':
        return `_:${blankNodeLabel(term.value)}`;
      case 'Literal': {
        if (term.language !== '') {
          const direction = directionOf(term);
          return `${turtleString(term.value)}@${term.language}${direction ? `--${direction}` : ''}`;
        }
        const datatype = term.datatype.value;
        if (datatype === XSD_STRING) return turtleString(term.value);
        return shortLiteral(datatype, term.value) ?? `${turtleString(term.value)}^^${this.iri(datatype)}`;
      }
      case 'Quad':
        // RDF 1.2: a triple term, as Turtle, TSV and SPARQL write it
        return `<<( ${this.format(term.subject as AnswerTerm)} ${this.format(term.predicate as AnswerTerm)} ${this.format(term.object as AnswerTerm)} )>>`;
      default:
        throw new TypeError(`not an answer term: ${(term as { termType: string }).termType}`);
    }
  }
}
