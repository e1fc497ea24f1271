/**
 * Helpers of the OWL specs: Turtle ontologies with the usual prefixes, translation, and rules
 * written compactly (`:` = `http://ex/`, `owl:`, `xsd:`) for comparison with expected text.
 */
import type * as RDF from '@rdfjs/types';
import { Parser } from 'n3';
import type { Rule } from '../../lib/datalog/ast.js';
import { writeDatalog } from '../../lib/formats/datalog-writer.js';
import { type AxiomTranslation, translateAxioms } from '../../lib/owl/index.js';

/** The example namespace. */
export const EX = 'http://ex/';
/** The OWL namespace. */
export const OWL = 'http://www.w3.org/2002/07/owl#';
/** The XSD namespace. */
export const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** Turtle prefixes `:`, `owl:`, `rdf:`, `rdfs:`, `xsd:`. */
export const TTL_PREFIXES = [
  `@prefix : <${EX}> .`,
  `@prefix owl: <${OWL}> .`,
  '@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .',
  '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
  `@prefix xsd: <${XSD}> .`,
  '',
].join('\n');

/** The prefixes rules are written with. */
export const RULE_PREFIXES: ReadonlyMap<string, string> = new Map([
  [':', EX],
  ['owl:', OWL],
  ['xsd:', XSD],
]);

/** The quads of a Turtle document (prefixes added). */
export function quadsOf(turtle: string): RDF.Quad[] {
  return new Parser().parse(TTL_PREFIXES + turtle);
}

/** Translates a Turtle ontology. */
export function translate(turtle: string, options: { destinationGraph?: string; assertions?: boolean } = {}): AxiomTranslation {
  return translateAxioms(quadsOf(turtle), { assertions: options.assertions ?? false, ...(options.destinationGraph !== undefined ? { destinationGraph: options.destinationGraph } : {}) });
}

/** IRIs of the example namespace, OWL and XSD written `:x`, `owl:x`, `xsd:x`. */
export function short(text: string): string {
  return text
    .replace(/<http:\/\/ex\/([^>]*)>/g, ':$1')
    .replace(/<http:\/\/www\.w3\.org\/2002\/07\/owl#([^>]*)>/g, 'owl:$1')
    .replace(/<http:\/\/www\.w3\.org\/2001\/XMLSchema#([^>]*)>/g, 'xsd:$1');
}

/** Rules as lines of Datalog (prefixes `:`, `owl:`, `xsd:` and `extra`; `a` for rdf:type). */
export function ruleLines(rules: readonly Rule[], extra: ReadonlyMap<string, string> = new Map()): string[] {
  return writeDatalog({ rules }, { prefixes: new Map([...RULE_PREFIXES, ...extra]) })
    .split('\n')
    .filter((l) => l.includes(':-'));
}

/** Short key → rule lines, for every axiom of a translation. */
export function axiomMap(t: AxiomTranslation): Map<string, string[]> {
  return new Map(t.axioms.map((a) => [short(a.key), ruleLines(a.rules)]));
}

/** The rule lines of a Turtle ontology's axioms, as `{ shortKey: lines }`. */
export function rulesOf(turtle: string, options: { destinationGraph?: string; assertions?: boolean } = {}): Record<string, string[]> {
  return Object.fromEntries(axiomMap(translate(turtle, options)));
}

/** The warnings of a translation with short IRIs. */
export function warningsOf(turtle: string): string[] {
  return translate(turtle).warnings.map(short);
}

/** All rules of a translation as one Datalog document. */
export function datalogOf(t: AxiomTranslation): string {
  return writeDatalog({ rules: t.axioms.flatMap((a) => a.rules) });
}
