/**
 * The role database of a server: roles and their password hashes, privileges (resource
 * specifier + access types), memberships (a role inherits every privilege of the roles it is
 * a member of, transitively), authentication, and authorization. Every access check of the
 * in-memory API and of HTTP ends here.
 *
 * Operations that change or read the database take the acting role (`actor`) and check its
 * privileges first, as RDFox does: creating a role needs write on `|roles`; deleting one,
 * write on `|roles` and on the role; reading a role's description, privileges, memberships or
 * members, read on the role; granting or revoking a privilege, grant on every resource the
 * specifier names and write on the receiving role; granting or revoking a membership, grant
 * on the super role and write on the member. No role grants or revokes its own privileges or
 * memberships.
 *
 * Every change bumps {@link RoleDatabase.generation}; remembered password checks are tied to
 * the credential they checked, so a new password or a deleted role takes effect at once. A
 * password the database hashes itself (the first role's, a new role's, a changed one) is
 * remembered as checked, so logging in with it right after costs no second hash.
 *
 * New hashes are made at the cost the server chose (its `password-hashing` parameter); hashes
 * keep their own parameters, so each verifies at the cost it was made with.
 * @module
 */
import { hash, randomBytes } from 'node:crypto';
import { AccessDeniedError, AuthenticationError, BadRequestError, DuplicateResourceError, UnknownResourceError } from '../model/errors.js';
import { DEFAULT_SCRYPT_COST, formatPasswordHash, hashPassword, parsePasswordHash, passwordMatches, type PasswordHash, type ScryptCost } from './password-hash.js';
import { parseResourceSpecifier, type ResourcePath, resourceName, type ResourceSpecifier, specifierCovers, specifierMatches, specifierParts } from './resource-specifiers.js';

/** The name of the role used for requests without credentials (only when it exists). */
export const GUEST_ROLE = 'guest';

/** An access type of a privilege. `full` stands for all the others but is stored on its own. */
export type AccessType = 'read' | 'write' | 'grant' | 'full';

/** The access types, in their canonical order. */
export const ACCESS_TYPES: readonly AccessType[] = ['read', 'write', 'grant', 'full'];

/** How a role's password is given when it is created. */
export type PasswordSpecificationType = 'password' | 'password-hash' | 'none';

/** One privilege of a role: a resource specifier and the access types granted on it. */
export interface Privilege {
  /** The resource specifier, in canonical form. */
  readonly resourceSpecifier: string;
  /** The access types (canonical order). */
  readonly accessTypes: readonly AccessType[];
}

/** What describes a role. */
export interface RoleDescription {
  /** The role's name. */
  readonly name: string;
  /** The password hash (PHC string), or undefined for a role without a password. */
  readonly passwordHash: string | undefined;
}

interface RoleRecord {
  readonly name: string;
  /** Distinguishes a role from an earlier role of the same name (connections check it). */
  readonly incarnation: number;
  credential: PasswordHash | undefined;
  /** Privileges by canonical specifier text. */
  readonly privileges: Map<string, { readonly spec: ResourceSpecifier; readonly types: Set<AccessType> }>;
  /** The roles this role is a member of (direct). */
  readonly memberOf: Set<string>;
}

interface EffectivePrivilege {
  readonly spec: ResourceSpecifier;
  readonly types: ReadonlySet<AccessType>;
}

/** One role as the server directory keeps it (see {@link RoleDatabase.exportState}). */
export interface PersistedRole {
  /** The role's name. */
  readonly name: string;
  /** Its password hash as a PHC string, or null for a role without a password. */
  readonly passwordHash: string | null;
  /** Its privileges: specifier text and access types. */
  readonly privileges: ReadonlyArray<{ readonly resourceSpecifier: string; readonly accessTypes: readonly AccessType[] }>;
  /** The roles it is a direct member of. */
  readonly memberOf: readonly string[];
}

const VERIFIED_LIMIT = 10_000;

