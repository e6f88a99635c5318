import { ContentServiceClient, ContentServiceService } from '@quire/proto/content';
import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { SitesServiceClient } from '@quire/proto/sites';
import { createClient, createLogger, promiseClient, startGrpcServer } from '@quire/service-kit';
import { callAs, cloneTemplate } from '@quire/service-kit/testing';
import { sitesService } from '../src/server.ts';
import { openStore } from '../src/store/index.ts';

/**
 * The real sites gRPC server on a free port, over a fresh copy of the migrated template database,
 * calling the orgs and content services at the given addresses. Used by the contract tests here
 * and by the gateway's end-to-end tests.
 */
export async function startSites(orgsAddress: string, contentAddress: string) {
  const database = await cloneTemplate('sites');
  const { store, close } = openStore(database.url, 5);
  const log = createLogger('sites-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const orgsClient = createClient(OrgsServiceClient, orgsAddress);
  const contentClient = createClient(ContentServiceClient, contentAddress);
  const deps = { store, orgs: promiseClient(orgsClient, OrgsServiceService), content: promiseClient(contentClient, ContentServiceService) };
  const server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [sitesService(deps, log)], log });
  const address = `127.0.0.1:${server.port}`;
  const client = createClient(SitesServiceClient, address);

  return {
    address,
    client,
    /** The database's URL, to read rows as stored. */
    databaseUrl: database.url,
    /** Calls an RPC as `userId`. */
    call: callAs(client),
    async stop() {
      client.close();
      await server.shutdown(1000);
      orgsClient.close();
      contentClient.close();
      await close();
      await database.drop();
    },
  };
}

export type SitesHarness = Awaited<ReturnType<typeof startSites>>;
