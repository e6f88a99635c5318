import { LRUCache } from 'lru-cache';
import { newId } from '@quire/service-kit/ids';
import { openDatabaseStore, preparedStatements, type Database } from '@quire/service-kit/prisma';
import { createLogger, type Logger, type Page } from '@quire/service-kit';
import { PrismaClient, type Prisma } from '../generated/prisma/client.ts';
import type { Visibility as DbVisibility } from '../generated/prisma/enums.ts';
import type { CollectionNode, Level } from '../domain/access.ts';
import type { Principal } from '../domain/grants.ts';
import type { EditMode, Visibility } from '../domain/fields.ts';
import type { Sibling } from '../domain/positions.ts';
import { createCopyStore, type CopyRow } from './copies.ts';
import { createLookStore } from './looks.ts';
import { createOpenApiStore } from './openapi.ts';
import { createRevisionStore } from './revisions.ts';
import { createSearchStore } from './search.ts';

export type Db = Database<PrismaClient>;

// The database enum cannot hold "-"; the API's spelling is used everywhere else.
const toDb = (v: Visibility) => v.replace('-', '_') as DbVisibility;
const fromDb = (v: DbVisibility) => v.replace('_', '-') as Visibility;

type CollectionRecord = Prisma.CollectionGetPayload<object>;
type SpaceRecord = Prisma.SpaceGetPayload<object>;
export type CollectionRow = CollectionRecord;
/** `copy`: what the space shows from other services, when the read brought it (null: none kept yet). */
export type SpaceRow = Omit<SpaceRecord, 'visibility'> & { visibility: Visibility; copy?: CopyRow | null };

const space = (r: SpaceRecord): SpaceRow => ({ ...r, visibility: fromDb(r.visibility) });
/** A space just made, with the copies it starts with. */
const fresh = (r: SpaceRecord): SpaceRow => ({
  ...space(r),
  copy: { spaceId: r.id, countersVersion: 0, comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0, gitVersion: 0, gitLink: null },
});
const cursor = (page: Page): { cursor?: { id: string }; skip?: number } => (page.after ? { cursor: { id: page.after }, skip: 1 } : {});

// The reads behind every call on a space (the space, and what decides the caller's role in its
// organization) run as prepared statements; everything else goes through Prisma.
const SPACE_COLUMNS = `id, "organizationId", "parentId", title, emoji, visibility::text AS visibility, "editMode"::text AS "editMode",
      "defaultLevel"::text AS "defaultLevel", "revisionId", position, "createdAt", "updatedAt", "deletedAt",
      (SELECT row_to_json(c) FROM "SpaceCopy" c WHERE c."spaceId" = s.id) AS copy`;
// The organization's collections and the grants to the principals, the parameters numbered as given.
const accessColumns = (organization: string, principals: string) => `
      (SELECT coalesce(json_agg(json_build_object('id', c.id, 'parentId', c."parentId", 'defaultLevel', c."defaultLevel")), '[]')
        FROM "Collection" c WHERE c."organizationId" = ${organization}) AS collections,
      (SELECT coalesce(json_agg(json_build_object('id', g."collectionId", 'role', g.role)), '[]')
        FROM "CollectionGrant" g JOIN "Collection" c ON c.id = g."collectionId"
        WHERE c."organizationId" = ${organization} AND g."principalId" = ANY(${principals})) AS "collectionGrants",
      (SELECT coalesce(json_agg(json_build_object('id', g."spaceId", 'role', g.role)), '[]')
        FROM "SpaceGrant" g JOIN "Space" gs ON gs.id = g."spaceId"
        WHERE gs."organizationId" = ${organization} AND g."principalId" = ANY(${principals})) AS "spaceGrants"`;
const hot = preparedStatements('content', {
  space: `SELECT ${SPACE_COLUMNS} FROM "Space" s WHERE id = $1`,
  access: `SELECT ${accessColumns('$1', '$2')}`,
  // Both at once, for the organization the space is expected in (the caller's principals are
  // theirs); many calls' at once (`hot.loader`), their keys a JSON array.
  spacesWithAccess: `SELECT k.key, ${SPACE_COLUMNS}, ${accessColumns('k.org', 'k.principals')}
    FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (space text, org text, principals text[])) WITH ORDINALITY AS k(space, org, principals, key)
    JOIN "Space" s ON s.id = k.space`,
});
type SpaceAccessKey = { id: string; organizationId: string; principalIds: string[] };
const spaceAccessKeys = (keys: readonly SpaceAccessKey[]) => [JSON.stringify(keys.map((k) => ({ space: k.id, org: k.organizationId, principals: k.principalIds })))];