/** Parses a comma-separated list of access types. */
export function parseAccessTypes(text: string | readonly string[]): AccessType[] {
  const items = (typeof text === 'string' ? text.split(',') : [...text]).map((t) => t.trim()).filter((t) => t !== '');
  if (items.length === 0) throw new BadRequestError('no access type given: use read, write, grant or full (comma-separated)');
  for (const t of items) if (!(ACCESS_TYPES as readonly string[]).includes(t)) throw new BadRequestError(`unknown access type '${t}' (expected read, write, grant or full)`);
  return ACCESS_TYPES.filter((t) => items.includes(t));
}

function checkRoleName(name: string): void {
  if (typeof name !== 'string' || name === '') throw new BadRequestError('a role name must not be empty');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new BadRequestError(`invalid role name ${JSON.stringify(name)}: control characters are not allowed`);
  if (name.length > 256) throw new BadRequestError('a role name must not be longer than 256 characters');
}

/** The roles of a server with their privileges and memberships. */
export class RoleDatabase {
  private readonly roles = new Map<string, RoleRecord>();
  private nextIncarnation = 1;
  private changes = 0;
  /** Effective privileges per role, valid for {@link RoleDatabase.generation} `effectiveAt`. */
  private effective = new Map<string, readonly EffectivePrivilege[]>();
  /** Answers of {@link RoleDatabase.allowsAll} (specifiers are few per store), valid with `effective`. */
  private coverage = new Map<string, boolean>();
  private effectiveAt = -1;
  /** Successful password checks: a keyed SHA-256 of name and password → the credential checked. */
  private readonly verified = new Map<string, PasswordHash>();
  private readonly verifiedKey = randomBytes(32).toString('base64');
  /** A hash checked against when the role is unknown or has no password. */
  private dummy: Promise<PasswordHash> | undefined;
  private hashes = 0;
  /** Whether requests without credentials are refused even while the guest role exists. */
  private guestRefused = false;

  /** Creates an empty role database whose new password hashes cost `hashing`. */
  constructor(private readonly hashing: ScryptCost = DEFAULT_SCRYPT_COST) {}

  /** @internal Called after every change (the server persists the database from it). */
  onChange: (() => void) | undefined = undefined;
  /**
   * Called before every change a role asks for (not the server's own `…Unchecked` set-up);
   * throws to refuse it (a replica of a replicated server refuses them: `ReplicaWriteError`).
   */
  writeGuard: (() => void) | undefined = undefined;

  /** @internal Every role with its hash, privileges and memberships, for the server directory. */
  exportState(): PersistedRole[] {
    return [...this.roles.values()].map((r) => ({
      name: r.name,
      passwordHash: r.credential === undefined ? null : formatPasswordHash(r.credential),
      privileges: [...r.privileges.values()].map((p) => ({ resourceSpecifier: p.spec.text, accessTypes: [...p.types] })),
      memberOf: [...r.memberOf],
    }));
  }

  /**
   * @internal Replaces the database with roles read from the server directory (no change is
   * reported). @throws BadRequestError naming the role when an entry is malformed.
   */
  importState(roles: readonly PersistedRole[]): void {
    this.roles.clear();
    this.verified.clear();
    for (const role of roles) {
      if (typeof role.name !== 'string' || !Array.isArray(role.privileges) || !Array.isArray(role.memberOf)) throw new BadRequestError(`invalid role entry ${JSON.stringify(role.name)}`);
      const record = this.insert(role.name, role.passwordHash === null ? undefined : parsePasswordHash(role.passwordHash));
      const privileges: PersistedRole['privileges'] = role.privileges;
      const memberOf: readonly string[] = role.memberOf;
      for (const p of privileges) record.privileges.set(parseResourceSpecifier(p.resourceSpecifier).text, { spec: parseResourceSpecifier(p.resourceSpecifier), types: new Set(parseAccessTypes(p.accessTypes)) });
      for (const m of memberOf) record.memberOf.add(m);
    }
    this.changes++;
  }

  /** A number that changes with every change of roles, passwords, privileges or memberships. */
  get generation(): number {
    return this.changes;
  }

