/**
 * Reading remote JSON-LD contexts (`"@context": "https://…"` in imported JSON-LD) under the
 * server's read policy: the same rules as imports by IRI (`allowed-url-schemes-on-import`,
 * `sandbox-directory`, `max-fetch-size`, `fetch-timeout`, see `read-policy.ts`). A refused IRI
 * is never read; a context that is read but is not JSON is an error that names the IRI and
 * quotes none of what was read.
 * @module
 */
import { ParsingError } from '../model/errors.js';
import { checkIri, openIriUnder, type ReadPolicy } from './read-policy.js';

/**
 * A loader of remote JSON-LD contexts under `policy`: gives the parsed JSON of the document
 * at an IRI.
 * @throws AccessDeniedError (SourceRefusedError) for an IRI the policy refuses; ParsingError
 *   for one that cannot be read or is not JSON.
 * @internal
 */
export function jsonLdContextLoader(policy: ReadPolicy): (iri: string) => Promise<unknown> {
  return async (iri) => {
    checkIri(policy, iri);
    const opened = await openIriUnder(iri, policy);
    const parts: Uint8Array[] = [];
    try {
      for await (const chunk of opened.chunks) parts.push(chunk);
    } finally {
      await opened.close?.();
    }
    try {
      return JSON.parse(Buffer.concat(parts).toString('utf8')) as unknown;
    } catch {
      // the parser's message would quote the document
      throw new ParsingError(`the JSON-LD context at '${iri}' is not valid JSON`);
    }
  };
}
