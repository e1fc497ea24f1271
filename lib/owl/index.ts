/**
 * OWL 2 RL: reading OWL axioms from RDF triples and translating them to Datalog rules.
 * @module
 */
export { translateAxioms, type AxiomTranslation, type TranslateAxiomsOptions, type TranslatedAxiom } from './translate.js';
export { differentValuesCondition } from './filters.js';
