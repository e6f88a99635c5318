import type { OrgsHarness, TestUser } from '@quire/orgs/testing';
import { Role } from '@quire/policy';
import { test as base } from 'vitest';
import { startGateway, type Gateway } from './harness.ts';

// What a test needs, made in an organization of its own: tests never see each other's data, run in
// any order, and a second run finds nothing to clean up.

export type Tenant<N extends string> = { orgId: string; owner: TestUser; outsider: TestUser; otherOrgId: string } & Record<N, TestUser>;

/**
 * A new organization (`title`) owned (as admin) by a new user, with a new member at each role of
 * `members` (named by its key), and an outsider who owns an organization of their own.
 */
export async function tenant<N extends string = never>(
  stack: { orgs: Pick<OrgsHarness, 'user' | 'organization'> },
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

/** `test` with `g`: a gateway over the run's shared stack, one per process. */
const withGateway = base.extend<{ g: Gateway }>({
  g: [
    async ({}, use) => {
      const g = await startGateway();
      await use(g);
      await g.stop();
    },
    { scope: 'worker' },
  ],
});

/** `test` with `g` and `team`: a new organization for each test, with an owner, a member at each role of `roles` (named by its key) and an outsider. */
export function testWithTeam<N extends string>(roles: Record<N, Role>) {
  return withGateway.extend<{ team: Tenant<N> }>({ team: async ({ g }, use) => use(await tenant(g, roles)) });
}

/** `test` with `g` and `team` of `MEMBERS`: an owner, an editor, a commenter, a reader and an outsider. */
export const test = testWithTeam(MEMBERS);
