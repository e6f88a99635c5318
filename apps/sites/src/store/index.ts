import { isUniqueViolation, openDatabaseStore, type Database } from '@quire/service-kit/prisma';
import { AlreadyExistsError, InvalidArgumentError, NotFoundError, type Page } from '@quire/service-kit';
import { ID_ALPHABET, newId } from '@quire/service-kit/ids';
import { customAlphabet } from 'nanoid';
import { PrismaClient, type Prisma } from '../generated/prisma/client.ts';
import { freePath, pathFromTitle } from '../domain/fields.ts';
import { containerOf, endOf, itemsIn, movePlan, nextDefault, type Container, type Pointer, type Tree } from '../domain/structure.ts';

export type Db = Database<PrismaClient>;
type Tx = Prisma.TransactionClient;

// A share link's secret: 32 characters of 62, about 190 bits.
const newKey = customAlphabet(ID_ALPHABET, 32);

export type SiteRecord = Prisma.SiteGetPayload<object>;
export type SiteRow = SiteRecord & { siteSpaceCount: number; sectionCount: number };
export type GroupRow = Prisma.SiteSectionGroupGetPayload<object>;
export type SectionRow = Prisma.SiteSectionGetPayload<object>;
export type SiteSpaceRow = Prisma.SiteSpaceGetPayload<object>;
export type ShareLinkRow = Prisma.ShareLinkGetPayload<object>;
export type SiteTree = Tree<GroupRow, SectionRow, SiteSpaceRow>;

const withCount = { _count: { select: { siteSpaces: true, sections: true } } } as const;
const siteRow = ({ _count, ...r }: SiteRecord & { _count: { siteSpaces: number; sections: number } }): SiteRow => ({
  ...r,
  siteSpaceCount: _count.siteSpaces,
  sectionCount: _count.sections,
});
const cursor = (page: Page): { cursor?: { id: string }; skip?: number } => (page.after ? { cursor: { id: page.after }, skip: 1 } : {});
const ordered = [{ position: 'asc' as const }, { id: 'asc' as const }];

/** Opens the service's database (one pool for Prisma and plain SQL) and its store. */
export const openStore = (connectionString: string, poolSize?: number, log?: Parameters<typeof openDatabaseStore>[4]) =>
  openDatabaseStore(PrismaClient, createStore, connectionString, poolSize, log);

export interface NewSite {
  organizationId: string;
  type: string;
  title: string;
  visibility: string;
  agentsContext: string;
}

export interface SiteChanges {
  title?: string;
  visibility?: string;
  basename?: string;
  adaptiveContent?: boolean;
  agentsContext?: string;
  proxy?: string | null;
  hostname?: string | null;
  defaultSiteSpaceId?: string;
  defaultSectionId?: string;
}

export interface SpaceRef {
  spaceId: string;
  title: string;
}

export interface SiteFilter {
  spaceId?: string;
  title?: string;
  published?: boolean;
}

const notFound = (what: string, id: string, field?: string) => new NotFoundError(`${field ? `${field}: ` : ''}${what} "${id}" not found`);
const pathTaken = (path: string, where: string) => new AlreadyExistsError(`path: "${path}" is already used in this ${where}`);

async function loadTree(tx: Tx, siteId: string): Promise<SiteTree> {
  const [groups, sections, siteSpaces] = await Promise.all([
    tx.siteSectionGroup.findMany({ where: { siteId }, orderBy: ordered }),
    tx.siteSection.findMany({ where: { siteId }, orderBy: ordered }),
    tx.siteSpace.findMany({ where: { siteId }, orderBy: ordered }),
  ]);
  return { groups, sections, siteSpaces };
}

const placeFields = (c: Container) => (c.kind === 'group' ? { groupId: c.groupId } : c.kind === 'top' ? { groupId: null } : { sectionId: c.sectionId });

