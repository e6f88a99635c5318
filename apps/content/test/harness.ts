import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Role } from '@quire/policy';
import { ContentServiceClient, type CreateSpaceRequest, type Space } from '@quire/proto/content';
import { SpaceContentServiceClient, type CreateRevisionRequest, type PutBlobsRequest, type PutBlobsResponse, type Revision } from '@quire/proto/space-content';
import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { startOrgs, team } from '@quire/orgs/testing';
import { createClient, createLogger, promiseClient, startGrpcServer } from '@quire/service-kit';
import { cloneTemplate, connectedTo, testEventSink, testIdentity } from '@quire/service-kit/testing';
import { localBlobStore } from '../src/blobs/index.ts';
import { DEFAULT_IMPORT_LIMITS } from '../src/rpc/import.ts';
import { startCopyConsumer } from '../src/consumers/copies.ts';
import { connectOwners } from '../src/main.ts';
import { contentService, spaceContentService } from '../src/server.ts';
import { openStore } from '../src/store/index.ts';

/** The web app's address the test server is told about: content links to it are `in-app`. */
export const APP_URL = 'https://app.quire.test';

/**
 * The real content gRPC server on a free port, over a fresh copy of the migrated template
 * database, calling the orgs service at `orgsAddress`. Used by the contract tests here and by the
 * gateway's end-to-end tests. `clock.now` is the service's clock: tests move it. `databaseUrl` and
 * `blobDir` name a database and blob directory to serve instead (a restored backup, a second
 * replica); they are left in place on stop. `eventsPrefix` publishes its domain events where an
 * orgs instance reads them.
 */
export async function startContent(orgsAddress: string, options: { databaseUrl?: string; blobDir?: string; eventsPrefix?: string; eventsStream?: string } = {}) {
  const database = options.databaseUrl ? { url: options.databaseUrl, drop: async () => {} } : await cloneTemplate('content');
  const log = createLogger('content-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const { store, close } = openStore(database.url, 5, log);
  const identity = testIdentity('content');
  const orgsClient = createClient(OrgsServiceClient, orgsAddress);
  const clock = { now: () => new Date() };
  const blobDir = options.blobDir ?? (await mkdtemp(join(tmpdir(), 'quire-blobs-')));
  const sink = await testEventSink('content', log, options.eventsPrefix);
  // Tests lower a bound by setting it here, and put it back.
  const importLimits = { ...DEFAULT_IMPORT_LIMITS };
  const deps: Parameters<typeof contentService>[0] & Parameters<typeof spaceContentService>[0] = {
    store,
    orgs: promiseClient(orgsClient, OrgsServiceService, { identity, audience: 'orgs' }),
    events: sink.events,
    now: () => clock.now(),
    blobs: localBlobStore(blobDir),
    appUrl: APP_URL,
    importLimits,
  };
  // The state events of review and git-sync feed the copies when they publish where this instance reads.
  const stopCopies = options.eventsStream && options.eventsPrefix ? await startCopyConsumer(sink.nc, options.eventsStream, options.eventsPrefix, store, log) : async () => {};
  let owners: ReturnType<typeof connectOwners> | undefined;
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [contentService(deps, log), spaceContentService(deps, log)],
    identity,
    log,
  });
  const clients = contentAt(`127.0.0.1:${server.port}`, database.url);
  const { client, spaceContent } = clients;

  return {
    ...clients,
    clock,
    blobDir,
    importLimits,
    /** A new space (of `req.organizationId`, titled Handbook unless `req` says) made by `userId`. */
    createSpace: (userId: string, req: Partial<CreateSpaceRequest> & { organizationId: string }) =>
      clients.call<CreateSpaceRequest, Space>(client.createSpace, { title: 'Handbook', emoji: '', editMode: '', visibility: '', ...req }, userId),
    /** Stores `data` as blobs, as `userId` uploads them; answers the blobs in that order. */
    putBlobs: async (userId: string, data: Buffer[]) => (await clients.callContent<PutBlobsRequest, PutBlobsResponse>(spaceContent.putBlobs, { data }, userId)).blobs,
    /** A new revision of `req.spaceId` (of `req.pages` and `req.files`), made its active one by `userId`. */
    createRevision: (userId: string, req: Partial<CreateRevisionRequest> & { spaceId: string }) =>
      clients.callContent<CreateRevisionRequest, Revision>(spaceContent.createRevision, { parentRevisionId: '', pages: [], files: [], setActive: true, type: '', ...req }, userId),
    store,
    /** Review and git-sync, started after content (they call it): asked for missing copies from then on. */
    useOwners(reviewAddress: string, gitSyncAddress: string) {
      owners = connectOwners(reviewAddress, gitSyncAddress, identity);
      deps.owners = owners;
    },
    /** Cuts every connection at once and answers nothing more, as a killed instance would (stop() still cleans up). */
    kill: () => server.server.forceShutdown(),
    async stop() {
      client.close();
      spaceContent.close();
      await server.shutdown(1000);
      await stopCopies();
      owners?.close();
      orgsClient.close();
      await sink.close();
      await close();
      await database.drop();
      if (!options.blobDir) await rm(blobDir, { recursive: true, force: true });
    },
  };
}

export type ContentHarness = Awaited<ReturnType<typeof startContent>>;

/** The content service at `address` (this process's, or the test run's shared stack's) over the database at `databaseUrl`: its two clients and their calls as a user. */
export function contentAt(address: string, databaseUrl: string) {
  const { client, call } = connectedTo(address, ContentServiceClient, 'content');
  const spaceContent = connectedTo(address, SpaceContentServiceClient, 'content');
  return {
    address,
    client,
    /** Calls an RPC as `userId`. */
    call,
    /** The database's URL, to read and seed rows (grants) as stored. */
    databaseUrl,
    /** The SpaceContentService on the same server, and its calls as `userId`. */
    spaceContent: spaceContent.client,
    callContent: spaceContent.call,
  };
}

/**
 * Orgs, and content calling it, with a team: an owner of an organization with `members` at their
 * roles, and an outsider who owns another. A file's `beforeAll` in one call; `stopAll(h, orgs)` after.
 */
export async function startWithTeam<R extends string = never>(members: Record<R, Role> = {} as Record<R, Role>) {
  const orgs = await startOrgs();
  const h = await startContent(orgs.address);
  return { orgs, h, ...(await team(orgs, members)) };
}

export { docx, lyingBomb, para, zip } from './import-files.ts';
/** How content stores and indexes documents and a space's pages: the search benchmark seeds with them. */
export { writeDocuments } from '../src/store/search-documents.ts';
export { reindexSearch } from '../src/store/search-indexer.ts';
export { syncSpacePages } from '../src/store/search-pages.ts';
