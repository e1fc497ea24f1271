/**
 * Paths of the management interface that are routed but whose behaviour arrives with later
 * issues (explanation): they
 * answer 501 with a message naming the feature.
 * @module
 */
import { NotImplementedError } from '../errors.js';
import type { Exchange, Handler } from '../exchange.js';

/** A handler answering 501 Not Implemented for `feature`. */
export function notImplemented(feature: string): Handler {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (exchange: Exchange): Promise<void> => {
    throw new NotImplementedError(`${feature} is not implemented yet by quadlog's HTTP endpoint (${exchange.method} ${exchange.req.url ?? ''})`);
  };
}
