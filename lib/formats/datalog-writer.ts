/**
 * Writer of Datalog programs in RDFox's rule syntax (media type `application/x.datalog`), the
 * inverse of `parseDatalog`: parsing the output gives back the same rules and facts
 * (up to source positions), provided the prefixes used by the expressions' source text are
 * among the prefixes given.
 *
 * Forms written: `@prefix` lines for the given prefixes, then one statement per line, facts
 * first. Triple atoms are written `[s, p, o]` (`DefaultTriples` of arity 3) and
 * `[s, p, o] g` (`Quads` of arity 4); every other atom is `Name(t1, …, tn)`, the name quoted
 * when it is not a plain identifier or is a keyword. IRIs are abbreviated with the longest
 * matching prefix whose local part is a valid prefixed-name local part (`rdf:type` in
 * predicate position falls back to `a`); numbers and booleans with a canonical-looking lexical
 * form are written bare. FILTER, BIND and aggregate arguments are written from their source
 * text.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import type { AtomTerm, BodyLiteral, Rule, TupleAtom } from '../datalog/ast.js';
import { directionOf, RDF_NS, XSD } from '../model/terms.js';
import { DATALOG_KEYWORDS } from './datalog-parser.js';
import { BNODE_LABEL_RE, LOCAL_RE, PREFIX_NAME_RE, turtleString, VARNAME_RE } from './turtle-lexical.js';

/** Options of {@link writeDatalog}. */
export interface DatalogWriteOptions {
  /** Prefixes to declare and abbreviate IRIs with, name with colon → IRI. */
  readonly prefixes?: ReadonlyMap<string, string>;
}

/** What {@link writeDatalog} writes: rules and, optionally, facts. */
export interface DatalogWriteInput {
  /** The rules, written in order after the facts. */
  readonly rules: readonly Rule[];
  /** Ground facts, written in order first. */
  readonly facts?: readonly TupleAtom[];
}

const RDF_TYPE = `${RDF_NS}type`;

const IDENTIFIER_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

const INTEGER_RE = /^[+-]?[0-9]+$/;
const DECIMAL_RE = /^[+-]?[0-9]*\.[0-9]+$/;
const DOUBLE_RE = /^[+-]?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)[eE][+-]?[0-9]+$/;


function hex(code: number, digits: number): string {
  return code.toString(16).toUpperCase().padStart(digits, '0');
}

/** An IRI in angle brackets, characters not allowed there written as `\u` escapes. */
function iriRef(iri: string): string {
  let out = '<';
  for (const c of iri) {
    const code = c.codePointAt(0)!;
    out += code <= 0x20 || '<>"{}|^`\\'.includes(c) ? `\\u${hex(code, 4)}` : c;
  }
  return `${out}>`;
}

/** Writes terms, abbreviating IRIs with prefixes. */
class TermWriter {
  /** [name with colon, IRI], longest IRI first. */
  private readonly prefixes: Array<readonly [string, string]>;

  constructor(prefixes: ReadonlyMap<string, string>) {
    this.prefixes = [...prefixes].filter(([name]) => PREFIX_NAME_RE.test(name)).sort((a, b) => b[1].length - a[1].length);
  }

  iri(iri: string): string {
    for (const [name, namespace] of this.prefixes) {
      if (!iri.startsWith(namespace)) continue;
      const local = iri.slice(namespace.length);
      // `:-` inside a local name would be read as the rule arrow.
      if (LOCAL_RE.test(local) && !local.includes(':-')) return name + local;
    }
    return iriRef(iri);
  }

  term(term: AtomTerm, predicate = false): string {
    if (term.kind === 'var') return variable(term.name);
    // a triple term pattern with variables inside (RDF 1.2), written as in Turtle 1.2
    if (term.kind === 'triple') return `<<( ${this.term(term.subject)} ${this.term(term.predicate, true)} ${this.term(term.object)} )>>`;
    return this.constant(term.term, predicate);
  }

  constant(term: RDF.NamedNode | RDF.BlankNode | RDF.Literal | RDF.Quad, predicate = false): string {
    switch (term.termType) {
      case 'NamedNode': {
        const written = this.iri(term.value);
        return predicate && term.value === RDF_TYPE && written.startsWith('<') ? 'a' : written;
      }
      case 'BlankNode':
        return `_:${BNODE_LABEL_RE.test(term.value) ? term.value : sanitiseLabel(term.value)}`;
      case 'Literal':
        return this.literal(term);
      case 'Quad':
        // a triple term (RDF 1.2), written as in Turtle 1.2
        return `<<( ${this.constant(term.subject as RDF.NamedNode | RDF.BlankNode)} ${this.constant(term.predicate as RDF.NamedNode, true)} ${this.constant(term.object as RDF.NamedNode | RDF.BlankNode | RDF.Literal | RDF.Quad)} )>>`;
    }
  }

