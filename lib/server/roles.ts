/**
 * Roles and their passwords, kept as salted scrypt hashes.
 * @module
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { AuthenticationError, DuplicateResourceError, UnknownResourceError } from '../model/errors.js';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;
const KEY_LENGTH = 32;

interface Credential {
  readonly salt: Buffer;
  readonly hash: Buffer;
}

/** The name of the role used for anonymous access. */
export const GUEST_ROLE = 'guest';

/** The roles of a server. */
export class RoleRegistry {
  private readonly roles = new Map<string, Credential>();

  /** Adds a role with a password. */
  async create(name: string, password: string): Promise<void> {
    if (!name) throw new AuthenticationError('a role name must not be empty');
    if (this.roles.has(name)) throw new DuplicateResourceError(`role '${name}' already exists`);
    const salt = randomBytes(16);
    this.roles.set(name, { salt, hash: await scrypt(password, salt, KEY_LENGTH) });
  }

  /** Removes a role. */
  delete(name: string): void {
    if (!this.roles.delete(name)) throw new UnknownResourceError(`role '${name}' does not exist`);
  }

  /** The role names. */
  names(): string[] {
    return [...this.roles.keys()];
  }

  /** Whether a role exists. */
  has(name: string): boolean {
    return this.roles.has(name);
  }

  /** Checks a role's password; throws AuthenticationError when the role or password is wrong. */
  async verify(name: string, password: string): Promise<void> {
    const credential = this.roles.get(name);
    // hash even for unknown roles so that timing does not tell which roles exist
    const salt = credential?.salt ?? randomBytes(16);
    const hash = await scrypt(password, salt, KEY_LENGTH);
    if (!credential || !timingSafeEqual(hash, credential.hash)) throw new AuthenticationError(`invalid role name or password for role '${name}'`);
  }
}
