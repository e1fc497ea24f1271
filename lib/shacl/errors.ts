/**
 * The errors of SHACL validation.
 * @module
 */
import { BadRequestError } from '../model/errors.js';

/**
 * A shapes graph that validation cannot use: an ill-formed shape, path or SPARQL constraint,
 * or a SPARQL constraint SHACL does not allow (MINUS, VALUES, SERVICE, a subquery leaving
 * out `$this`) — what the W3C tests call a failure. HTTP 400.
 */
export class ShaclShapeError extends BadRequestError {
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ShaclShapeError';
  }
}
