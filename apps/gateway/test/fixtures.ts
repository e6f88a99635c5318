import { running } from '@quire/service-kit/testing';
import type { AddressInfo } from 'node:net';
import type { TestUser } from '@quire/orgs/testing';
import { Role } from '@quire/policy';
import { test as base } from 'vitest';
import { ok, startGateway, type Gateway, type OwnGateway, type SharedStack } from './harness.ts';

// What a test needs, made in an organization of its own: tests never see each other's data, run in
// any order, and a second run finds nothing to clean up.

export type Tenant<N extends string> = { orgId: string; owner: TestUser; outsider: TestUser; otherOrgId: string } & Record<N, TestUser>;

/**
 * A new organization (`title`) owned (as admin) by a new user, with a new member at each role of
 * `members` (named by its key), and an outsider who owns an organization of their own.
 */
export async function tenant<N extends string = never>(
  stack: Pick<SharedStack, 'orgs'>,
  members: Record<N, Role> = {} as Record<N, Role>,
  title = 'Acme Docs',
): Promise<Tenant<N>> {
  const names = Object.keys(members) as N[];
  const [owner, outsider, ...people] = await Promise.all(['owner', 'outsider', ...names].map((name) => stack.orgs.user(name)));
  const [org, other] = await Promise.all([
    stack.orgs.organization(
      owner!,
      names.map((name, i) => [people[i]!, members[name]]),
      title,
    ),
    stack.orgs.organization(outsider!, [], 'Elsewhere'),
  ]);
  return { orgId: org.id, owner: owner!, outsider: outsider!, otherOrgId: other.id, ...(Object.fromEntries(names.map((name, i) => [name, people[i]!])) as Record<N, TestUser>) };
}

/** The roles most tests name: an editor, a commenter and a reader beside the owner. */
export const MEMBERS = { editor: Role.ROLE_EDIT, commenter: Role.ROLE_COMMENT, reader: Role.ROLE_READ };

/** A gateway over the shared stack, and a tenant with `members` in it: a file's `beforeAll` in one call. */
export async function gatewayWithTenant<N extends string = never>(env: Record<string, string> = {}, members: Record<N, Role> = {} as Record<N, Role>) {
  const g = await startGateway(env);
  return { g, ...(await tenant(g, members)) };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the API's JSON as they expect it
type Json = any;

/**
 * `test` with fixtures: `g` (a gateway over the shared stack, one per process); for each test that
 * names them, `team` (a new organization with an owner, an editor, a commenter, a reader and an
 * outsider), `space` (a new space of it, as the API answers), `changeRequest` (one open on that
 * space) and `site` (a new site of the organization); `origin`, where `g` listens on loopback.
 * A file extends it with fixtures of other names: the files of a process share their modules
 * (isolate: false), and vitest then lets one file's override of a name reach the files after it.
 */
export const test = base.extend<{ g: Gateway; team: Tenant<keyof typeof MEMBERS>; space: Json; changeRequest: Json; site: Json; origin: string }>({
  g: [running(() => startGateway()), { scope: 'worker' }],
  team: async ({ g }, use) => use(await tenant(g, MEMBERS)),
  space: async ({ g, team }, use) => use(await ok(g.call(team.owner, 'POST', `/v1/orgs/${team.orgId}/spaces`, { title: 'Handbook' }), 201)),
  changeRequest: async ({ g, team, space }, use) => use(await ok(g.call(team.owner, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Edits' }), 201)),
  site: async ({ g, team }, use) => use(await ok(g.call(team.owner, 'POST', `/v1/orgs/${team.orgId}/sites`, { title: 'Docs site' }), 201)),
  // `g` listening on loopback, for clients over real HTTP: once per process, whichever file asks first.
  origin: [
    async ({ g }, use) => {
      if (!g.app.server.listening) await g.app.listen({ host: '127.0.0.1', port: 0 });
      await use(`http://127.0.0.1:${(g.app.server.address() as AddressInfo).port}`);
    },
    { scope: 'worker' },
  ],
});

type FileFixture<T> = [({}, use: (value: T) => Promise<void>) => Promise<void>, { scope: 'file' }];

/**
 * A fixture of a file's own gateway (`startGateway(env, options)`: its settings, and with `own`
 * services of its own too), started when a test of the file first names it and stopped after the
 * file, so that no other file meets it.
 */
export function ownGateway(env: Record<string, string>): FileFixture<Gateway>;
export function ownGateway(env: Record<string, string>, options: { own: true; orgsEnv?: Record<string, string> }): FileFixture<OwnGateway>;
export function ownGateway(env: Record<string, string>, options?: { own: true; orgsEnv?: Record<string, string> }): FileFixture<Gateway> | FileFixture<OwnGateway> {
  return [
    async ({}, use: (g: OwnGateway & Gateway) => Promise<void>) => {
      const g = options ? await startGateway(env, options) : await startGateway(env);
      await use(g as OwnGateway & Gateway);
      await g.stop();
    },
    { scope: 'file' },
  ];
}
