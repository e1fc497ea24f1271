/**
 * SHACL validation of a data store over HTTP: `GET /datastores/<name>/shacl` validates the
 * data graph against the shapes graph (parameters `data-graph` and `shapes-graph`, each the
 * IRI of a named graph, the default graph when absent, and `fact-domain`, `all`, `explicit` or
 * `derived`) and answers 200 with the report in the format Accept chooses: an RDF format
 * (Turtle by default, N-Triples, N-Quads, TriG, JSON-LD, RDF/XML), or `application/json` for
 * the typed report (`conforms` and `results`, terms written as in N-Triples), which the web
 * console shows. The header `Quadlog-Conforms` says `true` or `false` in every case. RDFox
 * has no such route (it validates through its SHACL tuple tables).
 * @module
 */
import { BadRequestError, JSON_LD, N_QUADS, N_TRIPLES, RDF_XML, TRIG, TURTLE, type ValidationOptions, type ValidationReport, validationReportText } from '../../index.js';
import type { Exchange, Handler } from '../exchange.js';
import { negotiateOrThrow } from '../negotiation.js';

/** The JSON form of the typed report. */
const JSON_TYPE = 'application/json';

/** What the route can answer with: the RDF formats and JSON. */
const SHACL_TYPES: readonly string[] = [TURTLE, N_TRIPLES, N_QUADS, TRIG, JSON_LD, RDF_XML, JSON_TYPE];

/** The parameters the route takes. */
const ALLOWED = ['data-graph', 'shapes-graph', 'fact-domain'];

/** A term as N-Triples writes it (literals with their datatype or language). */
function termText(term: { readonly termType: string; readonly value: string; readonly language?: string; readonly datatype?: { readonly value: string } }): string {
  switch (term.termType) {
    case 'NamedNode':
      return `<${term.value}>`;
    case 'BlankNode':
      return `_:${term.value}`;
    case 'Literal': {
      const lexical = JSON.stringify(term.value);
      if (term.language) return `${lexical}@${term.language}`;
      const datatype = term.datatype?.value;
      return datatype === undefined || datatype === 'http://www.w3.org/2001/XMLSchema#string' ? lexical : `${lexical}^^<${datatype}>`;
    }
    default:
      return term.value;
  }
}

/** The typed report as JSON (terms as N-Triples text). */
export function reportJson(report: ValidationReport): string {
  return JSON.stringify({
    conforms: report.conforms,
    results: report.results.map((r) => ({
      focusNode: termText(r.focusNode),
      resultPath: r.resultPath,
      value: r.value === undefined ? undefined : termText(r.value),
      sourceShape: termText(r.sourceShape),
      sourceConstraintComponent: r.sourceConstraintComponent,
      sourceConstraint: r.sourceConstraint === undefined ? undefined : termText(r.sourceConstraint),
      severity: r.severity,
      messages: r.messages.map((m) => m.value),
    })),
  });
}

/** The validation options of a request's parameters. */
function optionsOf(exchange: Exchange): ValidationOptions {
  const parameters = exchange.genericParameters([]);
  for (const key of Object.keys(parameters)) {
    if (!ALLOWED.includes(key)) throw new BadRequestError(`unknown parameter '${key}' for SHACL validation (allowed: ${ALLOWED.join(', ')})`);
  }
  const graph = (name: string): string | undefined => (parameters[name] === undefined || parameters[name] === '' || parameters[name] === 'default' ? undefined : parameters[name]);
  const domain = parameters['fact-domain'];
  return { dataGraph: graph('data-graph'), shapesGraph: graph('shapes-graph'), factDomain: domain === undefined || domain === '' ? undefined : (domain as ValidationOptions['factDomain']) };
}

/** Serves `/datastores/<name>/shacl` (GET). */
export const handleShacl: Handler = async (exchange: Exchange, dataStore: string): Promise<void> => {
  const mediaType = negotiateOrThrow(exchange.req.headers.accept, SHACL_TYPES, TURTLE);
  const options = optionsOf(exchange);
  const { report, text } = await exchange.withDataStoreConnection(dataStore, async (connection) => {
    const report = await connection.validate(options);
    return { report, text: mediaType === JSON_TYPE ? reportJson(report) : validationReportText(report, mediaType, await connection.getPrefixes()) };
  });
  exchange.res.writeHead(200, { 'Content-Type': `${mediaType}; charset=UTF-8`, 'Content-Length': String(Buffer.byteLength(text)), 'Quadlog-Conforms': String(report.conforms) });
  exchange.res.end(text);
};