type Grant = { id: string; role: Level };
type AccessRow = { collections: CollectionNode[]; collectionGrants: Grant[]; spaceGrants: Grant[] };
/** What the store knows of a caller's access in an organization: its collections and grants. */
export type StoredAccess = ReturnType<typeof storedAccess>;
const storedAccess = (row: AccessRow) => ({
  collections: new Map<string, CollectionNode>(row.collections.map((c) => [c.id, c])),
  collectionGrants: row.collectionGrants,
  spaceGrants: row.spaceGrants,
});

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

export interface NewSpace {
  organizationId: string;
  parentId: string | null;
  title: string;
  emoji: string;
  visibility: Visibility;
  editMode: EditMode;
  defaultLevel: Level;
  position: number;
}

export interface SpaceChanges {
  title?: string;
  emoji?: string;
  editMode?: EditMode;
  defaultLevel?: Level;
  visibility?: Visibility;
}

export function createStore(database: Db, log: Logger) {
  const db = database.prisma;
  const organizations = new LRUCache<string, string>({ max: 100_000 });
  const search = createSearchStore(database, log);
  const loadSpaceWithAccess = hot.loader<SpaceAccessKey, SpaceRow & AccessRow>(database, 'spacesWithAccess', spaceAccessKeys);
  const revisions = createRevisionStore(database, search.indexLater);
  return {
    revisions,
    /** Search, links and backlinks reads, and the indexer. */
    search,
    /** What spaces show from other services. */
    copies: createCopyStore(database),
    /** The cover and layout of documents' pages. */
    looks: createLookStore(database),
    /** The organizations' OpenAPI specifications. */
    openApi: createOpenApiStore(database),

    /** The organization's collections and the grants to any of `principalIds` in it: all a role needs. */
    async access(organizationId: string, principalIds: string[]): Promise<StoredAccess> {
      return storedAccess((await hot<AccessRow>(database, 'access', [organizationId, principalIds]))!);
    },

    /**
     * The space (deleted or not) and the access of `principalIds` in `organizationId`, in one
     * statement; the access is only the caller's there if the space is still in that organization.
     */
    async spaceWithAccess(id: string, organizationId: string, principalIds: string[]): Promise<{ space: SpaceRow; access: StoredAccess } | null> {
      const row = await loadSpaceWithAccess({ id, organizationId, principalIds });
      if (!row) return null;
      const { collections, collectionGrants, spaceGrants, ...space } = row;
      organizations.set(id, space.organizationId);
      return { space, access: storedAccess({ collections, collectionGrants, spaceGrants }) };
    },

    /** The organization the space was last read in (spaces rarely change organization), if this process read it. */
    organizationOf(spaceId: string): string | undefined {
      return organizations.get(spaceId);
    },

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
        take: page.take,
        ...cursor(page),
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

    /** The space, deleted or not. */
    async getSpace(id: string): Promise<SpaceRow | null> {
      const row = await hot<SpaceRow>(database, 'space', [id]);
      if (row) organizations.set(id, row.organizationId);
      return row ?? null;
    },

    /** The spaces among `ids` that exist and are not deleted. */
    async getSpaces(ids: string[]): Promise<SpaceRow[]> {
      return (await db.space.findMany({ where: { id: { in: ids }, deletedAt: null } })).map(space);
    },

    /** The organization's spaces, in collections or not, by creation. */
    async listSpacesInOrganization(organizationId: string, page: Page, order: 'asc' | 'desc' = 'asc'): Promise<SpaceRow[]> {
      const rows = await db.space.findMany({
        where: { organizationId, deletedAt: null },
        orderBy: [{ createdAt: order }, { id: order }],
        take: page.take,
        ...cursor(page),
      });
      return rows.map(space);
    },

    /** The spaces directly in the collection, in their order. */
    async listSpacesInCollection(collectionId: string, page: Page): Promise<SpaceRow[]> {
      const rows = await db.space.findMany({
        where: { parentId: collectionId, deletedAt: null },
        orderBy: [{ position: 'asc' }, { id: 'asc' }],
        take: page.take,
        ...cursor(page),
      });
      return rows.map(space);
    },

    /** A space on a new, empty revision; or on `revisionId` (a duplicate shares its original's content). */
    async createSpace(s: NewSpace, revisionId?: string): Promise<SpaceRow> {
      const id = newId();
      // A new space has no change requests, comments or Git link yet: its copies start known, at version 0.
      const data = { ...s, id, visibility: toDb(s.visibility), copy: { create: { countersVersion: BigInt(0), gitVersion: BigInt(0) } } };
      if (revisionId) {
        // Search finds the duplicate's pages from the start. The revision is read first: it never
        // changes, and the transaction holds a connection of the pool it is read on.
        const revision = await revisions.getRevision(revisionId);
        return fresh(
          await db.$transaction(async (tx) => {
            const created = await tx.space.create({ data: { ...data, revisionId } });
            if (revision) await revisions.syncPages(tx, id, revision);
            return created;
          }),
        );
      }
      const revision = { id: newId(), spaceId: id, parents: [], type: 'edits' };
      const [, created] = await db.$transaction([db.revision.create({ data: revision }), db.space.create({ data: { ...data, revisionId: revision.id } })]);
      return fresh(created);
    },

    async updateSpace(id: string, changes: SpaceChanges): Promise<SpaceRow> {
      const { visibility, ...rest } = changes;
      return space(await db.space.update({ where: { id }, data: { ...rest, ...(visibility ? { visibility: toDb(visibility) } : {}) } }));
    },

    async placeSpace(id: string, place: { organizationId?: string; parentId: string | null; position: number; visibility: Visibility }): Promise<SpaceRow> {
      return space(await db.space.update({ where: { id }, data: { ...place, visibility: toDb(place.visibility) } }));
    },

    async setDeleted(id: string, deletedAt: Date | null): Promise<SpaceRow> {
      return space(await db.space.update({ where: { id }, data: { deletedAt } }));
    },

    /** Removes the spaces deleted before `cutoff`; their revisions stay, other spaces may share them. */
    /** Removes the spaces deleted before `cutoff`, and their pages from the search index. */
    async purgeDeletedSpaces(cutoff: Date): Promise<number> {
      return db.$transaction(async (tx) => {
        const ids = (await tx.space.findMany({ where: { deletedAt: { lt: cutoff } }, select: { id: true } })).map((s) => s.id);
        await tx.spacePage.deleteMany({ where: { spaceId: { in: ids } } });
        return (await tx.space.deleteMany({ where: { id: { in: ids } } })).count;
      });
    },

    /**
     * Replaces the grants of `principals` on the space (or collection `kind`) with `level`, or
     * removes them when it is null; all or nothing.
     */
    async setGrants(kind: 'space' | 'collection', itemId: string, principals: Principal[], level: Level | null): Promise<void> {
      const keys = principals.map((p) => ({ principalType: p.type, principalId: p.id }));
      await db.$transaction(async (tx) => {
        if (kind === 'space') {
          await tx.spaceGrant.deleteMany({ where: { spaceId: itemId, OR: keys } });
          if (level) await tx.spaceGrant.createMany({ data: keys.map((k) => ({ ...k, spaceId: itemId, role: level })) });
        } else {
          await tx.collectionGrant.deleteMany({ where: { collectionId: itemId, OR: keys } });
          if (level) await tx.collectionGrant.createMany({ data: keys.map((k) => ({ ...k, collectionId: itemId, role: level })) });
        }
      });
    },

    /** The users granted a role on the space itself, by user id. */
    async listSpaceUserGrants(spaceId: string, page: Page): Promise<{ userId: string; role: Level }[]> {
      const rows = await db.spaceGrant.findMany({
        where: { spaceId, principalType: 'user', ...(page.after ? { principalId: { gt: page.after } } : {}) },
        orderBy: { principalId: 'asc' },
        take: page.take,
      });
      return rows.map((r) => ({ userId: r.principalId, role: r.role }));
    },

    /** Changes the user's grant on the space; false when it has none. */
    async updateSpaceUserGrant(spaceId: string, userId: string, level: Level): Promise<boolean> {
      return (await db.spaceGrant.updateMany({ where: { spaceId, principalType: 'user', principalId: userId }, data: { role: level } })).count > 0;
    },

    /** Removes the user's grant on the space; false when it had none. */
    async removeSpaceUserGrant(spaceId: string, userId: string): Promise<boolean> {
      return (await db.spaceGrant.deleteMany({ where: { spaceId, principalType: 'user', principalId: userId } })).count > 0;
    },
  };
}

export type Store = ReturnType<typeof createStore>;