  private literal(term: RDF.Literal): string {
    if (term.language !== '') {
      // RDF 1.2 base direction: `"…"@en--ltr`
      const direction = directionOf(term);
      return `${turtleString(term.value)}@${term.language}${direction ? `--${direction}` : ''}`;
    }
    const datatype = term.datatype.value;
    const value = term.value;
    switch (datatype) {
      case `${XSD}string`:
        return turtleString(value);
      case `${XSD}integer`:
        if (INTEGER_RE.test(value)) return value;
        break;
      case `${XSD}decimal`:
        if (DECIMAL_RE.test(value)) return value;
        break;
      case `${XSD}double`:
        if (DOUBLE_RE.test(value)) return value;
        break;
      case `${XSD}boolean`:
        if (value === 'true' || value === 'false') return value;
        break;
      default:
        break;
    }
    return `${turtleString(value)}^^${this.iri(datatype)}`;
  }
}

/** A blank node label made valid by replacing each character that is not allowed. */
function sanitiseLabel(label: string): string {
  let out = '';
  for (const c of label) out += /[A-Za-z0-9_]/.test(c) ? c : `_x${hex(c.codePointAt(0)!, 4)}`;
  return out === '' ? '_' : out;
}

function variable(name: string): string {
  if (!VARNAME_RE.test(name)) throw new RangeError(`invalid variable name: ${JSON.stringify(name)}`);
  return `?${name}`;
}

class DatalogWriter {
  constructor(private readonly terms: TermWriter) {}

  atom(atom: TupleAtom): string {
    const args = atom.args;
    if (atom.table === 'DefaultTriples' && args.length === 3) return this.triple(args);
    if (atom.table === 'Quads' && args.length === 4) {
      return `${this.triple(args.slice(0, 3))} ${this.terms.term(args[3]!)}`;
    }
    const name =
      IDENTIFIER_RE.test(atom.table) && !DATALOG_KEYWORDS.has(atom.table.toUpperCase()) ? atom.table : turtleString(atom.table);
    return `${name}(${args.map((t) => this.terms.term(t)).join(', ')})`;
  }

  private triple(args: readonly AtomTerm[]): string {
    const [s, p, o] = args as readonly [AtomTerm, AtomTerm, AtomTerm];
    return `[${this.terms.term(s)}, ${this.terms.term(p, true)}, ${this.terms.term(o)}]`;
  }

  bodyLiteral(literal: BodyLiteral): string {
    switch (literal.kind) {
      case 'atom':
        return this.atom(literal);
      case 'filter':
        return `FILTER(${literal.text})`;
      case 'bind':
        return `BIND(${literal.text} AS ${variable(literal.variable)})`;
      case 'not': {
        const atoms = literal.atoms.map((a) => this.atom(a));
        if (literal.existentialVariables.length > 0) {
          return `NOT EXISTS ${literal.existentialVariables.map(variable).join(', ')} IN (${atoms.join(', ')})`;
        }
        return atoms.length === 1 ? `NOT ${atoms[0]!}` : `NOT(${atoms.join(', ')})`;
      }
      case 'aggregate': {
        let out = `AGGREGATE(${literal.body.map((b) => this.bodyLiteral(b)).join(', ')}`;
        if (literal.groupBy.length > 0) out += ` ON ${literal.groupBy.map(variable).join(' ')}`;
        for (const b of literal.bindings) {
          // COUNT(*) and COUNT() have no expression; the ARG functions' text holds both arguments
          const argument = b.expression === undefined ? (b.text === '' ? '' : '*') : b.text;
          const inside = b.distinct ? (argument === '' ? 'DISTINCT' : `DISTINCT ${argument}`) : argument;
          out += ` BIND ${b.fn.toUpperCase()}(${inside}) AS ${variable(b.variable)}`;
        }
        return `${out})`;
      }
    }
  }

  rule(rule: Rule): string {
    const head = rule.head.map((a) => this.atom(a)).join(', ');
    const body = rule.body.map((b) => this.bodyLiteral(b)).join(', ');
    return body === '' ? `${head} :- .` : `${head} :- ${body} .`;
  }
}

/**
 * Writes rules and facts in RDFox's Datalog syntax: `@prefix` declarations for the given
 * prefixes, then the facts and the rules, one statement per line. Expressions are written from
 * their source text, so they must only use prefixes among `options.prefixes` (and no relative
 * IRIs) for `parseDatalog` to read the output back into the same rules.
 * @throws RangeError when a variable name cannot be written.
 */
export function writeDatalog(document: DatalogWriteInput, options: DatalogWriteOptions = {}): string {
  const prefixes = options.prefixes ?? new Map<string, string>();
  const writer = new DatalogWriter(new TermWriter(prefixes));
  const lines: string[] = [];
  for (const [name, iri] of prefixes) {
    if (PREFIX_NAME_RE.test(name)) lines.push(`@prefix ${name} ${iriRef(iri)} .`);
  }
  const statements = [
    ...(document.facts ?? []).map((fact) => `${writer.atom(fact)} .`),
    ...document.rules.map((rule) => writer.rule(rule)),
  ];
  if (lines.length > 0 && statements.length > 0) lines.push('');
  lines.push(...statements);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
