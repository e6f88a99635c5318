import { newId } from '@quire/service-kit/ids';
import { rowsAfter, type Page } from '@quire/service-kit';
import type { Prisma } from '../generated/prisma/client.ts';
import type { Level } from '../domain/access.ts';
import type { Sibling } from '../domain/positions.ts';
import type { Db } from './index.ts';

export type CollectionRow = Prisma.CollectionGetPayload<object>;

/** Collections, and the order of the items (spaces and collections) under each parent. */
export function createCollectionStore({ prisma: db }: Db) {
  return {
    /** Spaces and collections directly under `parentId` (the root when null), deleted spaces left out. */
    async siblings(organizationId: string, parentId: string | null): Promise<Sibling[]> {
      const where = { organizationId, parentId };
      const [spaces, collections] = await Promise.all([
        db.space.findMany({ where: { ...where, deletedAt: null }, select: { id: true, position: true } }),
        db.collection.findMany({ where, select: { id: true, position: true } }),
      ]);
      return [...spaces.map((s) => ({ type: 'space' as const, ...s })), ...collections.map((c) => ({ type: 'collection' as const, ...c }))];
    },

    getCollection(id: string): Promise<CollectionRow | null> {
      return db.collection.findUnique({ where: { id } });
    },

    /** All the organization's collections by creation, or only the root ones in their order. */
    listCollections(organizationId: string, nested: boolean, page: Page): Promise<CollectionRow[]> {
      return db.collection.findMany({
        where: { organizationId, ...(nested ? {} : { parentId: null }) },
        orderBy: nested ? [{ createdAt: 'asc' }, { id: 'asc' }] : [{ position: 'asc' }, { id: 'asc' }],
        ...rowsAfter(page),
      });
    },

    createCollection(data: { organizationId: string; parentId: string | null; title: string; position: number }): Promise<CollectionRow> {
      return db.collection.create({ data: { id: newId(), ...data } });
    },

    updateCollection(id: string, data: { title?: string; description?: string | null; defaultLevel?: Level }): Promise<CollectionRow> {
      return db.collection.update({ where: { id }, data });
    },

    moveCollection(id: string, parentId: string | null, position: number): Promise<CollectionRow> {
      return db.collection.update({ where: { id }, data: { parentId, position } });
    },

    /**
     * Deletes the collection; its spaces (deleted ones too) and sub-collections move up to its
     * parent, after the parent's own items, keeping their order. Spaces reaching the root stop being
     * `in-collection`.
     */
    async deleteCollection(c: CollectionRow): Promise<void> {
      await db.$transaction(async (tx) => {
        const where = { organizationId: c.organizationId, parentId: c.parentId };
        const [spaceMax, collectionMax, spaceMin, collectionMin] = await Promise.all([
          tx.space.aggregate({ where, _max: { position: true } }),
          tx.collection.aggregate({ where: { ...where, id: { not: c.id } }, _max: { position: true } }),
          tx.space.aggregate({ where: { parentId: c.id }, _min: { position: true } }),
          tx.collection.aggregate({ where: { parentId: c.id }, _min: { position: true } }),
        ]);
        const end = Math.max(spaceMax._max.position ?? 0, collectionMax._max.position ?? 0);
        const start = Math.min(spaceMin._min.position ?? 0, collectionMin._min.position ?? 0);
        const position = { increment: end + 1 - start };
        if (c.parentId === null) await tx.space.updateMany({ where: { parentId: c.id, visibility: 'in_collection' }, data: { visibility: 'private' } });
        await tx.space.updateMany({ where: { parentId: c.id }, data: { parentId: c.parentId, position } });
        await tx.collection.updateMany({ where: { parentId: c.id }, data: { parentId: c.parentId, position } });
        await tx.collection.delete({ where: { id: c.id } });
      });
    },

    /** The collections `ids` (a subtree whose root is `rootId`) and their spaces, to the root of another organization. */
    async transferCollections(rootId: string, ids: string[], organizationId: string, position: number): Promise<CollectionRow> {
      return db.$transaction(async (tx) => {
        await tx.collection.updateMany({ where: { id: { in: ids } }, data: { organizationId } });
        await tx.space.updateMany({ where: { parentId: { in: ids } }, data: { organizationId } });
        return tx.collection.update({ where: { id: rootId }, data: { parentId: null, position } });
      });
    },
  };
}
