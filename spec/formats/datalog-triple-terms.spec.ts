/**
 * RDF 1.2 in Datalog text: triple terms `<<( s p o )>>` (ground ones as constants, ones with
 * variables as patterns, nested in the object), literals with a base direction
 * (`"x"@en--ltr`), the errors for malformed ones (with line and column), and the writer
 * reading back what it wrote.
 */
import { expect } from 'chai';
import type * as RDF from '@rdfjs/types/data-model.js';
import type { AtomTerm, TupleAtom } from '../../lib/datalog/ast.js';
import { parseDatalog } from '../../lib/formats/datalog-parser.js';
import { writeDatalog } from '../../lib/formats/datalog-writer.js';
import { directionOf, termText } from '../../lib/model/terms.js';

const EX = 'http://ex/';
const PREFIX = `@prefix : <${EX}> .\n@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n`;
const PREFIXES = new Map([[':', EX]]);

/** A term of an atom as text (`?x`, `<iri>`, `<<( … )>>`). */
function show(t: AtomTerm): string {
  if (t.kind === 'var') return `?${t.name}`;
  if (t.kind === 'triple') return `pattern<<( ${show(t.subject)} ${show(t.predicate)} ${show(t.object)} )>>`;
  return termText(t.term).replaceAll(`<${EX}`, '<:');
}

/** The errors of a text, as [line, column, message]. */
function errorsOf(text: string): Array<[number, number, string]> {
  return parseDatalog(text).errors.map((e) => [e.line, e.column, e.message]);
}

describe('Datalog text: triple terms and base directions (RDF 1.2)', () => {
  it('reads triple term patterns in bodies and heads, nested in the object, and ground triple terms as constants', () => {
    const { document, errors } = parseDatalog(
      PREFIX +
        '[?s, :assertedBy, ?who] :- [?r, rdf:reifies, <<( ?s ?p ?o )>>], [?r, :source, ?who] .\n' +
        '[?r, :about, <<( ?s a <<( _:b :p "x"@en--ltr )>> )>>] :- [?r, :x, ?s] .\n' +
        '[:a, :b, <<( :a :b <<( :c :d 1 )>> )>>] .\n',
    );
    expect(errors).to.deep.equal([]);
    const [provenance, nested] = document.rules;
    expect((provenance!.body[0] as TupleAtom).args.map(show)).to.deep.equal(['?r', '<http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies>', 'pattern<<( ?s ?p ?o )>>']);
    expect(nested!.head[0]!.args.map(show)).to.deep.equal([
      '?r',
      '<:about>',
      'pattern<<( ?s <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <<( _:b <:p> "x"@en--ltr )>> )>>',
    ]);
    const fact = document.facts[0]!;
    expect(fact.args[2]!.kind).to.equal('const');
    expect(show(fact.args[2]!)).to.equal('<<( <:a> <:b> <<( <:c> <:d> "1"^^<http://www.w3.org/2001/XMLSchema#integer> )>> )>>');
  });

  it('reads a base direction, in either case, as ltr or rtl', () => {
    const { document, errors } = parseDatalog(PREFIX + '[:a, :p, "x"@en-GB--LTR] . [:a, :p, "y"@ar--rtl] .');
    expect(errors).to.deep.equal([]);
    const literals = document.facts.map((f) => (f.args[2] as { term: RDF.Literal }).term);
    expect(literals.map((l) => [l.value, l.language, directionOf(l)])).to.deep.equal([
      ['x', 'en-gb', 'ltr'],
      ['y', 'ar', 'rtl'],
    ]);
  });

  it('reports malformed triple terms at their line and column, and goes on', () => {
    const text = [
      '@prefix : <http://ex/> .',
      '[?x, :p, ?y] :- [?x, :q, <<( "lit" :p ?y )>>] .',
      '[?x, :p, ?y] :- [?x, :q, <<( ?x "p" ?y )>>] .',
      '[?x, :p, ?y] :- [?x, :q, <<( ?x :p ?y ] .',
      '[?x, :p, ?y] :- [?x, :q, <<( <<( :a :b :c )>> :p ?y )>>] .',
      '[?x, :p, ?y] :- [?x, :q, <<( ?x :p )>>] .',
      '[:a, :p, "x"@en--up] .',
      '[:a, :p, <<( :a :p ?y )>>] .',
      '[?x, :p, ?y] :- [?x, :q, ?y] .',
    ].join('\n');
    expect(errorsOf(text)).to.deep.equal([
      [2, 30, 'expected the subject of a triple term (a variable, IRI or blank node), found string "lit"'],
      [3, 33, 'expected the predicate of a triple term (a variable or IRI), found string "p"'],
      [4, 39, "expected ')>>' closing the triple term, found ']'"],
      [5, 30, "expected the subject of a triple term (a variable, IRI or blank node), found '<<('"],
      [6, 36, "expected the object of a triple term (a variable, IRI, blank node, literal or triple term), found ')>>'"],
      [7, 18, "the base direction of a literal is ltr or rtl, not 'up'"],
      [8, 20, 'a fact must be ground, but it contains variable ?y'],
    ]);
    expect(parseDatalog(text).document.rules).to.have.length(1);
  });

  it('writes what it reads: patterns with variables, nested and ground triple terms, directions', () => {
    const text =
      '[?s, :assertedBy, ?who] :- [?r, :reifies, <<( ?s ?p ?o )>>], [?r, :source, ?who] .\n' +
      '[?r, :about, <<( ?s a <<( _:b :p "x"@en--ltr )>> )>>] :- [?r, :x, ?s], NOT [?r, :y, <<( ?s :p ?z )>>] .\n' +
      '[:a, :b, <<( :a :b "c"@ar--rtl )>>] .\n';
    const first = parseDatalog(`@prefix : <${EX}> .\n${text}`);
    expect(first.errors).to.deep.equal([]);
    const written = writeDatalog(first.document, { prefixes: PREFIXES });
    expect(written).to.include('[?r, :reifies, <<( ?s ?p ?o )>>]');
    expect(written).to.include('[?r, :about, <<( ?s a <<( _:b :p "x"@en--ltr )>> )>>]');
    expect(written).to.include('NOT [?r, :y, <<( ?s :p ?z )>>]');
    expect(written).to.include('[:a, :b, <<( :a :b "c"@ar--rtl )>>] .');
    const again = parseDatalog(written);
    expect(again.errors).to.deep.equal([]);
    expect(writeDatalog(again.document, { prefixes: PREFIXES })).to.equal(written);
    const strip = (x: unknown): string => JSON.stringify(x, (k, v: unknown) => (k === 'position' ? undefined : v));
    expect(strip(again.document.rules)).to.equal(strip(first.document.rules));
    expect(strip(again.document.facts)).to.equal(strip(first.document.facts));
  });
});
