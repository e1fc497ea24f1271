/**
 * SHACL validation of a store through `validate`: targets (nodes, classes with the subclass
 * hierarchy of the data graph, implicit class targets, subjects and objects of a predicate),
 * the focus-node option, sh:deactivated, severities and messages, the graphs and fact domain
 * of the selection, the report as quads, and interruption.
 */
import { expect } from 'chai';
import { InterruptedError } from '../../lib/index.js';
import { Interrupter } from '../../lib/model/control.js';
import { reportQuads, validate } from '../../lib/shacl/index.js';
import { useShaclServer } from './shacl-store.js';

describe('shacl/validate', () => {
  const env = useShaclServer('validate');

  it('finds focus nodes by class through rdfs:subClassOf of the data graph, and by implicit class targets', async () => {
    const store = await env.store(
      `ex:Student rdfs:subClassOf ex:Person . ex:PhD rdfs:subClassOf ex:Student .
       ex:ann a ex:Person . ex:bob a ex:Student . ex:cid a ex:PhD . ex:dan a ex:Robot .`,
      `ex:S a sh:NodeShape ; sh:targetClass ex:Person ; sh:property [ sh:path ex:name ; sh:minCount 1 ] .
       ex:Robot a rdfs:Class, sh:NodeShape ; sh:property [ sh:path ex:serial ; sh:minCount 1 ] .`,
    );
    const report = await validate(store.selection());
    expect(report.conforms).to.equal(false);
    expect(report.results.map((r) => store.key(r.focusNode)).sort()).to.deep.equal(['ex:ann', 'ex:bob', 'ex:cid', 'ex:dan']);
  });

  it('finds focus nodes as subjects and objects of a predicate and as target nodes (literals too)', async () => {
    const store = await env.store(
      `ex:a ex:knows ex:b . ex:c ex:knows "x" .`,
      `ex:S sh:targetSubjectsOf ex:knows ; sh:nodeKind sh:BlankNode .
       ex:T sh:targetObjectsOf ex:knows ; sh:nodeKind sh:IRI .
       ex:U sh:targetNode ex:nowhere, 42 ; sh:datatype xsd:string .`,
    );
    const report = await validate(store.selection());
    expect(report.results.map((r) => store.line(r)).sort()).to.deep.equal([
      '"42"^^<http://www.w3.org/2001/XMLSchema#integer> sh:DatatypeConstraintComponent "42"^^<http://www.w3.org/2001/XMLSchema#integer> - ex:U sh:Violation',
      '"x" sh:NodeKindConstraintComponent "x" - ex:T sh:Violation',
      'ex:a sh:NodeKindConstraintComponent ex:a - ex:S sh:Violation',
      'ex:c sh:NodeKindConstraintComponent ex:c - ex:S sh:Violation',
      'ex:nowhere sh:DatatypeConstraintComponent ex:nowhere - ex:U sh:Violation',
    ]);
  });

  it('reads as shapes only the nodes targets reach (an ill-formed node no target reaches is left alone)', async () => {
    // (the store has never seen sh:targetNode and its kin: their ids are unknown)
    const store = await env.store(`ex:a a ex:C .`, `ex:S sh:targetClass ex:C ; sh:class ex:D .\nex:weird sh:path [ ex:no ex:path ] .`);
    const report = await validate(store.selection());
    expect(report.results.map((r) => store.line(r))).to.deep.equal(['ex:a sh:ClassConstraintComponent ex:a - ex:S sh:Violation']);
  });

  it('validates only the focus nodes it is given', async () => {
    const store = await env.store(`ex:a a ex:C . ex:b a ex:C . ex:c a ex:D .`, `ex:S sh:targetClass ex:C ; sh:property [ sh:path ex:p ; sh:minCount 1 ] .`);
    const report = await validate(store.selection(), { focusNodes: new Set([store.id('ex:b'), store.id('ex:c')]) });
    expect(report.results.map((r) => store.key(r.focusNode))).to.deep.equal(['ex:b']);
  });

  it('skips deactivated shapes, reports severities and messages with their language tags', async () => {
    const store = await env.store(
      `ex:a ex:p 1 .`,
      `ex:S sh:targetNode ex:a ; sh:property ex:P1, ex:P2 .
       ex:P1 sh:path ex:p ; sh:datatype xsd:string ; sh:severity sh:Warning ; sh:message "not a string"@en, "keine Zeichenkette"@de .
       ex:P2 sh:path ex:p ; sh:minCount 2 ; sh:deactivated true .`,
    );
    const report = await validate(store.selection());
    expect(report.conforms).to.equal(false);
    expect(report.results).to.have.length(1);
    const [r] = report.results;
    expect(r!.severity).to.equal('http://www.w3.org/ns/shacl#Warning');
    expect(r!.messages.map((m) => `${m.value}@${m.language}`).sort()).to.deep.equal(['keine Zeichenkette@de', 'not a string@en']);
  });

  it('reads shapes from the default graph, and explicit facts only when asked', async () => {
    const store = await env.store(
      `ex:a a ex:C ; ex:p ex:b .`,
      `ex:S sh:targetClass ex:C ; sh:property [ sh:path ex:q ; sh:minCount 1 ] .`,
      { shapesInDefault: true },
    );
    await store.ds.importData('ADD', '@prefix ex: <http://example.org/> .\n[?x, ex:q, ?y] :- [?x, ex:p, ?y] .', { mediaType: 'application/x.datalog' });
    expect((await validate(store.selection())).conforms).to.equal(true);
    const explicit = await validate({ ...store.selection(), factDomain: 'explicit' });
    expect(explicit.results.map((r) => store.line(r))).to.deep.equal(['ex:a sh:MinCountConstraintComponent - {"kind":"predicate","predicate":' + String(store.id('ex:q')) + '} _ sh:Violation']);
  });

  it('validates a named data graph', async () => {
    const store = await env.store(`ex:a a ex:C .`, `ex:S sh:targetClass ex:C ; sh:class ex:D .`);
    await store.ds.importData('ADD', '@prefix ex: <http://example.org/> .\nex:b a ex:C .', { defaultGraph: 'http://example.org/data' });
    const report = await validate({ ...store.selection(), dataGraph: store.id('<http://example.org/data>') });
    expect(report.results.map((r) => store.key(r.focusNode))).to.deep.equal(['ex:b']);
  });

  it('writes the report as quads in the SHACL vocabulary', async () => {
    const store = await env.store(`ex:a ex:p ex:b .`, `ex:S sh:targetNode ex:a ; sh:property [ sh:path ( ex:p [ sh:inversePath ex:q ] ) ; sh:minCount 1 ; sh:message "m" ] .`);
    const report = await validate(store.selection());
    const quads = reportQuads(report, store.facts.dictionary);
    const SH = 'http://www.w3.org/ns/shacl#';
    const objects = (p: string): string[] => quads.filter((q) => q.predicate.value === SH + p).map((q) => q.object.value);
    expect(objects('conforms')).to.deep.equal(['false']);
    expect(objects('focusNode')).to.deep.equal(['http://example.org/a']);
    expect(objects('sourceConstraintComponent')).to.deep.equal([`${SH}MinCountConstraintComponent`]);
    expect(objects('resultSeverity')).to.deep.equal([`${SH}Violation`]);
    expect(objects('resultMessage')).to.deep.equal(['m']);
    expect(objects('inversePath')).to.deep.equal(['http://example.org/q']);
    expect(quads.filter((q) => q.predicate.value.endsWith('#first')).map((q) => q.object.termType).sort()).to.deep.equal(['BlankNode', 'NamedNode']);
  });

  it('stops when interrupted', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `ex:n${i} a ex:C .`).join('\n');
    const store = await env.store(lines, `ex:S sh:targetClass ex:C ; sh:property [ sh:path ex:p ; sh:minCount 1 ] .`);
    const interrupter = new Interrupter();
    interrupter.interrupt();
    let error: unknown;
    try {
      await validate(store.selection(), { interrupter });
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(InterruptedError);
  });
});
