import { randomBytes } from 'node:crypto';
import { IntegrationsServiceClient } from '@quire/proto/integrations';
import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { createClient, createLogger, promiseClient, startGrpcServer } from '@quire/service-kit';
import { cloneTemplate, served, testIdentity } from '@quire/service-kit/testing';
import { integrationsService } from '../src/server.ts';
import { openStore } from '../src/store/index.ts';

/**
 * The real integrations gRPC server on a free port, over a fresh copy of the migrated template
 * database, calling the orgs service at `orgsAddress`. Used by the contract tests here and by the
 * gateway's end-to-end tests; `existing` makes another instance over the same database.
 */
export async function startIntegrations(orgsAddress: string, existing?: { databaseUrl: string; secretsKey: Buffer }) {
  // Another instance over an existing database (replicas) leaves that database in place.
  const database = existing ? { url: existing.databaseUrl, drop: async () => {} } : await cloneTemplate('integrations');
  const { store, close } = openStore(database.url, 5);
  const log = createLogger('integrations-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const identity = testIdentity('integrations');
  const orgsClient = createClient(OrgsServiceClient, orgsAddress);
  const secretsKey = existing?.secretsKey ?? randomBytes(32);
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [integrationsService({ store, orgs: promiseClient(orgsClient, OrgsServiceService, { identity, audience: 'orgs' }), secretsKey }, log)],
    identity,
    log,
  });
  const { close: closeServer, ...grpc } = served(server, IntegrationsServiceClient, 'integrations');

  return {
    ...grpc,
    /** The database's URL, to read rows as stored. */
    databaseUrl: database.url,
    secretsKey,
    async stop() {
      await closeServer();
      orgsClient.close();
      await close();
      await database.drop();
    },
  };
}

export type IntegrationsHarness = Awaited<ReturnType<typeof startIntegrations>>;
