/**
 * Salted password hashes (scrypt) in the PHC string form
 * `$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<hash>` (base64 without padding), which is what a
 * role's description exports and what creating a role from a hash accepts.
 *
 * New hashes are made at the cost a server chooses with its `password-hashing` parameter
 * ({@link parsePasswordHashing}); a hash keeps the parameters it was made with, so it verifies
 * the same whatever cost the server verifying it uses for new hashes.
 * @module
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { BadRequestError } from '../model/errors.js';

/** A parsed password hash. */
export interface PasswordHash {
  /** log2 of scrypt's cost parameter N. */
  readonly logN: number;
  /** scrypt's block size. */
  readonly r: number;
  /** scrypt's parallelism. */
  readonly p: number;
  /** The salt. */
  readonly salt: Uint8Array;
  /** The derived key. */
  readonly hash: Uint8Array;
}

/** The scrypt parameters new hashes are made with. */
export interface ScryptCost {
  /** log2 of scrypt's cost parameter N. */
  readonly logN: number;
  /** scrypt's block size. */
  readonly r: number;
  /** scrypt's parallelism. */
  readonly p: number;
}

/** The cost of `password-hashing=default`: N = 2^14, r = 8, p = 1 (some tens of milliseconds per hash). */
export const DEFAULT_SCRYPT_COST: ScryptCost = Object.freeze({ logN: 14, r: 8, p: 1 });
/**
 * The cost of `password-hashing=fast`: N = 2^4, r = 8, p = 1 (well under a millisecond). For
 * tests only: such hashes are cheap to attack.
 */
export const FAST_SCRYPT_COST: ScryptCost = Object.freeze({ logN: 4, r: 8, p: 1 });
/** The server parameter choosing the cost of new password hashes. */
export const PASSWORD_HASHING_PARAMETER = 'password-hashing';

/** Accepted ranges of the scrypt parameters (of hashes read and of explicit costs). */
const RANGE = { logN: [FAST_SCRYPT_COST.logN, 20], r: [1, 32], p: [1, 16] } as const;
const RANGE_TEXT = `ln ${RANGE.logN[0]}–${RANGE.logN[1]}, r ${RANGE.r[0]}–${RANGE.r[1]}, p ${RANGE.p[0]}–${RANGE.p[1]}`;
const KEY_LENGTH = 32;
const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{16,})\$([A-Za-z0-9+/]{32,})$/;
const EXPLICIT = /^scrypt:ln=(\d{1,2})(?:,r=(\d{1,2}))?(?:,p=(\d{1,2}))?$/;

function inRange(logN: number, r: number, p: number): boolean {
  return logN >= RANGE.logN[0] && logN <= RANGE.logN[1] && r >= RANGE.r[0] && r <= RANGE.r[1] && p >= RANGE.p[0] && p <= RANGE.p[1];
}

/**
 * The cost of new password hashes from the value of the server parameter `password-hashing`
 * (undefined: the default):
 *
 * - `default`: {@link DEFAULT_SCRYPT_COST}, for real passwords;
 * - `fast`: {@link FAST_SCRYPT_COST}, for tests that create many servers or roles;
 * - `scrypt:ln=<n>[,r=<r>][,p=<p>]`: an explicit cost (r 8 and p 1 unless given).
 * @throws BadRequestError for any other value, or an explicit cost out of range.
 */
export function parsePasswordHashing(value: string | undefined): ScryptCost {
  if (value === undefined || value === 'default') return DEFAULT_SCRYPT_COST;
  if (value === 'fast') return FAST_SCRYPT_COST;
  const m = EXPLICIT.exec(value);
  const usage = "expected default, fast (cheap hashes, for tests only) or scrypt:ln=<n>[,r=<r>][,p=<p>]";
  if (!m) throw new BadRequestError(`invalid value '${value}' for server parameter '${PASSWORD_HASHING_PARAMETER}': ${usage}`);
  const cost = { logN: Number(m[1]), r: m[2] === undefined ? 8 : Number(m[2]), p: m[3] === undefined ? 1 : Number(m[3]) };
  if (!inRange(cost.logN, cost.r, cost.p)) throw new BadRequestError(`invalid value '${value}' for server parameter '${PASSWORD_HASHING_PARAMETER}': the scrypt parameters must be in range (${RANGE_TEXT})`);
  return Object.freeze(cost);
}

function derive(password: string, salt: Uint8Array, logN: number, r: number, p: number, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const N = 2 ** logN;
    scryptCallback(password, salt, length, { N, r, p, maxmem: 256 * N * r + (1 << 20) }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Hashes a password with a fresh salt, at a cost (the default cost unless given). */
export async function hashPassword(password: string, cost: ScryptCost = DEFAULT_SCRYPT_COST): Promise<PasswordHash> {
  const salt = randomBytes(16);
  const { logN, r, p } = cost;
  return { logN, r, p, salt, hash: await derive(password, salt, logN, r, p, KEY_LENGTH) };
}

/** Whether a password matches a hash (in constant time for a given hash). */
export async function passwordMatches(password: string, hash: PasswordHash): Promise<boolean> {
  const derived = await derive(password, hash.salt, hash.logN, hash.r, hash.p, hash.hash.length);
  return timingSafeEqual(derived, hash.hash);
}

/** The PHC string of a hash. */
export function formatPasswordHash(hash: PasswordHash): string {
  const b64 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64').replace(/=+$/, '');
  return `$scrypt$ln=${hash.logN},r=${hash.r},p=${hash.p}$${b64(hash.salt)}$${b64(hash.hash)}`;
}

/**
 * Parses a PHC string made by {@link formatPasswordHash}.
 * @throws BadRequestError when the text is not such a hash or its parameters are out of range.
 */
export function parsePasswordHash(text: string): PasswordHash {
  const m = PHC.exec(text.trim());
  if (!m) throw new BadRequestError("invalid password hash: expected the form '$scrypt$ln=<n>,r=<r>,p=<p>$<salt>$<hash>' (base64), as a role's description exports it");
  const [logN, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!inRange(logN, r, p)) throw new BadRequestError(`invalid password hash: its scrypt parameters are out of range (${RANGE_TEXT})`);
  return { logN, r, p, salt: Buffer.from(m[4]!, 'base64'), hash: Buffer.from(m[5]!, 'base64') };
}
