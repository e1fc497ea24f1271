/**
 * The console's code that needs no browser: SPARQL JSON answers, terms shortened by prefixes,
 * the form of a SPARQL text, notification rows, media types of files, and the graph layout.
 */
import { expect } from 'chai';
import { layout } from '../../console/src/layout.js';
import { mediaTypeOfFile, notificationsOf, parseSparqlJson, showTerm, shortenIri, sparqlForm } from '../../console/src/terms.js';

const EX = 'http://example.com/';
const PREFIXES = [
  { name: 'ex:', iri: EX },
  { name: 'exp:', iri: `${EX}people/` },
  { name: 'xsd:', iri: 'http://www.w3.org/2001/XMLSchema#' },
];

describe('console: terms, answers and layout (no browser)', () => {
  it('parses SPARQL JSON answers: rows by variable, unbound cells, literals, booleans', () => {
    const answer = parseSparqlJson(
      JSON.stringify({
        head: { vars: ['s', 'o'] },
        results: {
          bindings: [
            { s: { type: 'uri', value: `${EX}a` }, o: { type: 'literal', value: 'x', 'xml:lang': 'en' } },
            { s: { type: 'bnode', value: 'b0' } },
            { s: { type: 'uri', value: `${EX}c` }, o: { type: 'literal', value: '1', datatype: 'http://www.w3.org/2001/XMLSchema#integer' } },
            { o: { type: 'literal', value: 'plain', datatype: 'http://www.w3.org/2001/XMLSchema#string' } },
          ],
        },
      }),
    );
    expect(answer.variables).to.deep.equal(['s', 'o']);
    expect(answer.rows).to.deep.equal([
      [{ type: 'uri', value: `${EX}a` }, { type: 'literal', value: 'x', lang: 'en' }],
      [{ type: 'bnode', value: 'b0' }, undefined],
      [{ type: 'uri', value: `${EX}c` }, { type: 'literal', value: '1', datatype: 'http://www.w3.org/2001/XMLSchema#integer' }],
      [undefined, { type: 'literal', value: 'plain' }],
    ]);
    expect(parseSparqlJson('{"head":{},"boolean":true}')).to.deep.equal({ variables: [], rows: [], boolean: true });
    expect(() => parseSparqlJson('{"head":{}}')).to.throw(/bindings/);
  });

  it('shortens IRIs with the longest fitting prefix, only when the local name needs no escape', () => {
    expect(shortenIri(`${EX}alice`, PREFIXES)).to.equal('ex:alice');
    expect(shortenIri(`${EX}people/bob`, PREFIXES)).to.equal('exp:bob');
    expect(shortenIri(`${EX}`, PREFIXES)).to.equal('ex:');
    expect(shortenIri(`${EX}a/b`, PREFIXES)).to.equal(undefined);
    expect(shortenIri(`${EX}ends.`, PREFIXES)).to.equal(undefined);
    expect(shortenIri('http://other.org/x', PREFIXES)).to.equal(undefined);
  });

  it('shows terms with their full form for the tooltip', () => {
    expect(showTerm({ type: 'uri', value: `${EX}a` }, PREFIXES)).to.deep.equal({ text: 'ex:a', full: `<${EX}a>`, kind: 'iri' });
    expect(showTerm({ type: 'uri', value: 'http://other.org/x' }, PREFIXES).text).to.equal('<http://other.org/x>');
    expect(showTerm({ type: 'literal', value: 'say "hi"\n' }, PREFIXES)).to.deep.equal({ text: 'say "hi"\n', full: '"say \\"hi\\"\\n"', kind: 'literal' });
    expect(showTerm({ type: 'literal', value: '5', datatype: 'http://www.w3.org/2001/XMLSchema#integer' }, []).annotation).to.equal('xsd:integer');
    expect(showTerm({ type: 'literal', value: 'chat', lang: 'fr' }, []).annotation).to.equal('@fr');
    expect(showTerm(undefined, PREFIXES)).to.deep.equal({ text: '', full: 'unbound', kind: 'unbound' });
  });

  it('reads and shows RDF 1.2 terms: triple terms (nested) and literals with a base direction', () => {
    const answer = parseSparqlJson(
      JSON.stringify({
        head: { vars: ['t', 'l'] },
        results: {
          bindings: [
            {
              t: {
                type: 'triple',
                value: {
                  subject: { type: 'uri', value: `${EX}a` },
                  predicate: { type: 'uri', value: `${EX}says` },
                  object: { type: 'triple', value: { subject: { type: 'bnode', value: 'b1' }, predicate: { type: 'uri', value: `${EX}p` }, object: { type: 'literal', value: 'x' } } },
                },
              },
              l: { type: 'literal', value: 'salaam', 'xml:lang': 'ar', 'its:dir': 'rtl' },
            },
          ],
        },
      }),
    );
    const [t, l] = answer.rows[0]!;
    expect(t?.type).to.equal('triple');
    expect(showTerm(t, PREFIXES)).to.deep.equal({
      text: '<<( ex:a ex:says <<( _:b1 ex:p "x" )>> )>>',
      full: `<<( <${EX}a> <${EX}says> <<( _:b1 <${EX}p> "x" )>> )>>`,
      kind: 'triple',
    });
    expect(showTerm(l, PREFIXES)).to.deep.equal({ text: 'salaam', full: '"salaam"@ar--rtl', kind: 'literal', annotation: '@ar--rtl' });
  });

  it('tells queries from updates after the prologue and comments', () => {
    expect(sparqlForm('SELECT * WHERE {}')).to.equal('SELECT');
    expect(sparqlForm('# a comment\nPREFIX ex: <http://e/>\nprefix : <http://f/> BASE <http://b/>\n  construct {} where {}')).to.equal('CONSTRUCT');
    expect(sparqlForm('ASK {}')).to.equal('ASK');
    expect(sparqlForm('DESCRIBE <x>')).to.equal('DESCRIBE');
    expect(sparqlForm('PREFIX ex: <http://e/> INSERT DATA { ex:a ex:b ex:c }')).to.equal('UPDATE');
    expect(sparqlForm('DELETE WHERE { ?s ?p ?o }')).to.equal('UPDATE');
    expect(sparqlForm('  # nothing\n')).to.equal(undefined);
  });

  it('reads notification rows', () => {
    const rows = notificationsOf({
      variables: ['Type', 'Line', 'Column', 'Description', 'Value'],
      rows: [
        [{ type: 'literal', value: 'error' }, { type: 'literal', value: '3' }, { type: 'literal', value: '29' }, { type: 'literal', value: 'bad' }, undefined],
        [{ type: 'literal', value: 'information' }, undefined, undefined, { type: 'literal', value: '#changed-facts' }, { type: 'literal', value: '2' }],
      ],
    });
    expect(rows).to.deep.equal([
      { type: 'error', line: 3, column: 29, description: 'bad', value: '' },
      { type: 'information', line: undefined, column: undefined, description: '#changed-facts', value: '2' },
    ]);
  });

  it('names the media type of a file from its name (none for gzip and the unknown)', () => {
    expect(mediaTypeOfFile('a.TTL')).to.equal('text/turtle');
    expect(mediaTypeOfFile('rules.dlog')).to.equal('application/x.datalog');
    expect(mediaTypeOfFile('x.nq')).to.equal('application/n-quads');
    expect(mediaTypeOfFile('x.ttl.gz')).to.equal(undefined);
    expect(mediaTypeOfFile('data.owl')).to.equal(undefined);
  });

  it('lays out nodes inside the area, deterministically, keeping them apart', () => {
    const edges: Array<[number, number]> = [
      [0, 1],
      [1, 2],
      [2, 0],
      [3, 4],
    ];
    const placed = layout(6, edges, { width: 800, height: 500 });
    expect(placed).to.deep.equal(layout(6, edges, { width: 800, height: 500 }));
    for (const p of placed) {
      expect(p.x).to.be.within(0, 800);
      expect(p.y).to.be.within(0, 500);
    }
    for (let i = 0; i < placed.length; i++) {
      for (let j = i + 1; j < placed.length; j++) expect(Math.hypot(placed[i]!.x - placed[j]!.x, placed[i]!.y - placed[j]!.y), `${i}-${j}`).to.be.above(20);
    }
    expect(layout(0, [])).to.deep.equal([]);
    expect(layout(1, [], { width: 100, height: 50 })).to.deep.equal([{ x: 50, y: 25 }]);
  });
});
