/**
 * Explanations of facts that hold triple terms (RDF 1.2) and of facts derived through triple
 * term patterns: the facts and grounded rules written with `<<( … )>>` and base directions
 * (`"x"@en--ltr`), in the text tree and in the JSON shape; bindings of the variables inside
 * patterns hold their terms and the patterns' own slots are no bindings.
 */
import { expect } from 'chai';
import type * as RDF from '@rdfjs/types/data-model.js';
import { type DataStoreConnection, explanationToJson, renderExplanation } from '../../lib/index.js';
import { termText } from '../../lib/model/terms.js';
import { checkExplanation } from '../helpers/explanation-checker.js';
import { useServer } from '../helpers/server.js';

const PREFIX = '@prefix : <http://e/> .\n@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n';
const DATALOG = { mediaType: 'application/x.datalog' } as const;

describe('explanations of facts with triple terms', () => {
  const env = useServer('explanation-triple-terms');

  async function store(text: string): Promise<{ ds: DataStoreConnection; name: string }> {
    const name = env.uniqueName('expl-tt');
    const ds = await env.newStore(name);
    await ds.setPrefix(':', 'http://e/');
    const r = await ds.importData('ADD', PREFIX + text, DATALOG);
    expect(r.errors, r.text).to.equal(0);
    return { ds, name };
  }

  it('explains the provenance rule: body facts with triple terms, bindings of the pattern variables', async () => {
    const { ds, name } = await store(
      '[:r1, rdf:reifies, <<( :a :says "hi"@en--ltr )>>] . [:r1, :source, :wiki] .\n' + '[?s, :assertedBy, ?who] :- [?r, rdf:reifies, <<( ?s ?p ?o )>>], [?r, :source, ?who] .\n',
    );
    const e = await ds.explain('[:a, :assertedBy, :wiki]');
    checkExplanation(env.server, name, e);
    expect(e.root.type).to.equal('derived');
    const instance = e.root.ruleInstances[0]!;
    expect(instance.rule).to.equal('[?s, :assertedBy, ?who] :- [?r, rdf:reifies, <<( ?s ?p ?o )>>], [?r, :source, ?who] .');
    expect(instance.groundedRule).to.equal('[:a, :assertedBy, :wiki] :- [:r1, rdf:reifies, <<( :a :says "hi"@en--ltr )>>], [:r1, :source, :wiki] .');
    const bindings = Object.fromEntries([...instance.bindings].map(([k, v]) => [k, termText(v)]));
    expect(bindings).to.deep.equal({ s: '<http://e/a>', p: '<http://e/says>', o: '"hi"@en--ltr', r: '<http://e/r1>', who: '<http://e/wiki>' });
    const body = instance.bodyFacts.map((id) => e.facts.get(id!)!.fact);
    expect(body).to.deep.equal(['[:r1, rdf:reifies, <<( :a :says "hi"@en--ltr )>>]', '[:r1, :source, :wiki]']);
    const text = renderExplanation(e);
    expect(text).to.contain('<<( :a :says "hi"@en--ltr )>>');
    const json = explanationToJson(e);
    expect(Object.values(json.facts).map((f) => f.fact)).to.include('[:r1, rdf:reifies, <<( :a :says "hi"@en--ltr )>>]');
    const parsed = JSON.parse(JSON.stringify(json)) as typeof json;
    expect(parsed.facts['0']!['rule-instances'][0]!['grounded-rule']).to.contain('<<( :a :says "hi"@en--ltr )>>');
  });

  it('explains a fact whose triple term a rule head built, asked with the triple term, nested', async () => {
    const { ds, name } = await store('[:a, :p, :b] .\n[?s, :nested, <<( :doc :says <<( ?s :p ?o )>> )>>] :- [?s, :p, ?o] .\n');
    const e = await ds.explain('[:a, :nested, <<( :doc :says <<( :a :p :b )>> )>>]');
    checkExplanation(env.server, name, e);
    expect(e.root.type).to.equal('derived');
    expect(e.root.fact).to.equal('[:a, :nested, <<( :doc :says <<( :a :p :b )>> )>>]');
    const term = e.root.atom.args[2]!;
    expect(term.kind === 'const' && (term.term as RDF.Quad).termType).to.equal('Quad');
    expect(e.root.ruleInstances[0]!.groundedRule).to.equal('[:a, :nested, <<( :doc :says <<( :a :p :b )>> )>>] :- [:a, :p, :b] .');
    expect([...e.root.ruleInstances[0]!.bindings.keys()].sort()).to.deep.equal(['o', 's']);
    // a triple term the store never saw: the fact does not hold
    const no = await ds.explain('[:a, :nested, <<( :doc :says <<( :a :p :c )>> )>>]');
    expect(no.root.type).to.equal('false');
  });
});