/** The site-spaces of `sectionId` (the root when null) get `spaces` at their end, the first one default when the section was empty. */
async function appendSiteSpaces(tx: Tx, tree: SiteTree, siteId: string, sectionId: string | null, spaces: SpaceRef[]): Promise<SiteSpaceRow[]> {
  const siblings = tree.siteSpaces.filter((p) => p.sectionId === sectionId);
  const paths = siblings.map((p) => p.path);
  let position = endOf(tree, { kind: 'section', sectionId });
  const created: SiteSpaceRow[] = [];
  for (const s of spaces) {
    const path = freePath(pathFromTitle(s.title, 'space'), paths);
    paths.push(path);
    const isDefault = siblings.length === 0 && created.length === 0;
    created.push(await tx.siteSpace.create({ data: { id: newId(), siteId, sectionId, spaceId: s.spaceId, title: s.title, path, isDefault, position: position++ } }));
  }
  return created;
}

async function makeDefaultSiteSpace(tx: Tx, tree: SiteTree, siteSpaceId: string, field: string, sectionId?: string) {
  const p = tree.siteSpaces.find((x) => x.id === siteSpaceId);
  if (!p || (sectionId !== undefined && p.sectionId !== sectionId)) throw notFound('site-space', siteSpaceId, field);
  await tx.siteSpace.updateMany({ where: { siteId: p.siteId, sectionId: p.sectionId, id: { not: p.id } }, data: { isDefault: false } });
  await tx.siteSpace.update({ where: { id: p.id }, data: { isDefault: true } });
}

/** When a default site-space leaves its section, the first of the others takes over. */
async function handOverDefault(tx: Tx, tree: SiteTree, leaving: SiteSpaceRow) {
  if (!leaving.isDefault) return;
  const next = nextDefault(
    tree.siteSpaces.filter((p) => p.sectionId === leaving.sectionId),
    leaving.id,
  );
  if (next) await tx.siteSpace.update({ where: { id: next.id }, data: { isDefault: true } });
}

