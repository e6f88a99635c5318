import type { Page } from '@quire/service-kit';
import { isUniqueViolation, openDatabaseStore, type Database } from '@quire/service-kit/prisma';
import { Prisma, PrismaClient } from '../generated/prisma/client.ts';
import type { ListFilter, Manifest } from '../domain/manifest.ts';

export type Db = Database<PrismaClient>;

// What is shown of an integration: never the script (large, served elsewhere) nor the secrets.
const shown = { script: true, secrets: true } as const;
export type IntegrationRow = Prisma.IntegrationGetPayload<{ omit: typeof shown }>;

/** Opens the service's database (one pool for Prisma and plain SQL) and its store. */
export const openStore = (connectionString: string, poolSize?: number, log?: Parameters<typeof openDatabaseStore>[4]) =>
  openDatabaseStore(PrismaClient, createStore, connectionString, poolSize, log);

const json = (value: object | string) => value as Prisma.InputJsonValue;
const nullableJson = (value: object | string | null) => (value === null ? Prisma.DbNull : json(value));

export function createStore(database: Db) {
  const db = database.prisma;
  return {
    get(name: string): Promise<IntegrationRow | null> {
      return db.integration.findUnique({ where: { name }, omit: shown });
    },

    /**
     * Integrations matching the filter in name order. Non-public ones only of `filter.owner`, and
     * only when `ownerMember` says the caller belongs to it.
     */
    list(filter: ListFilter, ownerMember: boolean, page: Page): Promise<IntegrationRow[]> {
      const where: Prisma.IntegrationWhereInput = {
        ...(ownerMember ? {} : { visibility: 'public' }),
        ...(filter.owner ? { ownerOrganizationId: filter.owner } : {}),
        ...(filter.search ? { OR: [{ name: { contains: filter.search, mode: 'insensitive' } }, { title: { contains: filter.search, mode: 'insensitive' } }] } : {}),
        ...(filter.category ? { categories: { has: filter.category } } : {}),
        ...(filter.scope ? { scopes: { has: filter.scope } } : {}),
        ...(filter.blockDomain ? { blockDomains: { has: filter.blockDomain } } : {}),
        ...(filter.blocks !== undefined ? { hasBlocks: filter.blocks } : {}),
        ...(filter.contentSources !== undefined ? { hasContentSources: filter.contentSources } : {}),
        // An integration of target `all` is installable at every target.
        ...(filter.target ? { target: { in: filter.target === 'all' ? ['all'] : [filter.target, 'all'] } } : {}),
      };
      return db.integration.findMany({
        where,
        omit: shown,
        orderBy: { name: 'asc' },
        take: page.take,
        ...(page.after ? { cursor: { name: page.after }, skip: 1 } : {}),
      });
    },

    /**
     * Creates the integration for the organization, or replaces it with version + 1 when that
     * organization owns it already. `secrets` undefined keeps the stored ones. Null when another
     * organization owns the name.
     */
    async publish(m: Manifest, organizationId: string, publishedBy: string, secrets: Uint8Array<ArrayBuffer> | undefined): Promise<IntegrationRow | null> {
      const data = {
        title: m.title,
        description: m.description,
        summary: m.summary,
        previewImages: m.previewImages,
        icon: m.icon,
        runtime: m.runtime,
        visibility: m.visibility,
        target: m.target,
        scopes: m.scopes,
        categories: m.categories,
        blocks: json(m.blocks),
        contentSources: json(m.contentSources),
        externalLinks: json(m.externalLinks),
        configurations: nullableJson(m.configurations),
        contentSecurityPolicy: nullableJson(m.contentSecurityPolicy),
        blockDomains: m.blockDomains,
        hasBlocks: m.hasBlocks,
        hasContentSources: m.hasContentSources,
        script: m.script,
        publishedBy,
        ...(secrets !== undefined ? { secrets } : {}),
      };
      // Update-then-create, twice: a first publish racing another one by the same organization
      // loses the create (unique name) and then finds the row to update.
      for (let attempt = 0; attempt < 2; attempt++) {
        const [updated] = await db.integration.updateManyAndReturn({
          where: { name: m.name, ownerOrganizationId: organizationId },
          data: { ...data, version: { increment: 1 } },
          omit: shown,
        });
        if (updated) return updated;
        try {
          return await db.integration.create({ data: { ...data, name: m.name, ownerOrganizationId: organizationId }, omit: shown });
        } catch (err) {
          if (!isUniqueViolation(err)) throw err;
        }
      }
      return null;
    },

    async unpublish(name: string): Promise<void> {
      await db.integration.deleteMany({ where: { name } });
    },
  };
}

export type Store = ReturnType<typeof createStore>;
