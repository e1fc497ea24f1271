/**
 * Tables of RDF terms as SPARQL answers (answer formats, a streaming table writer, a row filter
 * written as a SPARQL FILTER expression, the form of a SPARQL text), part of the public API.
 * They are built in the server layer (`server/answer-tables.ts`), which may use the answer
 * writers and the expression evaluator; the api only passes them on.
 * @module
 */
export * from '../server/answer-tables.js';