export function createStore(database: Db) {
  const db = database.prisma;

  /** Runs `fn` on the site's structure with the site row locked: structure changes of one site happen one at a time. */
  function editTree<T>(siteId: string, fn: (tx: Tx, tree: SiteTree) => Promise<T>): Promise<T> {
    return db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM "Site" WHERE id = ${siteId} FOR UPDATE`;
      return fn(tx, await loadTree(tx, siteId));
    });
  }

  return {
    async getSite(id: string): Promise<SiteRow | null> {
      const r = await db.site.findUnique({ where: { id }, include: withCount });
      return r && siteRow(r);
    },

    async listSites(organizationId: string, filter: SiteFilter, page: Page): Promise<SiteRow[]> {
      const rows = await db.site.findMany({
        where: {
          organizationId,
          ...(filter.published !== undefined ? { published: filter.published } : {}),
          ...(filter.title ? { title: { contains: filter.title, mode: 'insensitive' as const } } : {}),
          ...(filter.spaceId ? { siteSpaces: { some: { spaceId: filter.spaceId } } } : {}),
        },
        include: withCount,
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        take: page.take,
        ...cursor(page),
      });
      return rows.map(siteRow);
    },

    /** The site with its first site-spaces at the root. */
    async createSite(data: NewSite, spaces: SpaceRef[]): Promise<SiteRow> {
      const id = newId();
      await db.$transaction(async (tx) => {
        await tx.site.create({ data: { id, ...data } });
        await appendSiteSpaces(tx, { groups: [], sections: [], siteSpaces: [] }, id, null, spaces);
      });
      return (await this.getSite(id))!;
    },

    async updateSite(id: string, changes: SiteChanges): Promise<SiteRow> {
      const { defaultSiteSpaceId, defaultSectionId, ...fields } = changes;
      await editTree(id, async (tx, tree) => {
        if (defaultSectionId !== undefined) {
          if (!tree.sections.some((s) => s.id === defaultSectionId)) throw notFound('section', defaultSectionId, 'defaultSiteSection');
          await tx.siteSection.updateMany({ where: { siteId: id }, data: { isDefault: false } });
          await tx.siteSection.update({ where: { id: defaultSectionId }, data: { isDefault: true } });
        }
        if (defaultSiteSpaceId !== undefined) await makeDefaultSiteSpace(tx, tree, defaultSiteSpaceId, 'defaultSiteSpace');
        try {
          await tx.site.update({ where: { id }, data: fields });
        } catch (err) {
          // The unique index decides, so two sites racing for one hostname cannot both win.
          if (isUniqueViolation(err)) throw new AlreadyExistsError(`hostname: "${fields.hostname}" is used by another site`);
          throw err;
        }
      });
      return (await this.getSite(id))!;
    },

    async setPublished(id: string, published: boolean): Promise<SiteRow> {
      return siteRow(await db.site.update({ where: { id }, data: { published }, include: withCount }));
    },

    async setAdaptiveSchema(id: string, schema: Prisma.InputJsonValue, at: Date): Promise<SiteRow> {
      return siteRow(await db.site.update({ where: { id }, data: { adaptiveSchema: schema, adaptiveSchemaUpdatedAt: at }, include: withCount }));
    },

    /** A published site by its custom hostname, or by its basename (the oldest first) or id within an organization. */
    async findPublishedSite(address: { hostname: string } | { organizationId: string; site: string }): Promise<SiteRow | null> {
      const where = 'hostname' in address ? { hostname: address.hostname } : { organizationId: address.organizationId, OR: [{ id: address.site }, { basename: address.site }] };
      const r = await db.site.findFirst({ where: { ...where, published: true }, include: withCount, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      return r && siteRow(r);
    },

    setVisitorAuth(id: string, data: { visitorKeySealed?: Uint8Array<ArrayBuffer>; visitorAuthBackend?: string; visitorFallbackUrl?: string | null }): Promise<SiteRecord> {
      return db.site.update({ where: { id }, data });
    },

    /** Replaces the settings, or merges `settings` over them one top-level setting at a time, in one statement. */
    async setCustomization(id: string, settings: Prisma.InputJsonObject, replace: boolean): Promise<SiteRow> {
      if (replace) return siteRow(await db.site.update({ where: { id }, data: { customization: settings }, include: withCount }));
      await db.$executeRaw`UPDATE "Site" SET customization = COALESCE(customization, '{}'::jsonb) || ${JSON.stringify(settings)}::jsonb, "updatedAt" = now() WHERE id = ${id}`;
      return (await this.getSite(id))!;
    },

    async deleteSite(id: string): Promise<void> {
      await db.site.delete({ where: { id } });
    },

    tree(siteId: string): Promise<SiteTree> {
      return loadTree(db, siteId);
    },

    // Share links

    listShareLinks(siteId: string, page: Page): Promise<ShareLinkRow[]> {
      return db.shareLink.findMany({ where: { siteId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: page.take, ...cursor(page) });
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

    // Site-spaces

    listSiteSpaces(siteId: string, isDefault: boolean | undefined, page: Page): Promise<SiteSpaceRow[]> {
      return db.siteSpace.findMany({ where: { siteId, ...(isDefault !== undefined ? { isDefault } : {}) }, orderBy: ordered, take: page.take, ...cursor(page) });
    },

    /** Adds the space to the section, or without one to the default section, or the root of a site without sections. */
    addSiteSpace(siteId: string, space: SpaceRef, sectionId: string | undefined): Promise<SiteSpaceRow> {
      return editTree(siteId, async (tx, tree) => {
        if (sectionId !== undefined && !tree.sections.some((s) => s.id === sectionId)) throw notFound('section', sectionId, 'sectionId');
        const target = sectionId ?? tree.sections.find((s) => s.isDefault)?.id ?? null;
        return (await appendSiteSpaces(tx, tree, siteId, target, [space]))[0]!;
      });
    },

    updateSiteSpace(siteId: string, id: string, changes: { path?: string; condition?: string | null; space?: SpaceRef }): Promise<SiteSpaceRow> {
      return editTree(siteId, async (tx, tree) => {
        const row = tree.siteSpaces.find((p) => p.id === id);
        if (!row) throw notFound('Site-space', id);
        if (changes.path !== undefined && tree.siteSpaces.some((p) => p.sectionId === row.sectionId && p.id !== id && p.path === changes.path))
          throw pathTaken(changes.path, row.sectionId ? 'section' : 'site');
        return tx.siteSpace.update({
          where: { id },
          data: { path: changes.path, condition: changes.condition, ...(changes.space ? { spaceId: changes.space.spaceId, title: changes.space.title } : {}) },
        });
      });
    },

    deleteSiteSpace(siteId: string, id: string): Promise<void> {
      return editTree(siteId, async (tx, tree) => {
        const row = tree.siteSpaces.find((p) => p.id === id);
        if (!row) throw notFound('Site-space', id);
        await tx.siteSpace.delete({ where: { id } });
        await handOverDefault(tx, tree, row);
      });
    },

    // Sections

    listSections(siteId: string, page: Page): Promise<SectionRow[]> {
      return db.siteSection.findMany({ where: { siteId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: page.take, ...cursor(page) });
    },

    /**
     * A section at the end of the site's top level holding the space. The site's first section is
     * its default; the site-spaces it had at its root first move into a section of their own
     * (titled after the site), so that nothing leaves the structure.
     */
    createSection(siteId: string, data: { title: string; icon: string | null; space: SpaceRef }, siteTitle: string): Promise<SectionRow> {
      return editTree(siteId, async (tx, tree) => {
        const paths = tree.sections.map((s) => s.path);
        let position = endOf(tree, { kind: 'top' });
        const roots = tree.siteSpaces.filter((p) => p.sectionId === null);
        const addSection = async (title: string, icon: string | null, isDefault: boolean) => {
          const path = freePath(pathFromTitle(title, 'section'), paths);
          paths.push(path);
          return tx.siteSection.create({ data: { id: newId(), siteId, title, icon, path, isDefault, position: position++ } });
        };
        if (tree.sections.length === 0 && roots.length > 0) {
          const holder = await addSection(siteTitle, null, true);
          await tx.siteSpace.updateMany({ where: { siteId, sectionId: null }, data: { sectionId: holder.id } });
        }
        const section = await addSection(data.title, data.icon, tree.sections.length === 0 && roots.length === 0);
        await appendSiteSpaces(tx, tree, siteId, section.id, [data.space]);
        return section;
      });
    },

    updateSection(
      siteId: string,
      id: string,
      changes: { title?: string; path?: string; defaultSiteSpaceId?: string; condition?: string | null; icon?: string | null; description?: string | null },
    ): Promise<SectionRow> {
      const { defaultSiteSpaceId, ...fields } = changes;
      return editTree(siteId, async (tx, tree) => {
        if (!tree.sections.some((s) => s.id === id)) throw notFound('Section', id);
        if (fields.path !== undefined && tree.sections.some((s) => s.id !== id && s.path === fields.path)) throw pathTaken(fields.path, 'site');
        if (defaultSiteSpaceId !== undefined) await makeDefaultSiteSpace(tx, tree, defaultSiteSpaceId, 'defaultSiteSpace', id);
        return tx.siteSection.update({ where: { id }, data: fields });
      });
    },

    /** Deletes the section and its site-spaces; the first remaining section becomes default if it was. */
    deleteSection(siteId: string, id: string): Promise<void> {
      return editTree(siteId, async (tx, tree) => {
        const row = tree.sections.find((s) => s.id === id);
        if (!row) throw notFound('Section', id);
        await tx.siteSection.delete({ where: { id } });
        const next = row.isDefault ? nextDefault(tree.sections, id) : undefined;
        if (next) await tx.siteSection.update({ where: { id: next.id }, data: { isDefault: true } });
      });
    },

    // Section groups

    listGroups(siteId: string, page: Page): Promise<GroupRow[]> {
      return db.siteSectionGroup.findMany({ where: { siteId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: page.take, ...cursor(page) });
    },

    /** A group at the end of the site's top level, holding `sectionIds` in that order. */
    createGroup(siteId: string, data: { title: string; icon: string | null; sectionIds: string[] }): Promise<GroupRow> {
      return editTree(siteId, async (tx, tree) => {
        if (new Set(data.sectionIds).size !== data.sectionIds.length) throw new InvalidArgumentError('sections: the same section is given twice');
        for (const s of data.sectionIds) if (!tree.sections.some((x) => x.id === s)) throw notFound('section', s, 'sections');
        const group = await tx.siteSectionGroup.create({ data: { id: newId(), siteId, title: data.title, icon: data.icon, position: endOf(tree, { kind: 'top' }) } });
        for (const [i, s] of data.sectionIds.entries()) await tx.siteSection.update({ where: { id: s }, data: { groupId: group.id, position: i + 1 } });
        return group;
      });
    },

    async getGroup(siteId: string, id: string): Promise<GroupRow | null> {
      return db.siteSectionGroup.findFirst({ where: { id, siteId } });
    },

    updateGroup(id: string, data: { title?: string; icon?: string | null }): Promise<GroupRow> {
      return db.siteSectionGroup.update({ where: { id }, data });
    },

    /** Deletes the group; its sections stay at the top level, in its place and order. */
    deleteGroup(siteId: string, id: string): Promise<void> {
      return editTree(siteId, async (tx, tree) => {
        const top = itemsIn(tree, { kind: 'top' });
        const at = top.findIndex((x) => x.kind === 'site-section-group' && x.id === id);
        if (at < 0) throw notFound('Section group', id);
        const from = top[at]!.position;
        const to = top[at + 1]?.position ?? from + 1;
        const members = itemsIn(tree, { kind: 'group', groupId: id });
        for (const [i, m] of members.entries())
          await tx.siteSection.update({ where: { id: m.id }, data: { groupId: null, position: from + ((to - from) * (i + 1)) / (members.length + 1) } });
        await tx.siteSectionGroup.delete({ where: { id } });
      });
    },

    /** Puts the section at the end of the group. */
    addSectionToGroup(siteId: string, groupId: string, sectionId: string): Promise<void> {
      return editTree(siteId, async (tx, tree) => {
        if (!tree.groups.some((g) => g.id === groupId)) throw notFound('Section group', groupId);
        if (!tree.sections.some((s) => s.id === sectionId)) throw notFound('section', sectionId, 'sectionId');
        const others = itemsIn(tree, { kind: 'group', groupId }).filter((x) => x.id !== sectionId);
        await tx.siteSection.update({ where: { id: sectionId }, data: { groupId, position: (others.at(-1)?.position ?? 0) + 1 } });
      });
    },

    /** Takes the section out of the group, to the top level right after the group. */
    removeSectionFromGroup(siteId: string, groupId: string, sectionId: string): Promise<void> {
      return editTree(siteId, async (tx, tree) => {
        if (!tree.groups.some((g) => g.id === groupId)) throw notFound('Section group', groupId);
        if (!tree.sections.some((s) => s.id === sectionId && s.groupId === groupId)) throw notFound('Section', sectionId);
        const { position } = movePlan(tree, { type: 'site-section', id: sectionId }, { pointer: { type: 'site-section-group', id: groupId }, before: false });
        await tx.siteSection.update({ where: { id: sectionId }, data: { groupId: null, position } });
      });
    },

    /**
     * Moves an item as the structure sort asks. A site-space keeps its path in its new section,
     * which must be free there; it hands over being default when it leaves its section, and becomes
     * default of an empty one.
     */
    moveItem(siteId: string, item: Pointer, anchor: { pointer: Pointer; before: boolean } | undefined): Promise<void> {
      return editTree(siteId, async (tx, tree) => {
        const kind = item.type as 'site-space' | 'site-section' | 'site-section-group';
        if (!containerOf(tree, kind, item.id)) throw notFound(kind, item.id, 'item');
        const { container, position } = movePlan(tree, item, anchor);
        if (kind === 'site-section-group') return void (await tx.siteSectionGroup.update({ where: { id: item.id }, data: { position } }));
        if (kind === 'site-section') return void (await tx.siteSection.update({ where: { id: item.id }, data: { ...placeFields(container), position } }));
        const row = tree.siteSpaces.find((p) => p.id === item.id)!;
        const sectionId = container.kind === 'section' ? container.sectionId : row.sectionId;
        if (sectionId === row.sectionId) return void (await tx.siteSpace.update({ where: { id: row.id }, data: { position } }));
        const siblings = tree.siteSpaces.filter((p) => p.sectionId === sectionId);
        if (siblings.some((p) => p.path === row.path)) throw pathTaken(row.path, 'section');
        await tx.siteSpace.update({ where: { id: row.id }, data: { sectionId, position, isDefault: siblings.length === 0 } });
        await handOverDefault(tx, tree, row);
      });
    },
  };
}

export type Store = ReturnType<typeof createStore>;
