import { isUniqueViolation } from '@quire/service-kit/prisma';
import { AlreadyExistsError, oldestFirst, type Page } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import type { Prisma } from '../generated/prisma/client.ts';
import type { Db } from './index.ts';
import { appendSiteSpaces, makeDefaultSiteSpace, notFound, treeEditor, type SpaceRef } from './tree.ts';

export type SiteRecord = Prisma.SiteGetPayload<object>;
export type SiteRow = SiteRecord & { siteSpaceCount: number; sectionCount: number };

const withCount = { _count: { select: { siteSpaces: true, sections: true } } } as const;
const siteRow = ({ _count, ...r }: SiteRecord & { _count: { siteSpaces: number; sections: number } }): SiteRow => ({
  ...r,
  siteSpaceCount: _count.siteSpaces,
  sectionCount: _count.sections,
});

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
export interface SiteFilter {
  spaceId?: string;
  title?: string;
  published?: boolean;
}
/** Sites and their settings. */
export function siteStore(database: Db) {
  const db = database.prisma;
  const editTree = treeEditor(db);
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
        ...oldestFirst(page),
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
  };
}
