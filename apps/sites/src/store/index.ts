import { openDatabaseStore, type Database } from '@quire/service-kit/prisma';
import { PrismaClient } from '../generated/prisma/client.ts';
import { sectionStore } from './sections.ts';
import { shareLinkStore } from './share-links.ts';
import { siteSpaceStore } from './site-spaces.ts';
import { siteStore } from './sites.ts';
import { treeStore } from './tree.ts';

export type Db = Database<PrismaClient>;
export type { ShareLinkRow } from './share-links.ts';
export type { NewSite, SiteChanges, SiteFilter, SiteRecord, SiteRow } from './sites.ts';
export type { GroupRow, SectionRow, SiteSpaceRow, SiteTree, SpaceRef } from './tree.ts';

/** Opens the service's database (one pool for Prisma and plain SQL) and its store. */
export const openStore = (connectionString: string, poolSize?: number, log?: Parameters<typeof openDatabaseStore>[4]) =>
  openDatabaseStore(PrismaClient, createStore, connectionString, poolSize, log);

/** All of the sites service's queries, one file per aggregate. */
export function createStore(database: Db) {
  return {
    ...siteStore(database),
    ...shareLinkStore(database),
    ...siteSpaceStore(database),
    ...sectionStore(database),
    ...treeStore(database),
  };
}

export type Store = ReturnType<typeof createStore>;
