import { MEMBER, ORGANIZATION } from '@quire/proto/limits';
import { AlreadyExistsError, checkLength, NotFoundError } from '@quire/service-kit';
import { Role } from '@quire/policy';
import { newId } from '@quire/service-kit/ids';
import { hashToken, newApiToken } from './ids.ts';
import { checkNewPassword, hashPassword } from './passwords.ts';
import { roleToDb } from './roles.ts';
import { checkEmail } from './validate.ts';
import type { Store } from '../store/index.ts';

// Operator actions behind the CLI and the first-start bootstrap; no caller, no policy.

export async function createUser(store: Store, email: string, displayName: string, password?: string) {
  const e = checkEmail(email);
  const name = checkLength('name', displayName, MEMBER.displayName);
  const passwordHash = password === undefined ? undefined : await hashPassword(checkNewPassword('password', password));
  if (await store.findUserByEmail(e)) throw new AlreadyExistsError(`A user with email ${e} exists`);
  return store.createUser({ id: newId(), email: e, displayName: name, passwordHash });
}

/** Sets (or replaces) the user's password; the user's sessions stay (the CLI has no NATS to end them everywhere at once). */
export async function setPassword(store: Store, email: string, password: string) {
  const user = await userByEmail(store, email);
  return store.setPasswordHash(user.id, await hashPassword(checkNewPassword('password', password)));
}

async function userByEmail(store: Store, email: string) {
  const user = await store.findUserByEmail(checkEmail(email));
  if (!user) throw new NotFoundError(`No user with email ${email}`);
  return user;
}

export async function createOrganization(store: Store, title: string, ownerEmail: string) {
  const owner = await userByEmail(store, ownerEmail);
  return store.createOrganization({ id: newId(), title: checkLength('title', title, ORGANIZATION.title), emailDomains: [], ownerId: owner.id });
}

export async function addMember(store: Store, organizationId: string, email: string, role: Role) {
  const user = await userByEmail(store, email);
  return store.addMember(organizationId, user.id, roleToDb(role));
}

/** Creates a token for the user; the returned token is the only copy (only its hash is kept). */
export async function createToken(store: Store, email: string, token = newApiToken()) {
  const user = await userByEmail(store, email);
  await store.createToken(user.id, newId(), hashToken(token), 'cli');
  return { token, user };
}

export const BOOTSTRAP_EMAIL = 'admin@quire.local';

/**
 * First start: with an empty database and a bootstrap token, creates an admin user (with the
 * password, when given), an organization and that token. Returns false when there was nothing to do.
 */
export async function bootstrap(store: Store, token: string, password?: string): Promise<boolean> {
  if ((await store.countOrganizations()) > 0) return false;
  const email = BOOTSTRAP_EMAIL;
  const user = (await store.findUserByEmail(email)) ?? (await createUser(store, email, 'Admin', password));
  await store.createOrganization({ id: newId(), title: 'My organization', emailDomains: [], ownerId: user.id });
  await store.createToken(user.id, newId(), hashToken(token), 'bootstrap');
  return true;
}
