/**
 * Model-based property test of the role database: random roles, memberships, grants and
 * revocations (by an administrator and by ordinary roles) are applied to a RoleDatabase and
 * to a small reference model written independently (resource specifiers matched as text
 * patterns, memberships as a plain graph). After every step, for every role, resource and
 * access type, the database must allow exactly what the model allows, and every refused
 * step must be refused by both and change nothing.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { AccessDeniedError, BadRequestError } from '../../lib/model/errors.js';
import { FAST_SCRYPT_COST } from '../../lib/server/password-hash.js';
import { type AccessType, RoleDatabase } from '../../lib/server/roles.js';

const ADMIN = 'admin';
const ROLES = ['r1', 'r2', 'r3', 'r4'] as const;
type Role = (typeof ROLES)[number];
const TYPES: readonly AccessType[] = ['read', 'write', 'grant', 'full'];
const CHECKED: readonly AccessType[] = ['read', 'write', 'grant'];

/** The specifiers the test grants (simple names, so that the model needs no escaping). */
const SPECS = ['>', '|', '|datastores', '>datastores', '|datastores|*', '>datastores|*', '|datastores|a', '>datastores|a', '|datastores|b', '|datastores|a|rules',
  '>datastores|a|tupletables', '|datastores|a|tupletables|*', '|datastores|a|tupletables|T', '|roles', '|roles|*', '>roles', '|roles|r1', '|roles|r2', '|requests'];

/** The resources checked, including elements no specifier names (`zz`). */
const RESOURCES = ['|', '|requests', '|datastores', '|datastores|a', '|datastores|b', '|datastores|zz', '|datastores|a|rules', '|datastores|b|rules', '|datastores|a|tupletables',
  '|datastores|a|tupletables|T', '|datastores|a|tupletables|U', '|datastores|b|tupletables|T', '|roles', '|roles|r1', '|roles|r2', '|roles|r3', '|roles|r4', '|roles|zz'];

const path = (name: string): string[] => (name === '|' ? [] : name.slice(1).split('|'));

/** The model's reading of a specifier: a regular expression over resource names. */
function specPattern(spec: string): RegExp {
  const recursive = spec.startsWith('>');
  const body = spec.slice(1);
  const literal = body.split('|').map((s) => (s === '*' ? '[^|]+' : s.replace(/[.*+?^${}()[\]\\]/g, '\\$&'))).join('\\|');
  if (body === '') return recursive ? /^\|.*$/ : /^\|$/;
  return new RegExp(`^\\|${literal}${recursive ? '(\\|.*)?' : ''}$`);
}

class Model {
  readonly privileges = new Map<string, Map<string, Set<AccessType>>>([[ADMIN, new Map([['>', new Set<AccessType>(['full'])]])]]);
  readonly memberOf = new Map<string, Set<string>>([[ADMIN, new Set()]]);

  exists(role: string): boolean {
    return this.privileges.has(role);
  }

  supers(role: string): Set<string> {
    const seen = new Set<string>();
    const visit = (r: string): void => {
      if (seen.has(r) || !this.exists(r)) return;
      seen.add(r);
      for (const s of this.memberOf.get(r) ?? []) visit(s);
    };
    visit(role);
    return seen;
  }

  allows(role: string, resource: string, access: AccessType): boolean {
    for (const r of this.supers(role)) {
      for (const [spec, types] of this.privileges.get(r)!) if ((types.has(access) || types.has('full')) && specPattern(spec).test(resource)) return true;
    }
    return false;
  }

  /** Grant access on a specifier: on every checked resource it names (the `zz` elements stand for names not seen). */
  mayGrant(actor: string, spec: string): boolean {
    const pattern = specPattern(spec);
    const universe = [...RESOURCES, '|datastores|a|tupletables|zz', '|datastores|zz|rules', '|datastores|zz|tupletables|T', '|datastores|a|namedgraphs|<g>', '|datastores|zz|axioms'];
    return universe.filter((r) => pattern.test(r)).every((r) => this.allows(actor, r, 'grant'));
  }
}

type Step =
  | { kind: 'create' | 'delete'; role: Role }
  | { kind: 'grant' | 'revoke'; actor: Role | typeof ADMIN; role: Role; spec: string; types: AccessType[] }
  | { kind: 'join' | 'leave'; actor: Role | typeof ADMIN; member: Role; group: Role };

