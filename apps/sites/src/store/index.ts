import { storeOf, type Database } from '@quire/service-kit/prisma';
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

/** All of the sites service's queries, one file per aggregate. */
export const { createStore, openStore } = storeOf(PrismaClient)(siteStore, shareLinkStore, siteSpaceStore, sectionStore, treeStore);

export type Store = ReturnType<typeof createStore>;
