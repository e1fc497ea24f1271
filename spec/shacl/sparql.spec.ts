/**
 * SHACL-SPARQL through quadlog's SPARQL engine: sh:sparql constraints with `$this` pre-bound,
 * `$PATH` in property shapes, messages filled from the solution, a named data graph as the
 * query's default graph, SPARQL-based constraint components, and queries SHACL refuses.
 */
import { expect } from 'chai';
import { ShaclShapeError, validate } from '../../lib/shacl/index.js';
import { useShaclServer } from './shacl-store.js';

const DECLARE = `ex: sh:declare [ sh:prefix "ex" ; sh:namespace "http://example.org/"^^xsd:anyURI ] .`;

describe('shacl/sparql', () => {
  const env = useShaclServer('sparql');

  it('runs sh:sparql with $this pre-bound and fills messages from the solution', async () => {
    const store = await env.store(
      `ex:a a ex:C ; ex:age 17 . ex:b a ex:C ; ex:age 30 .`,
      `${DECLARE}
       ex:S sh:targetClass ex:C ; sh:sparql [ sh:prefixes ex: ; sh:message "too young: {?value}" ;
         sh:select "SELECT $this ?value WHERE { $this ex:age ?value . FILTER (?value < 18) }" ] .`,
    );
    const report = await validate(store.selection());
    expect(report.results.map((r) => store.line(r))).to.deep.equal(['ex:a sh:SPARQLConstraintComponent "17"^^<http://www.w3.org/2001/XMLSchema#integer> - ex:S sh:Violation']);
    expect(report.results[0]!.messages.map((m) => m.value)).to.deep.equal(['too young: 17']);
    expect(report.results[0]!.sourceConstraint).to.be.a('number');
  });

  it('puts the path of a property shape for $PATH and reads a named data graph', async () => {
    const store = await env.store(
      ``,
      `${DECLARE}
       ex:S sh:targetNode ex:a ; sh:property [ sh:path [ sh:inversePath ex:p ] ;
         sh:sparql [ sh:prefixes ex: ; sh:select "SELECT $this ?value WHERE { $this $PATH ?value . FILTER NOT EXISTS { ?value a ex:K } }" ] ] .`,
    );
    await store.ds.importData('ADD', '@prefix ex: <http://example.org/> .\nex:x ex:p ex:a . ex:y ex:p ex:a . ex:y a ex:K .', { defaultGraph: 'http://example.org/data' });
    const report = await validate({ ...store.selection(), dataGraph: store.id('<http://example.org/data>') });
    expect(report.results.map((r) => store.key(r.value!))).to.deep.equal(['ex:x']);
    expect(report.results[0]!.resultPath).to.deep.equal({ kind: 'inverse', path: { kind: 'predicate', predicate: store.id('ex:p') } });
  });

  it('runs a SPARQL-based constraint component with its parameters', async () => {
    const store = await env.store(
      `ex:a ex:code "AB" . ex:b ex:code "ABC" .`,
      `${DECLARE}
       ex:LengthComponent a sh:ConstraintComponent ; sh:parameter [ sh:path ex:length ] ;
         sh:propertyValidator [ a sh:SPARQLSelectValidator ; sh:prefixes ex: ;
           sh:select "SELECT $this ?value WHERE { $this $PATH ?value . FILTER (STRLEN(?value) != $length) }" ] .
       ex:S sh:targetSubjectsOf ex:code ; sh:property [ sh:path ex:code ; ex:length 2 ] .`,
    );
    const report = await validate(store.selection());
    expect(report.results.map((r) => `${store.key(r.focusNode)} ${r.sourceConstraintComponent}`)).to.deep.equal(['ex:b http://example.org/LengthComponent']);
  });

  it('refuses queries SHACL does not allow', async () => {
    for (const where of ['$this ?p ?o . MINUS { $this ex:q ?o }', 'VALUES ?o { 1 } $this ?p ?o', 'BIND (1 AS ?this)', '{ SELECT ?o WHERE { ?s ex:p ?o } }']) {
      const store = await env.store(`ex:a ex:p 1 .`, `${DECLARE}\nex:S sh:targetNode ex:a ; sh:sparql [ sh:prefixes ex: ; sh:select "SELECT $this WHERE { ${where} }" ] .`);
      let error: unknown;
      try {
        await validate(store.selection());
      } catch (e) {
        error = e;
      }
      expect(error, where).to.be.instanceOf(ShaclShapeError);
    }
  });
});