const roleArb = fc.constantFrom(...ROLES);
const actorArb = fc.oneof({ weight: 2, arbitrary: fc.constant(ADMIN) }, { weight: 3, arbitrary: roleArb });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constantFrom('create' as const, 'delete' as const), role: roleArb }),
  { weight: 4, arbitrary: fc.record({ kind: fc.constantFrom('grant' as const, 'revoke' as const), actor: actorArb, role: roleArb, spec: fc.constantFrom(...SPECS), types: fc.subarray([...TYPES], { minLength: 1 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('join' as const, 'join' as const, 'leave' as const), actor: actorArb, member: roleArb, group: roleArb }) },
);

/** Applies a step to the model; returns the outcome the database must show. */
function applyToModel(model: Model, step: Step): 'changed' | 'unchanged' | 'denied' | 'invalid' | 'unknown' {
  switch (step.kind) {
    case 'create':
      if (model.exists(step.role)) return 'invalid';
      model.privileges.set(step.role, new Map());
      model.memberOf.set(step.role, new Set());
      return 'changed';
    case 'delete':
      if (!model.exists(step.role)) return 'unknown';
      model.privileges.delete(step.role);
      model.memberOf.delete(step.role);
      for (const groups of model.memberOf.values()) groups.delete(step.role);
      return 'changed';
    case 'grant':
    case 'revoke': {
      if (!model.exists(step.actor)) return 'unknown';
      if (step.actor === step.role) return 'denied';
      if (!model.mayGrant(step.actor, step.spec) || !model.allows(step.actor, `|roles|${step.role}`, 'write')) return 'denied';
      if (!model.exists(step.role)) return 'unknown';
      const held = model.privileges.get(step.role)!;
      const types = held.get(step.spec) ?? new Set<AccessType>();
      let changed = false;
      for (const t of step.types) {
        if (step.kind === 'grant' && !types.has(t)) changed = types.add(t) !== undefined;
        if (step.kind === 'revoke' && types.delete(t)) changed = true;
      }
      if (types.size > 0) held.set(step.spec, types);
      else held.delete(step.spec);
      return changed ? 'changed' : 'unchanged';
    }
    default: {
      if (!model.exists(step.actor)) return 'unknown';
      if (step.actor === step.member) return 'denied';
      if (!model.allows(step.actor, `|roles|${step.group}`, 'grant') || !model.allows(step.actor, `|roles|${step.member}`, 'write')) return 'denied';
      if (!model.exists(step.group) || !model.exists(step.member)) return 'unknown';
      const groups = model.memberOf.get(step.member)!;
      if (step.kind === 'leave') return groups.delete(step.group) ? 'changed' : 'unchanged';
      if (groups.has(step.group)) return 'unchanged';
      if (model.supers(step.group).has(step.member)) return 'invalid';
      groups.add(step.group);
      return 'changed';
    }
  }
}

async function applyToDatabase(db: RoleDatabase, step: Step): Promise<'changed' | 'unchanged' | 'denied' | 'invalid' | 'unknown'> {
  try {
    switch (step.kind) {
      case 'create':
        await db.create(ADMIN, step.role, undefined, 'none');
        return 'changed';
      case 'delete':
        db.delete(ADMIN, step.role);
        return 'changed';
      case 'grant':
        return db.grant(step.actor, step.role, step.spec, step.types) ? 'changed' : 'unchanged';
      case 'revoke':
        return db.revoke(step.actor, step.role, step.spec, step.types) ? 'changed' : 'unchanged';
      case 'join':
        return db.grantMembership(step.actor, step.member, step.group) ? 'changed' : 'unchanged';
      default:
        return db.revokeMembership(step.actor, step.member, step.group) ? 'changed' : 'unchanged';
    }
  } catch (e) {
    if (e instanceof AccessDeniedError) return 'denied';
    if (e instanceof BadRequestError || (e as Error).name === 'DuplicateResourceError') return 'invalid';
    if ((e as Error).name === 'UnknownResourceError') return 'unknown';
    throw e;
  }
}

describe('role database (against a reference model)', () => {
  it('allows exactly what the model allows after every grant, revocation and membership change', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 30, size: 'max' }), async (steps) => {
        const db = new RoleDatabase(FAST_SCRYPT_COST);
        await db.createFirst(ADMIN, 'pw');
        const model = new Model();
        // every role exists at the start (steps may delete and create them again)
        for (const role of ROLES) {
          applyToModel(model, { kind: 'create', role });
          await applyToDatabase(db, { kind: 'create', role });
        }
        for (const step of steps) {
          const before = db.generation;
          const expected = applyToModel(model, step);
          const actual = await applyToDatabase(db, step);
          // an unknown actor is refused by the database as lacking every privilege
          expect(actual === 'denied' && expected === 'unknown' && !model.exists('actor' in step ? step.actor : ADMIN) ? 'unknown' : actual, JSON.stringify(step)).to.equal(expected);
          if (expected !== 'changed') expect(db.generation, `a refused or idle step changed the database: ${JSON.stringify(step)}`).to.equal(before);
          for (const role of [ADMIN, ...ROLES]) {
            for (const resource of RESOURCES) {
              for (const access of CHECKED) {
                expect(db.allows(role, path(resource), access), `${role} ${access} ${resource} after ${JSON.stringify(step)}`).to.equal(model.exists(role) && model.allows(role, resource, access));
              }
            }
          }
        }
      }),
      {
        numRuns: 100,
        examples: [
          // a grant on '>datastores' is covered by two privileges together ('|datastores' and '>datastores|*') and by neither alone
          [[
            { kind: 'grant', actor: ADMIN, role: 'r1', spec: '|datastores', types: ['full'] },
            { kind: 'grant', actor: ADMIN, role: 'r1', spec: '>datastores|*', types: ['grant'] },
            { kind: 'grant', actor: ADMIN, role: 'r1', spec: '>', types: ['write'] },
            { kind: 'join', actor: ADMIN, member: 'r2', group: 'r1' },
            { kind: 'grant', actor: 'r2', role: 'r1', spec: '>datastores', types: ['full'] },
          ]],
        ],
      },
    );
  });
});
