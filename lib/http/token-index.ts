/**
 * An index from the authentication tokens of connections and shells to their identifiers, so
 * that a request authenticated with a token (`Authorization: Service <token>`) can be
 * authenticated before the body that names its connection is read. Tokens are held only as
 * SHA-256 digests: a lookup hashes the token it is given, so no comparison ever runs over the
 * characters of a secret.
 * @module
 */
import { createHash } from 'node:crypto';

/** The digest a token is indexed by. */
function digest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64');
}

/** Identifiers by token. */
export class TokenIndex {
  private readonly ids = new Map<string, string>();
  private readonly digests = new Map<string, string>();

  /** Indexes the token of the object `id`. */
  add(token: string, id: string): void {
    const key = digest(token);
    this.ids.set(key, id);
    this.digests.set(id, key);
  }

  /** Forgets the token of the object `id`. */
  remove(id: string): void {
    const key = this.digests.get(id);
    if (key === undefined) return;
    this.digests.delete(id);
    this.ids.delete(key);
  }

  /** The identifier of the object whose token is `token`, if any. */
  find(token: string): string | undefined {
    return this.ids.get(digest(token));
  }
}
