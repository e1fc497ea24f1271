/**
 * Salted password hashes (scrypt) in the PHC string form
 * `$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<hash>` (base64 without padding), which is what a
 * role's description exports and what creating a role from a hash accepts.
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
  readonly salt: Buffer;
  /** The derived key. */
  readonly hash: Buffer;
}

const DEFAULT_LOG_N = 14;
const KEY_LENGTH = 32;
const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{16,})\$([A-Za-z0-9+/]{32,})$/;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const N = 2 ** logN;
    scryptCallback(password, salt, length, { N, r, p, maxmem: 256 * N * r + (1 << 20) }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Hashes a password with a fresh salt. */
export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = randomBytes(16);
  return { logN: DEFAULT_LOG_N, r: 8, p: 1, salt, hash: await derive(password, salt, DEFAULT_LOG_N, 8, 1, KEY_LENGTH) };
}

/** Whether a password matches a hash (in constant time for a given hash). */
export async function passwordMatches(password: string, hash: PasswordHash): Promise<boolean> {
  const derived = await derive(password, hash.salt, hash.logN, hash.r, hash.p, hash.hash.length);
  return timingSafeEqual(derived, hash.hash);
}

/** The PHC string of a hash. */
export function formatPasswordHash(hash: PasswordHash): string {
  const b64 = (b: Buffer): string => b.toString('base64').replace(/=+$/, '');
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
  if (logN < 10 || logN > 20 || r < 1 || r > 32 || p < 1 || p > 16) throw new BadRequestError('invalid password hash: its scrypt parameters are out of range (ln 10–20, r 1–32, p 1–16)');
  return { logN, r, p, salt: Buffer.from(m[4]!, 'base64'), hash: Buffer.from(m[5]!, 'base64') };
}
