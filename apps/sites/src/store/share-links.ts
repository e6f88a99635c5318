import { rowsAfter, type Page } from '@quire/service-kit';
import { ID_ALPHABET, newId } from '@quire/service-kit/ids';
import { customAlphabet } from 'nanoid';
import type { Prisma } from '../generated/prisma/client.ts';
import type { Db } from './index.ts';

// A share link's secret: 32 characters of 62, about 190 bits.
const newKey = customAlphabet(ID_ALPHABET, 32);

export type ShareLinkRow = Prisma.ShareLinkGetPayload<object>;

/** Share links: secret addresses of a site. */
export function shareLinkStore(database: Db) {
  const db = database.prisma;
  return {
    listShareLinks(siteId: string, page: Page): Promise<ShareLinkRow[]> {
      return db.shareLink.findMany({ where: { siteId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], ...rowsAfter(page) });
    },

    getShareLink(siteId: string, id: string): Promise<ShareLinkRow | null> {
      return db.shareLink.findFirst({ where: { id, siteId } });
    },

    createShareLink(siteId: string, name: string): Promise<ShareLinkRow> {
      return db.shareLink.create({ data: { id: newId(), siteId, name, key: newKey() } });
    },

    updateShareLink(id: string, data: { name?: string; active?: boolean }): Promise<ShareLinkRow> {
      return db.shareLink.update({ where: { id }, data });
    },

    async deleteShareLink(id: string): Promise<void> {
      await db.shareLink.delete({ where: { id } });
    },

    /** Whether `key` is the key of an active share link of the site. */
    async activeShareKey(siteId: string, key: string): Promise<boolean> {
      return (await db.shareLink.count({ where: { siteId, key, active: true } })) > 0;
    },
  };
}
