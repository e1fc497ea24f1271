/**
 * Roles, privileges, memberships and passwords over HTTP:
 *
 * | path | method | API call | response |
 * |---|---|---|---|
 * | /roles | GET | listRoles() | column Name |
 * | /roles/<r> | GET | describeRole() | Property, Value (name, password-hash) |
 * | /roles/<r> | POST | createRole(); body: the password (text/plain), `password-specification-type=password\|password-hash\|none` | 201, Location |
 * | /roles/<r> | DELETE | deleteRole() | 204 |
 * | /roles/<r>/privileges | GET | listPrivileges() | ResourceSpecifier, AllowedAccessTypes |
 * | /roles/<r>/privileges | PATCH `operation=grant\|revoke&resource-specifier=…&access-types=…` | grantPrivileges() / revokePrivileges() | 200, Changed |
 * | /roles/<r>/memberships | GET | listRoleMemberships() | column Name |
 * | /roles/<r>/memberships | PATCH `operation=grant\|revoke&super-role-name=…` | grantRole() / revokeRole() | 200, Changed |
 * | /roles/<r>/members | GET | listRoleMembers() | column Name |
 * | /password | PUT; body `old\nnew` | changeRolePassword() | 204 |
 * @module
 */
import { BadRequestError, type PasswordSpecificationType } from '../../index.js';
import { type Exchange, type Handler, httpExchange, resourcePath, stringTerm } from '../exchange.js';

const PASSWORD_TYPES: readonly PasswordSpecificationType[] = ['password', 'password-hash', 'none'];

/** Serves `/roles`: GET the names (column Name). */
export const handleRoles: Handler = async (exchange: Exchange): Promise<void> => {
  const names = await exchange.withServerConnection((c) => Promise.resolve(c.listRoles()));
  await exchange.sendTable(['Name'], names.map((n) => [stringTerm(n)]));
};

/** Serves `/roles/<r>`: GET its description, POST creates it, DELETE deletes it. */
export const handleRole: Handler = async (exchange: Exchange, role: string): Promise<void> => {
  switch (exchange.method) {
    case 'GET': {
      const description = await exchange.withServerConnection((c) => Promise.resolve(c.describeRole(role)));
      await exchange.sendTable(['Property', 'Value'], [
        [stringTerm('name'), stringTerm(description.name)],
        [stringTerm('password-hash'), description.passwordHash === undefined ? undefined : stringTerm(description.passwordHash)],
      ]);
      return;
    }
    case 'POST': {
      const type = (httpExchange(exchange).param('password-specification-type') ?? 'password') as PasswordSpecificationType;
      if (!PASSWORD_TYPES.includes(type)) throw new BadRequestError(`invalid password-specification-type '${type}' (expected ${PASSWORD_TYPES.join(', ')})`);
      // a password given as a form body is the parameter `password`; otherwise the body is the password
      const body = httpExchange(exchange).param('password') ?? (await httpExchange(exchange).readText(64 * 1024));
      const password = body.replace(/\r?\n$/, '');
      await exchange.withServerConnection((c) => c.createRole(role, type === 'none' && password === '' ? undefined : password, type));
      exchange.sendStatus(201, { Location: resourcePath('roles', role) });
      return;
    }
    default:
      await exchange.withServerConnection((c) => Promise.resolve(c.deleteRole(role)));
      exchange.sendStatus(204);
  }
};

function grantOrRevoke(exchange: Exchange): 'grant' | 'revoke' {
  const operation = httpExchange(exchange).requiredParam('operation', 'grant or revoke');
  if (operation !== 'grant' && operation !== 'revoke') throw new BadRequestError(`unknown operation '${operation}' (expected grant or revoke)`);
  return operation;
}

/** Serves `/roles/<r>/privileges`: GET the privileges, PATCH grants or revokes one. */
export const handlePrivileges: Handler = async (exchange: Exchange, role: string): Promise<void> => {
  if (exchange.method === 'GET') {
    const privileges = await exchange.withServerConnection((c) => Promise.resolve(c.listPrivileges(role)));
    await exchange.sendTable(['ResourceSpecifier', 'AllowedAccessTypes'], privileges.map((p) => [stringTerm(p.resourceSpecifier), stringTerm(p.accessTypes.join(','))]));
    return;
  }
  const operation = grantOrRevoke(exchange);
  const specifier = httpExchange(exchange).requiredParam('resource-specifier', "e.g. '|datastores|mystore' or '>datastores'");
  const accessTypes = httpExchange(exchange).requiredParam('access-types', 'read, write, grant, full; comma-separated');
  const changed = await exchange.withServerConnection((c) =>
    Promise.resolve(operation === 'grant' ? c.grantPrivileges(role, specifier, accessTypes) : c.revokePrivileges(role, specifier, accessTypes)),
  );
  await exchange.sendChanged(changed);
};

/** Serves `/roles/<r>/memberships`: GET the roles it is a member of, PATCH grants or revokes one. */
export const handleMemberships: Handler = async (exchange: Exchange, role: string): Promise<void> => {
  if (exchange.method === 'GET') {
    const names = await exchange.withServerConnection((c) => Promise.resolve(c.listRoleMemberships(role)));
    await exchange.sendTable(['Name'], names.map((n) => [stringTerm(n)]));
    return;
  }
  const operation = grantOrRevoke(exchange);
  const superRole = httpExchange(exchange).requiredParam('super-role-name', 'the role to grant or revoke membership of');
  const changed = await exchange.withServerConnection((c) => Promise.resolve(operation === 'grant' ? c.grantRole(role, superRole) : c.revokeRole(role, superRole)));
  await exchange.sendChanged(changed);
};

/** Serves `/roles/<r>/members`: GET the roles that are members of it. */
export const handleMembers: Handler = async (exchange: Exchange, role: string): Promise<void> => {
  const names = await exchange.withServerConnection((c) => Promise.resolve(c.listRoleMembers(role)));
  await exchange.sendTable(['Name'], names.map((n) => [stringTerm(n)]));
};

/** Serves `/password`: PUT `old\nnew` changes the password of the authenticated role. */
export const handlePassword: Handler = async (exchange: Exchange): Promise<void> => {
  const body = await httpExchange(exchange).readText(64 * 1024);
  const m = /^([^\r\n]*)\r?\n([^\r\n]*)\r?\n?$/.exec(body);
  if (!m) throw new BadRequestError('the body must be the current password and the new password on two lines (old\\nnew)');
  await exchange.withServerConnection((c) => c.changeRolePassword(m[1]!, m[2]!));
  exchange.sendStatus(204);
};
