import { LRUCache } from 'lru-cache';
import { newId } from '@quire/service-kit/ids';
import { preparedStatements } from '@quire/service-kit/prisma';
import { rowsAfter, type Page } from '@quire/service-kit';
import type { Prisma } from '../generated/prisma/client.ts';
import type { Visibility as DbVisibility } from '../generated/prisma/enums.ts';
import type { CollectionNode, Level } from '../domain/access.ts';
import type { EditMode, Visibility } from '../domain/fields.ts';
import type { CopyRow } from './copies.ts';
import type { Db } from './index.ts';
import type { RevisionStore } from './revisions.ts';

// The database enum cannot hold "-"; the API's spelling is used everywhere else.
const toDb = (v: Visibility) => v.replace('-', '_') as DbVisibility;
const fromDb = (v: DbVisibility) => v.replace('_', '-') as Visibility;
type SpaceRecord = Prisma.SpaceGetPayload<object>;
/** `copy`: what the space shows from other services, when the read brought it (null: none kept yet). */
export type SpaceRow = Omit<SpaceRecord, 'visibility'> & { visibility: Visibility; copy?: CopyRow | null };

const space = (r: SpaceRecord): SpaceRow => ({ ...r, visibility: fromDb(r.visibility) });
/** A space just made, with the copies it starts with. */
const fresh = (r: SpaceRecord): SpaceRow => ({
  ...space(r),
  copy: { spaceId: r.id, countersVersion: 0, comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0, gitVersion: 0, gitLink: null },
});

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

/** Spaces, and the access of callers to them (their organization's collections and grants). */
export function createSpaceStore(database: Db, revisions: RevisionStore) {
  const db = database.prisma;
  const organizations = new LRUCache<string, string>({ max: 100_000 });
  const loadSpaceWithAccess = hot.loader<SpaceAccessKey, SpaceRow & AccessRow>(database, 'spacesWithAccess', spaceAccessKeys);
  return {
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
        ...rowsAfter(page),
      });
      return rows.map(space);
    },

    /** The spaces directly in the collection, in their order. */
    async listSpacesInCollection(collectionId: string, page: Page): Promise<SpaceRow[]> {
      const rows = await db.space.findMany({
        where: { parentId: collectionId, deletedAt: null },
        orderBy: [{ position: 'asc' }, { id: 'asc' }],
        ...rowsAfter(page),
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

    /** Removes the spaces deleted before `cutoff`, and their pages from the search index; their revisions stay, other spaces may share them. */
    async purgeDeletedSpaces(cutoff: Date): Promise<number> {
      return db.$transaction(async (tx) => {
        const ids = (await tx.space.findMany({ where: { deletedAt: { lt: cutoff } }, select: { id: true } })).map((s) => s.id);
        await tx.spacePage.deleteMany({ where: { spaceId: { in: ids } } });
        return (await tx.space.deleteMany({ where: { id: { in: ids } } })).count;
      });
    },
  };
}
