import { randomBytes } from 'node:crypto';
import { OrgsServiceClient } from '@quire/proto/orgs';
import { createClient, createLogger, Role, startGrpcServer } from '@quire/service-kit';
import { callAs, cloneTemplate } from '@quire/service-kit/testing';
import { addMember, createOrganization, createToken, createUser } from '../src/admin.ts';
import { orgsService } from '../src/server.ts';
import { openStore } from '../src/store/index.ts';

export interface TestUser {
  id: string;
  email: string;
  token: string;
}

/**
 * The real orgs gRPC server on a free port, over a fresh copy of the migrated template database.
 * Used by the contract tests here and by the gateway's end-to-end tests.
 */
export async function startOrgs() {
  const database = await cloneTemplate('orgs');
  const { store, close } = openStore(database.url, 5);
  const log = createLogger('orgs-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [orgsService({ store, visitorClaimsKey: new TextEncoder().encode('test-visitor-claims-key-0123456789') }, log)],
    log,
  });
  const address = `127.0.0.1:${server.port}`;
  const client = createClient(OrgsServiceClient, address);

  async function user(name = 'user'): Promise<TestUser> {
    const email = `${name}-${randomBytes(4).toString('hex')}@example.com`;
    const u = await createUser(store, email, name);
    const { token } = await createToken(store, email);
    return { id: u.id, email, token };
  }

  /** An organization owned (as admin) by `owner`, with further members at the given roles. */
  async function organization(owner: TestUser, members: [TestUser, Role][] = [], title = 'Acme Docs') {
    const org = await createOrganization(store, title, owner.email);
    for (const [m, role] of members) await addMember(store, org.id, m.email, role);
    return org;
  }

  return {
    /** Adds `user` to the organization at `role`. */
    member: (organizationId: string, u: TestUser, role: Role) => addMember(store, organizationId, u.email, role),
    address,
    client,
    store,
    user,
    organization,
    /** Calls an RPC as `userId`. */
    call: callAs(client),
    async stop() {
      client.close();
      await server.shutdown(1000);
      await close();
      await database.drop();
    },
  };
}

export type OrgsHarness = Awaited<ReturnType<typeof startOrgs>>;
export { TEST_CERTIFICATE } from './fixtures.ts';
