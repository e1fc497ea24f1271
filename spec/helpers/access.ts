/**
 * Test helpers for access control: everything a call could change in a store and its roles,
 * as text (to compare before and after a refused call), and a role granted exactly some
 * privileges, directly or through a password-less group.
 * @module
 */
import type { ServerConnection } from '../../lib/index.js';

/** The stores and roles whose names start with `name`, and the store `name`'s whole state, as text. */
export async function stateOf(admin: ServerConnection, name: string): Promise<string> {
  const roles = admin.listRoles().filter((r) => r.startsWith(name)).sort();
  const parts: string[] = [JSON.stringify(admin.listDataStores().filter((s) => s.startsWith(name))), JSON.stringify(roles)];
  for (const role of roles) parts.push(JSON.stringify([admin.listPrivileges(role), admin.listRoleMemberships(role)]));
  if (admin.listDataStores().includes(name)) {
    const ds = admin.newDataStoreConnection(name);
    try {
      parts.push(await ds.exportDataToString('application/n-quads'), await ds.exportDataToString('application/x.datalog'), JSON.stringify([...(await ds.getPrefixes())]), await ds.getBaseIRI());
      parts.push(JSON.stringify(await ds.listTupleTables()), String(await ds.getCommitProcedure()), JSON.stringify(await ds.listAxioms()), JSON.stringify(await ds.listStatistics()));
    } finally {
      ds.close();
    }
  }
  return parts.join('\n');
}

/**
 * Creates the role `role` with the password whose hash is `hash`, holding `needs` (pairs of
 * resource specifier and access types; `%s` stands for `store`), granted directly or, with
 * `viaGroup`, to a password-less role it is made a member of.
 */
export async function grantedRole(admin: ServerConnection, role: string, hash: string, store: string, needs: ReadonlyArray<readonly [string, string]>, viaGroup: boolean): Promise<void> {
  await admin.createRole(role, hash, 'password-hash');
  let holder = role;
  if (viaGroup) {
    holder = `${role}-group`;
    await admin.createRole(holder);
    admin.grantRole(role, holder);
  }
  for (const [spec, access] of needs) admin.grantPrivileges(holder, spec.replace(/%s/g, store), access);
}
