/**
 * Built-in rule sets, imported by IRI as RDFox's are (`import <rdfox:TBoxReasoning>` in its
 * shell, or an IRI list given to the import API or to `text/uri-list` bodies). Nothing is read:
 * the IRI names rules that quadlog has built in, and the URL scheme policy of imports does not
 * apply. The rules go to the `internal` rule domain; deleting the same IRI removes them.
 *
 * `rdfox:TBoxReasoning` (also accepted spelled out as
 * `https://rdfox.com/vocabulary#TBoxReasoning`) is subsumption reasoning over the class
 * hierarchy held as triples in the default graph: `rdfs:subClassOf` is transitive, and
 * reflexive on every class (a subject or object of `rdfs:subClassOf`, or an instance of
 * `owl:Class` or `rdfs:Class`), and every class is a subclass of `owl:Thing`.
 * @module
 */
import type { Rule } from '../datalog/ast.js';
import { parseDatalog } from '../formats/datalog-parser.js';

/** The IRI of the TBox reasoning rule set, as RDFox's shell writes it. */
export const TBOX_REASONING = 'rdfox:TBoxReasoning';

/** The rules of `rdfox:TBoxReasoning`. */
const TBOX_REASONING_RULES = `
  [?c, rdfs:subClassOf, ?c] :- [?c, rdfs:subClassOf, ?d] .
  [?d, rdfs:subClassOf, ?d] :- [?c, rdfs:subClassOf, ?d], FILTER(!isLiteral(?d)) .
  [?c, rdfs:subClassOf, ?c] :- [?c, rdf:type, owl:Class] .
  [?c, rdfs:subClassOf, ?c] :- [?c, rdf:type, rdfs:Class] .
  [?c, rdfs:subClassOf, ?e] :- [?c, rdfs:subClassOf, ?d], [?d, rdfs:subClassOf, ?e] .
  [?c, rdfs:subClassOf, owl:Thing] :- [?c, rdfs:subClassOf, ?d] .
`;

const PREFIXES = new Map([
  ['rdf:', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#'],
  ['rdfs:', 'http://www.w3.org/2000/01/rdf-schema#'],
  ['owl:', 'http://www.w3.org/2002/07/owl#'],
]);

/** The rule sets by IRI (the text of their rules). */
const RULE_SETS: ReadonlyMap<string, string> = new Map([
  [TBOX_REASONING, TBOX_REASONING_RULES],
  ['https://rdfox.com/vocabulary#TBoxReasoning', TBOX_REASONING_RULES],
]);

/** Whether an IRI (as listed for an import, surrounding blanks ignored) names a built-in rule set. */
export function isBuiltinRuleSet(iri: string): boolean {
  return RULE_SETS.has(iri.trim());
}

/** The rules of a built-in rule set, or undefined when the IRI names none. */
export function builtinRuleSet(iri: string): Rule[] | undefined {
  const text = RULE_SETS.get(iri.trim());
  if (text === undefined) return undefined;
  const { document, errors } = parseDatalog(text, { prefixes: PREFIXES });
  if (errors.length > 0) throw new Error(`built-in rule set ${iri}: ${errors.map((e) => e.message).join('; ')}`);
  return [...document.rules];
}
