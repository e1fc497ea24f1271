import { expect } from 'chai';
import { DataFactory } from 'n3';
import { BadRequestError, compileRowFilter, createTableWriter, QueryCompilationError, sparqlOperationType } from '../../lib/index.js';
import { expectError } from '../helpers/server.js';

const literal = DataFactory.literal.bind(DataFactory);
const namedNode = DataFactory.namedNode.bind(DataFactory);
const XSD_BOOLEAN = namedNode('http://www.w3.org/2001/XMLSchema#boolean');

describe('api: answer tables (listings)', () => {
  const rows = [
    [literal('version'), literal('0.1.0'), literal('false', XSD_BOOLEAN)],
    [literal('max-memory'), literal('123'), literal('true', XSD_BOOLEAN)],
  ];

  it('writes a table in the answer format asked for', () => {
    let out = '';
    const w = createTableWriter('text/csv', (c) => (out += c));
    expect(w.contentType).to.match(/^text\/csv/);
    w.begin(['Property', 'Value', 'Mutable']);
    for (const r of rows) w.row(r);
    w.end();
    expect(out.split('\r\n')).to.deep.equal(['Property,Value,Mutable', 'version,0.1.0,false', 'max-memory,123,true', '']);
    let json = '';
    const j = createTableWriter('application/sparql-results+json', (c) => (json += c));
    j.begin(['Changed']);
    j.row([literal('true', XSD_BOOLEAN)]);
    j.end();
    const parsed = JSON.parse(json) as { head: { vars: string[] }; results: { bindings: Array<Record<string, { value: string }>> } };
    expect(parsed.head.vars).to.deep.equal(['Changed']);
    expect(parsed.results.bindings[0]!.Changed!.value).to.equal('true');
  });

  it('refuses unknown formats and booleans in CSV, naming them', async () => {
    const e = await expectError(() => createTableWriter('text/html', () => {}), BadRequestError);
    expect(e.message).to.include('text/html');
    await expectError(() => createTableWriter('text/csv', () => {}).boolean(true), BadRequestError);
  });

  it('filters rows with a SPARQL FILTER expression over the columns', () => {
    const mutable = compileRowFilter('?Mutable', ['Property', 'Value', 'Mutable']);
    expect(rows.map(mutable)).to.deep.equal([false, true]);
    const named = compileRowFilter('STRSTARTS(?Property, "ver") && ?Value != "x"', ['Property', 'Value', 'Mutable']);
    expect(rows.map(named)).to.deep.equal([true, false]);
    // an error (unbound variable) is false, as in FILTER
    expect(compileRowFilter('?Nope = 1', ['Property'])([literal('x')])).to.equal(false);
  });

  it('rejects a malformed filter with QueryCompilationError', async () => {
    const e = await expectError(() => compileRowFilter('?a = ', ['a']), QueryCompilationError);
    expect(e.message).to.include('?a = ');
  });

  it('tells the form of a SPARQL text', async () => {
    expect(sparqlOperationType('SELECT * WHERE { ?s ?p ?o }')).to.equal('SELECT');
    expect(sparqlOperationType('ASK { ?s ?p ?o }')).to.equal('ASK');
    expect(sparqlOperationType('CONSTRUCT WHERE { ?s ?p ?o }')).to.equal('CONSTRUCT');
    expect(sparqlOperationType('DESCRIBE <http://x>')).to.equal('DESCRIBE');
    expect(sparqlOperationType('INSERT DATA { <http://a> <http://b> <http://c> }')).to.equal('UPDATE');
    expect(sparqlOperationType('# comment\nPREFIX : <http://e/> BASE <http://b/> prefix ex: <http://x/>\n  select * { ?s :p ?o }')).to.equal('SELECT');
    expect(sparqlOperationType('PREFIX : <http://e/> WITH <http://g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }')).to.equal('UPDATE');
    expect(sparqlOperationType('PREFIX : <http://e/>')).to.equal('UPDATE');
    expect(sparqlOperationType('')).to.equal('UPDATE');
    await expectError(() => sparqlOperationType('PREFIX : SELECT'), QueryCompilationError);
    await expectError(() => sparqlOperationType('SELEKT *'), QueryCompilationError);
  });
});