  /**
   * @internal Continues the generation from `generation` (read from the server directory), so
   * that it never goes backwards across a restart. A smaller number is ignored.
   */
  restoreGeneration(generation: number): void {
    if (Number.isSafeInteger(generation) && generation > this.changes) this.changes = generation;
  }

  /**
   * The number of password hashes computed so far: hashes derived from a password (new
   * passwords, the stand-in hash for unknown roles) and passwords verified against a hash.
   * A diagnostic (listed in the server's component information).
   */
  get passwordHashesComputed(): number {
    return this.hashes;
  }

  /** Derives a new password hash at the database's cost, or at `cost` (counted). */
  private derive(password: string, cost: ScryptCost = this.hashing): Promise<PasswordHash> {
    this.hashes++;
    return hashPassword(password, cost);
  }

  /** Checks a password against a hash (counted). */
  private verify(password: string, credential: PasswordHash): Promise<boolean> {
    this.hashes++;
    return passwordMatches(password, credential);
  }

  private changed(): void {
    this.changes++;
    this.onChange?.();
  }

  // ---- authentication ----

  /**
   * Checks a role's password and returns the role's incarnation (what connections keep to
   * notice that the role was deleted). A role without a password cannot log in.
   * @throws AuthenticationError, the same for an unknown role and a wrong password.
   */
  async authenticate(name: string, password: string): Promise<number> {
    const record = this.roles.get(name);
    const key = this.verifiedKeyOf(name, password);
    if (record?.credential !== undefined && this.verified.get(key) === record.credential) return record.incarnation;
    // an unknown role is hashed too, so that timing does not tell which roles exist
    this.dummy ??= this.derive('');
    const credential = record?.credential ?? (await this.dummy);
    const ok = (await this.verify(password, credential)) && record?.credential === credential && this.roles.get(name) === record;
    if (!ok || record === undefined) throw new AuthenticationError(`invalid role name or password for role '${name}'`);
    this.remember(key, credential);
    return record.incarnation;
  }

  /** A keyed hash of name and password, so that the passwords themselves are not kept. */
  private verifiedKeyOf(name: string, password: string): string {
    return hash('sha256', `${this.verifiedKey}\0${name}\0${password}`, 'base64');
  }

  /** Remembers that a password (by its keyed hash) matches a credential. */
  private remember(key: string, credential: PasswordHash): void {
    if (this.verified.size >= VERIFIED_LIMIT) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(key, credential);
  }

  /** Remembers a role's new password as checked (its hash was just made from it). */
  private rememberNew(name: string, password: string, credential: PasswordHash): void {
    this.remember(this.verifiedKeyOf(name, password), credential);
  }

  /**
   * The incarnation of the guest role, for a request without credentials.
   * @throws AuthenticationError when the server has no guest role.
   */
  guest(): number {
    if (this.guestRefused) throw new AuthenticationError('authentication required: this server refuses requests without credentials');
    const record = this.roles.get(GUEST_ROLE);
    if (!record) throw new AuthenticationError(`authentication required: this server has no '${GUEST_ROLE}' role, so requests without credentials are refused`);
    return record.incarnation;
  }

  /**
   * @internal Refuses requests without credentials from now on, even while the role `guest`
   * exists: {@link RoleDatabase.guest} fails as on a server without it (connections opened as
   * `guest` before stay open). The role and its privileges are kept, saved and managed as
   * before; the refusal is not saved with them and lasts as long as this database. For a run
   * that must answer no anonymous request on roles loaded from a server directory (`quadlog
   * serve --no-guest`).
   */
  refuseGuest(): void {
    this.guestRefused = true;
  }

  /** @internal Whether {@link RoleDatabase.refuseGuest} was called. */
  get refusesGuest(): boolean {
    return this.guestRefused;
  }

  /** Whether the role `name` is still the role a connection opened as `incarnation`. */
  isCurrent(name: string, incarnation: number): boolean {
    return this.roles.get(name)?.incarnation === incarnation;
  }

