import { randomBytes } from 'node:crypto';
import { OrgsServiceClient } from '@quire/proto/orgs';
import { createLogger, startGrpcServer } from '@quire/service-kit';
import { Role } from '@quire/policy';
import { cloneTemplate, connectedTo, served, testIdentity, testSuffix } from '@quire/service-kit/testing';
import { connectNats } from '@quire/service-kit/nats';
import { addMember, createOrganization, createToken, createUser } from '../src/domain/admin.ts';
import { loadOrgsConfig } from '../src/config.ts';
import { compose } from '../src/main.ts';
import { openStore, type Store } from '../src/store/index.ts';

export interface TestUser {
  id: string;
  email: string;
  token: string;
  /** Every test user can sign in with this password. */
  password: string;
}

export const TEST_PASSWORD = 'correct horse battery staple';

/**
 * The real orgs gRPC server on a free port, over a fresh copy of the migrated template database,
 * with an events stream and subjects of its own on the local NATS. Used by the contract tests
 * here and by the gateway's end-to-end tests; `env` sets the service's settings (session
 * lifetimes). `databaseUrl` serves an existing database instead (a restored backup, a second
 * replica), left in place on stop.
 */
export async function startOrgs(env: Record<string, string> = {}, databaseUrl?: string) {
  const database = databaseUrl ? { url: databaseUrl, drop: async () => {} } : await cloneTemplate('orgs');
  const log = createLogger('orgs-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const suffix = testSuffix();
  const config = loadOrgsConfig({
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: '5',
    QUIRE_VISITOR_CLAIMS_SECRET: 'test-visitor-claims-key-0123456789',
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    EVENTS_STREAM: `TEST_EVENTS_${suffix}`,
    EVENTS_SUBJECT_PREFIX: `test.events.${suffix}`,
    ...env,
  });
  const identity = testIdentity('orgs');
  const runtime = await compose(config, identity, log);
  const { store } = runtime;
  const server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: runtime.services, identity, log });
  const { close: closeServer, ...grpc } = served(server, OrgsServiceClient, 'orgs');

  return {
    ...grpc,
    ...seeding(store),
    config,
    store,
    databaseUrl: database.url,
    async stop() {
      await closeServer();
      for (const step of runtime.close) await step();
      const nc = await connectNats(config.NATS_URL, 'orgs-test-cleanup', log);
      await (await nc.jetstreamManager()).streams.delete(config.EVENTS_STREAM).catch(() => false);
      await nc.close();
      await database.drop();
    },
  };
}

export type OrgsHarness = Awaited<ReturnType<typeof startOrgs>>;

/** What tests make and read in orgs' database as an operator would, beside the API: users, organizations, members, the audit log. */
function seeding(store: Store) {
  return {
    async user(name = 'user'): Promise<TestUser> {
      const email = `${name}-${randomBytes(4).toString('hex')}@example.com`;
      const u = await createUser(store, email, name, TEST_PASSWORD);
      const { token } = await createToken(store, email);
      return { id: u.id, email, token, password: TEST_PASSWORD };
    },
    /** An organization owned (as admin) by `owner`, with further members at the given roles. */
    async organization(owner: TestUser, members: [TestUser, Role][] = [], title = 'Acme Docs') {
      const org = await createOrganization(store, title, owner.email);
      for (const [m, role] of members) await addMember(store, org.id, m.email, role);
      return org;
    },
    /** Adds `user` to the organization at `role`. */
    member: (organizationId: string, u: TestUser, role: Role) => addMember(store, organizationId, u.email, role),
    /** Resolves with the organization's audit entries once `count` are written, or what there is after `timeoutMs`. */
    async audit(organizationId: string, count: number, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const rows = await store.listAudit(organizationId, {}, { take: 1000 });
        if (rows.length >= count || Date.now() > deadline) return rows;
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

/**
 * The orgs service another process runs (the test run's shared stack), at `address` over the
 * database at `databaseUrl`: its client, and the seeding over a store of this process's own.
 */
export function orgsAt(address: string, databaseUrl: string) {
  const { store } = openStore(databaseUrl, 2);
  return { ...connectedTo(address, OrgsServiceClient, 'orgs'), ...seeding(store), store, databaseUrl };
}

/** The users a suite starts from: an `owner`, a member per entry of `roles` named after it, and an `outsider`. */
export type Team<R extends string> = Record<R | 'owner' | 'outsider', TestUser> & {
  /** The organization `owner` owns (as admin), each member in it at its role. */
  orgId: string;
  /** The outsider's own organization: one the team's users are no members of. */
  otherOrgId: string;
};

/** Makes a `Team` on `orgs`; members join in the order `roles` names them. */
export async function team<R extends string>(orgs: OrgsHarness, roles: Record<R, Role>): Promise<Team<R>> {
  const entries = Object.entries(roles) as [R, Role][];
  const [owner, outsider, members] = await Promise.all([orgs.user('owner'), orgs.user('outsider'), Promise.all(entries.map(([name]) => orgs.user(name)))]);
  const org = await orgs.organization(
    owner,
    members.map((m, i) => [m, entries[i]![1]]),
  );
  const other = await orgs.organization(outsider, [], 'Other Org');
  const named = Object.fromEntries(entries.map(([name], i) => [name, members[i]!])) as Record<R, TestUser>;
  return { ...named, owner, outsider, orgId: org.id, otherOrgId: other.id };
}

export { TEST_CERTIFICATE } from './fixtures.ts';
