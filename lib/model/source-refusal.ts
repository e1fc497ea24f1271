/**
 * The refusal of a source by the server's read policy (a scheme that is not allowed, a file
 * outside the sandbox directory): an {@link AccessDeniedError} (HTTP 403, same name) that says
 * the resource may not be read, as opposed to one saying the role lacks a privilege. SPARQL's
 * `LOAD SILENT` turns the first kind into success, as it does a resource that cannot be read,
 * and never the second.
 * @module
 */
import { AccessDeniedError } from './errors.js';

/** A source the read policy refuses (see the module documentation). */
export class SourceRefusedError extends AccessDeniedError {}