  /**
   * Changes a role's own password.
   * @throws AuthenticationError when the old password is wrong; BadRequestError for a role without a password or an empty new one.
   */
  async changePassword(name: string, oldPassword: string, newPassword: string): Promise<void> {
    this.writeGuard?.();
    await this.authenticate(name, oldPassword);
    if (newPassword === '') throw new BadRequestError('the new password must not be empty');
    const credential = await this.derive(newPassword);
    const record = this.roles.get(name);
    if (!record) throw new AuthenticationError(`invalid role name or password for role '${name}'`);
    record.credential = credential;
    this.rememberNew(name, newPassword, credential);
    this.changed();
  }

  // ---- authorization ----

  /** Whether a role may access a resource in a way (directly or through its memberships). */
  allows(role: string, resource: ResourcePath, access: AccessType): boolean {
    for (const p of this.effectiveOf(role)) {
      if ((p.types.has(access) || p.types.has('full')) && specifierMatches(p.spec, resource)) return true;
    }
    return false;
  }

  /**
   * Whether a role may access every resource a specifier names (e.g. every named graph,
   * `|datastores|ds|namedgraphs|*`).
   */
  allowsAll(role: string, spec: ResourceSpecifier, access: AccessType): boolean {
    const privileges = this.effectiveOf(role);
    const key = `${access}\0${role}\0${spec.text}`;
    let answer = this.coverage.get(key);
    if (answer === undefined) {
      const usable = privileges.filter((p) => p.types.has(access) || p.types.has('full'));
      const covered = (s: ResourceSpecifier): boolean => usable.some((p) => specifierCovers(p.spec, s)) || (specifierParts(s)?.every(covered) ?? false);
      answer = covered(spec);
      if (this.coverage.size >= VERIFIED_LIMIT) this.coverage.clear();
      this.coverage.set(key, answer);
    }
    return answer;
  }

  /**
   * Checks a privilege.
   * @throws AccessDeniedError naming the role, the access type and the resource.
   */
  require(role: string, resource: ResourcePath, access: AccessType): void {
    if (!this.allows(role, resource, access)) throw new AccessDeniedError(`role '${role}' has no ${access} access to '${resourceName(resource)}'`);
  }

  private effectiveOf(role: string): readonly EffectivePrivilege[] {
    if (this.effectiveAt !== this.changes) {
      this.effective = new Map();
      this.coverage = new Map();
      this.effectiveAt = this.changes;
    }
    let list = this.effective.get(role);
    if (list === undefined) {
      const collected: EffectivePrivilege[] = [];
      for (const name of this.closure(role)) for (const p of this.roles.get(name)!.privileges.values()) collected.push(p);
      list = collected;
      this.effective.set(role, list);
    }
    return list;
  }

  /** A role and every role it is a member of, transitively. */
  private closure(role: string): Set<string> {
    const seen = new Set<string>();
    const stack = [role];
    while (stack.length > 0) {
      const name = stack.pop()!;
      const record = this.roles.get(name);
      if (!record || seen.has(name)) continue;
      seen.add(name);
      stack.push(...record.memberOf);
    }
    return seen;
  }

  // ---- roles ----

  /**
   * Creates the first role of a server, with `full` access to everything (`>`); its password
   * hash costs `cost` (the database's cost unless given).
   */
  async createFirst(name: string, password: string, cost: ScryptCost = this.hashing): Promise<void> {
    checkRoleName(name);
    if (this.roles.size > 0) throw new BadRequestError('the first role can only be created while the server has no roles');
    const credential = await this.derive(password, cost);
    this.insert(name, credential).privileges.set('>', { spec: parseResourceSpecifier('>'), types: new Set(['full']) });
    this.rememberNew(name, password, credential);
    this.changed();
  }

  /**
   * Gives an existing role a new password without the old one, its hash costing `cost` (for
   * the server's own set-up: `open()` on a server directory gives its role a fresh random
   * secret). The change is not reported to {@link RoleDatabase.onChange}.
   * @throws UnknownResourceError when the role does not exist.
   */
  async resetPasswordUnchecked(name: string, password: string, cost: ScryptCost): Promise<void> {
    const record = this.record(name);
    const credential = await this.derive(password, cost);
    record.credential = credential;
    this.rememberNew(name, password, credential);
    this.changes++;
  }

