import { ContentServiceClient } from '@quire/proto/content';
import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { createClient, createLogger, promiseClient, startGrpcServer } from '@quire/service-kit';
import { callAs, cloneTemplate } from '@quire/service-kit/testing';
import { contentService } from '../src/server.ts';
import { openStore } from '../src/store/index.ts';

/**
 * The real content gRPC server on a free port, over a fresh copy of the migrated template
 * database, calling the orgs service at `orgsAddress`. Used by the contract tests here and by the
 * gateway's end-to-end tests. `clock.now` is the service's clock: tests move it.
 */
export async function startContent(orgsAddress: string) {
  const database = await cloneTemplate('content');
  const { store, close } = openStore(database.url, 5);
  const log = createLogger('content-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const orgsClient = createClient(OrgsServiceClient, orgsAddress);
  const clock = { now: () => new Date() };
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [contentService({ store, orgs: promiseClient(orgsClient, OrgsServiceService), now: () => clock.now() }, log)],
    log,
  });
  const address = `127.0.0.1:${server.port}`;
  const client = createClient(ContentServiceClient, address);

  return {
    address,
    client,
    clock,
    /** The database's URL, to read and seed rows (grants) as stored. */
    databaseUrl: database.url,
    /** Calls an RPC as `userId`. */
    call: callAs(client),
    async stop() {
      client.close();
      await server.shutdown(1000);
      orgsClient.close();
      await close();
      await database.drop();
    },
  };
}

export type ContentHarness = Awaited<ReturnType<typeof startContent>>;
