import { openDatabaseStore, type Database } from '@quire/service-kit/prisma';
import { createLogger, type Logger } from '@quire/service-kit';
import { PrismaClient } from '../generated/prisma/client.ts';
import { createCollectionStore } from './collections.ts';
import { createCopyStore } from './copies.ts';
import { createGrantStore } from './grants.ts';
import { createLookStore } from './looks.ts';
import { createOpenApiStore } from './openapi.ts';
import { createRevisionStore } from './revisions.ts';
import { createSearchStore } from './search.ts';
import { createSpaceStore } from './spaces.ts';

export type Db = Database<PrismaClient>;
export type { CollectionRow } from './collections.ts';
export type { NewSpace, SpaceChanges, SpaceRow, StoredAccess } from './spaces.ts';

/** Opens the service's database (one pool for Prisma and plain SQL) and its store, whose search indexer stops first on close. */
export function openStore(connectionString: string, poolSize?: number, log: Logger = createLogger('content', 'silent')) {
  const opened = openDatabaseStore(PrismaClient, (db) => createStore(db, log), connectionString, poolSize, log);
  return {
    ...opened,
    close: async () => {
      await opened.store.search.stopIndexing();
      await opened.close();
    },
  };
}

/** All of the content service's queries, one file per aggregate. */
export function createStore(database: Db, log: Logger) {
  const search = createSearchStore(database, log);
  const revisions = createRevisionStore(database, search.indexLater);
  return {
    revisions,
    /** Search, links and backlinks reads, and the indexer. */
    search,
    /** What spaces show from other services. */
    copies: createCopyStore(database),
    /** The cover and layout of documents' pages. */
    looks: createLookStore(database),
    ...createSpaceStore(database, revisions),
    ...createCollectionStore(database),
    ...createGrantStore(database),
    /** The organizations' OpenAPI specifications. */
    openApi: createOpenApiStore(database),
  };
}

export type Store = ReturnType<typeof createStore>;