  /** Creates a role without checking privileges (for the server's own set-up, e.g. the guest role). */
  createUnchecked(name: string): void {
    checkRoleName(name);
    if (this.roles.has(name)) throw new DuplicateResourceError(`role '${name}' already exists`);
    this.insert(name, undefined);
    this.changed();
  }

  /** Grants a privilege without checking the grantor (for the server's own set-up). */
  grantUnchecked(role: string, specifier: string, accessTypes: readonly AccessType[]): void {
    this.addPrivilege(this.record(role), parseResourceSpecifier(specifier), accessTypes);
  }

  /**
   * Creates a role: with a password, from a password hash (as {@link RoleDatabase.describe}
   * exports it), or without a password (it cannot log in; it holds privileges for members).
   */
  async create(actor: string, name: string, password: string | undefined, type: PasswordSpecificationType): Promise<void> {
    this.writeGuard?.();
    this.require(actor, ['roles'], 'write');
    checkRoleName(name);
    let credential: PasswordHash | undefined;
    if (type === 'password') {
      if (password === undefined || password === '') throw new BadRequestError(`a password is required to create role '${name}' (or use password-specification-type=none)`);
      credential = await this.derive(password);
    } else if (type === 'password-hash') {
      credential = parsePasswordHash(password ?? '');
    } else if (type === 'none') {
      if (password !== undefined && password !== '') throw new BadRequestError(`role '${name}' is created without a password, but a password was given`);
    } else throw new BadRequestError(`unknown password-specification-type '${String(type)}' (expected password, password-hash or none)`);
    if (this.roles.has(name)) throw new DuplicateResourceError(`role '${name}' already exists`);
    this.insert(name, credential);
    if (type === 'password' && password !== undefined && credential !== undefined) this.rememberNew(name, password, credential);
    this.changed();
  }

  private insert(name: string, credential: PasswordHash | undefined): RoleRecord {
    const record: RoleRecord = { name, incarnation: this.nextIncarnation++, credential, privileges: new Map(), memberOf: new Set() };
    this.roles.set(name, record);
    return record;
  }

  /** Deletes a role; it leaves every role it was a member of, and its members lose what it gave them. */
  delete(actor: string, name: string): void {
    this.writeGuard?.();
    this.require(actor, ['roles'], 'write');
    this.require(actor, ['roles', name], 'write');
    this.record(name);
    this.roles.delete(name);
    for (const other of this.roles.values()) other.memberOf.delete(name);
    this.changed();
  }

  /** The names of the roles (read on `|roles`). */
  list(actor: string): string[] {
    this.require(actor, ['roles'], 'read');
    return [...this.roles.keys()];
  }

  /** Whether a role exists. */
  has(name: string): boolean {
    return this.roles.has(name);
  }

  /** A role's name and password hash (read on the role). */
  describe(actor: string, name: string): RoleDescription {
    this.require(actor, ['roles', name], 'read');
    const record = this.record(name);
    return { name, passwordHash: record.credential === undefined ? undefined : formatPasswordHash(record.credential) };
  }

  private record(name: string): RoleRecord {
    const record = this.roles.get(name);
    if (!record) throw new UnknownResourceError(`role '${name}' does not exist`);
    return record;
  }

  // ---- privileges ----

  /** The privileges granted to a role directly (read on the role). */
  privileges(actor: string, name: string): Privilege[] {
    this.require(actor, ['roles', name], 'read');
    return [...this.record(name).privileges.values()].map((p) => ({ resourceSpecifier: p.spec.text, accessTypes: ACCESS_TYPES.filter((t) => p.types.has(t)) }));
  }

