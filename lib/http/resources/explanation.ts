/**
 * `/datastores/<ds>/explanation` (GET): why a fact holds. Parameters: `fact` (required, one
 * fact in Datalog; the store's prefixes apply), `type` (`shortest`, the default,
 * `to-explicit` or `exhaustive`), `max-distance-from-root` and `max-rule-instances-per-fact`
 * (non-negative integers; no limit when absent). The answer is
 * `application/x.explanation+json` (RDFox's shape; the default) or `text/plain` (the
 * indented proof tree the shell prints); 406 for any other Accept.
 * @module
 */
import { BadRequestError, checkExplanationType, EXPLANATION_JSON, type ExplanationOptions, explanationToJson, renderExplanation } from '../../index.js';
import type { Exchange, Handler } from '../exchange.js';
import { negotiateOrThrow } from '../negotiation.js';

/** The answer formats, the default first. */
const EXPLANATION_TYPES_OFFERED: readonly string[] = [EXPLANATION_JSON, 'text/plain'];

/** A limit parameter: a non-negative integer, or undefined when absent. */
function limit(exchange: Exchange, name: string): number | undefined {
  const text = exchange.params.get(name);
  if (text === null) return undefined;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new BadRequestError(`invalid ${name} '${text}' (expected a non-negative integer)`);
  return Number(text);
}

/** Serves `/datastores/<ds>/explanation`. */
export const handleExplanation: Handler = async (exchange: Exchange, dataStore: string): Promise<void> => {
  const fact = exchange.params.get('fact');
  if (fact === null) throw new BadRequestError("the 'fact' parameter is required: the fact to explain, in Datalog (e.g. fact=:A[:a])");
  const type = exchange.params.get('type');
  const maxDistance = limit(exchange, 'max-distance-from-root');
  const maxInstances = limit(exchange, 'max-rule-instances-per-fact');
  const options: ExplanationOptions = {
    ...(type !== null ? { type: checkExplanationType(type) } : {}),
    ...(maxDistance !== undefined ? { maxDistanceFromRoot: maxDistance } : {}),
    ...(maxInstances !== undefined ? { maxRuleInstancesPerFact: maxInstances } : {}),
  };
  const mediaType = negotiateOrThrow(exchange.req.headers.accept, EXPLANATION_TYPES_OFFERED, EXPLANATION_JSON);
  const explanation = await exchange.withDataStoreConnection(dataStore, (c) => c.explain(fact, options));
  const body = mediaType === EXPLANATION_JSON ? `${JSON.stringify(explanationToJson(explanation))}\n` : renderExplanation(explanation);
  exchange.res.writeHead(200, { 'Content-Type': `${mediaType}; charset=UTF-8`, 'Content-Length': String(Buffer.byteLength(body)), Vary: 'Accept' });
  exchange.res.end(body);
};
