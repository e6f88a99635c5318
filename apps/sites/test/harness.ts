import { randomBytes } from 'node:crypto';
import { ContentServiceClient, ContentServiceService } from '@quire/proto/content';
import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { SitesServiceClient } from '@quire/proto/sites';
import { createClient, createLogger, promiseClient, startGrpcServer } from '@quire/service-kit';
import { cloneTemplate, served, testEventSink, testIdentity } from '@quire/service-kit/testing';
import { sitesService } from '../src/server.ts';
import { openStore } from '../src/store/index.ts';

/**
 * The real sites gRPC server on a free port, over a fresh copy of the migrated template database,
 * calling the orgs and content services at the given addresses. Used by the contract tests here
 * and by the gateway's end-to-end tests; `databaseUrl` and `secretsKey` make another instance over
 * the same database, `eventsPrefix` publishes its domain events where an orgs instance reads them.
 */
export async function startSites(orgsAddress: string, contentAddress: string, options: { databaseUrl?: string; secretsKey?: Buffer; eventsPrefix?: string } = {}) {
  // Another instance over an existing database (replicas) leaves that database in place.
  const database = options.databaseUrl ? { url: options.databaseUrl, drop: async () => {} } : await cloneTemplate('sites');
  const { store, close } = openStore(database.url, 5);
  const log = createLogger('sites-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const identity = testIdentity('sites');
  const orgsClient = createClient(OrgsServiceClient, orgsAddress);
  const contentClient = createClient(ContentServiceClient, contentAddress);
  const sink = await testEventSink('sites', log, options.eventsPrefix);
  const deps = {
    store,
    orgs: promiseClient(orgsClient, OrgsServiceService, { identity, audience: 'orgs' }),
    content: promiseClient(contentClient, ContentServiceService, { identity, audience: 'content' }),
    secretsKey: options.secretsKey ?? randomBytes(32),
    events: sink.events,
    identity,
  };
  const server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [sitesService(deps, log)], identity, log });
  const { close: closeServer, ...grpc } = served(server, SitesServiceClient, 'sites');

  return {
    ...grpc,
    /** The database's URL, to read rows as stored. */
    databaseUrl: database.url,
    secretsKey: deps.secretsKey,
    async stop() {
      await closeServer();
      orgsClient.close();
      contentClient.close();
      await sink.close();
      await close();
      await database.drop();
    },
  };
}

export type SitesHarness = Awaited<ReturnType<typeof startSites>>;