  /**
   * Grants access types on a resource specifier to a role; returns whether anything changed.
   * Needs grant on every resource the specifier names and write on the role.
   */
  grant(actor: string, name: string, specifier: string, accessTypes: readonly AccessType[]): boolean {
    this.writeGuard?.();
    const { record, spec } = this.checkGrant(actor, name, specifier, accessTypes, 'grant');
    return this.addPrivilege(record, spec, accessTypes);
  }

  /** Revokes access types granted explicitly; returns whether anything changed. */
  revoke(actor: string, name: string, specifier: string, accessTypes: readonly AccessType[]): boolean {
    this.writeGuard?.();
    const { record, spec } = this.checkGrant(actor, name, specifier, accessTypes, 'revoke');
    const held = record.privileges.get(spec.text);
    if (!held) return false;
    let changed = false;
    for (const t of accessTypes) changed = held.types.delete(t) || changed;
    if (held.types.size === 0) record.privileges.delete(spec.text);
    if (changed) this.changed();
    return changed;
  }

  private checkGrant(actor: string, name: string, specifier: string, accessTypes: readonly AccessType[], verb: string): { record: RoleRecord; spec: ResourceSpecifier } {
    const spec = parseResourceSpecifier(specifier);
    if (accessTypes.length === 0) throw new BadRequestError('no access type given: use read, write, grant or full');
    if (actor === name) throw new AccessDeniedError(`role '${actor}' cannot ${verb} its own privileges`);
    if (!this.allowsAll(actor, spec, 'grant')) throw new AccessDeniedError(`role '${actor}' has no grant access to '${spec.text}'`);
    this.require(actor, ['roles', name], 'write');
    return { record: this.record(name), spec };
  }

  private addPrivilege(record: RoleRecord, spec: ResourceSpecifier, accessTypes: readonly AccessType[]): boolean {
    let held = record.privileges.get(spec.text);
    if (!held) {
      held = { spec, types: new Set() };
      record.privileges.set(spec.text, held);
    }
    let changed = false;
    for (const t of accessTypes) {
      if (!held.types.has(t)) {
        held.types.add(t);
        changed = true;
      }
    }
    if (changed) this.changed();
    return changed;
  }

  // ---- memberships ----

  /** The roles a role is a direct member of (read on the role). */
  memberships(actor: string, name: string): string[] {
    this.require(actor, ['roles', name], 'read');
    return [...this.record(name).memberOf];
  }

  /** The roles that are direct members of a role (read on the role). */
  members(actor: string, name: string): string[] {
    this.require(actor, ['roles', name], 'read');
    this.record(name);
    return [...this.roles.values()].filter((r) => r.memberOf.has(name)).map((r) => r.name);
  }

  /**
   * Makes `member` a member of `superRole` (it inherits every privilege of it); returns
   * whether anything changed. Needs grant on the super role and write on the member; a
   * membership that would close a cycle is refused.
   */
  grantMembership(actor: string, member: string, superRole: string): boolean {
    this.writeGuard?.();
    const record = this.checkMembership(actor, member, superRole, 'grant');
    if (record.memberOf.has(superRole)) return false;
    if (member === superRole || this.closure(superRole).has(member)) {
      throw new BadRequestError(`role '${member}' cannot become a member of '${superRole}': '${superRole}' is already ${member === superRole ? 'the same role' : `a member of '${member}' (directly or through other roles)`}, and memberships may not form a cycle`);
    }
    record.memberOf.add(superRole);
    this.changed();
    return true;
  }

  /** Ends a direct membership; returns whether there was one. */
  revokeMembership(actor: string, member: string, superRole: string): boolean {
    this.writeGuard?.();
    const record = this.checkMembership(actor, member, superRole, 'revoke');
    if (!record.memberOf.delete(superRole)) return false;
    this.changed();
    return true;
  }

  private checkMembership(actor: string, member: string, superRole: string, verb: string): RoleRecord {
    if (actor === member) throw new AccessDeniedError(`role '${actor}' cannot ${verb} its own memberships`);
    this.require(actor, ['roles', superRole], 'grant');
    this.require(actor, ['roles', member], 'write');
    this.record(superRole);
    return this.record(member);
  }
}
