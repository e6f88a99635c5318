import { newId } from '@quire/service-kit/ids';
import { organizationPage, rowsAfter, type Page } from '@quire/service-kit';
import type { Prisma } from '../generated/prisma/client.ts';
import type { Db } from './index.ts';

export type OpenApiSpecRow = Prisma.OpenApiSpecGetPayload<object>;
/** A version without its content (lists and metadata). */
export type OpenApiVersionRow = Omit<Prisma.OpenApiSpecVersionGetPayload<object>, 'text' | 'json'>;
export type OpenApiVersionContentRow = Prisma.OpenApiSpecVersionGetPayload<object>;

/** A document as checked (domain/openapi.ts): what a new version stores. */
export interface CheckedDocument {
  text: string;
  json: string;
  version: string;
  digest: string;
}

const META = { id: true, specId: true, createdAt: true, sourceUrl: true, version: true, digest: true } as const;

// The organization's OpenAPI specifications and their versions. A spec's version list only grows:
// a save whose document is the latest's (same digest) adds none.
export function createOpenApiStore({ prisma: db }: Db) {
  return {
    list(organizationId: string, page: Page): Promise<OpenApiSpecRow[]> {
      return db.openApiSpec.findMany(organizationPage(organizationId, page));
    },

    get(organizationId: string, slug: string): Promise<OpenApiSpecRow | null> {
      return db.openApiSpec.findUnique({ where: { organizationId_slug: { organizationId, slug } } });
    },

    /**
     * Creates the spec or updates it, with a new version unless the latest has the same document;
     * one transaction, so a failed save leaves nothing. Null when `create` finds the slug taken.
     */
    async save(
      ref: { organizationId: string; slug: string },
      document: CheckedDocument,
      sourceUrl: string | null,
      mode: 'create' | 'upsert',
    ): Promise<{ spec: OpenApiSpecRow; created: boolean } | null> {
      return db.$transaction(async (tx) => {
        const existing = await tx.openApiSpec.findUnique({ where: { organizationId_slug: ref } });
        if (mode === 'create' && existing) return null;
        const now = new Date();
        const specId = existing?.id ?? newId();
        if (!existing) await tx.openApiSpec.create({ data: { id: specId, ...ref, sourceUrl } });
        const latest = existing?.lastVersionId ? await tx.openApiSpecVersion.findUnique({ where: { id: existing.lastVersionId }, select: { digest: true } }) : null;
        let lastVersionId = existing?.lastVersionId ?? null;
        if (latest?.digest !== document.digest) {
          lastVersionId = newId();
          await tx.openApiSpecVersion.create({ data: { id: lastVersionId, specId, sourceUrl, ...document } });
        }
        const spec = await tx.openApiSpec.update({ where: { id: specId }, data: { sourceUrl, lastVersionId, lastProcessedAt: now, lastProcessErrorCode: null } });
        return { spec, created: !existing };
      });
    },

    /** The organization's spec fetched from `url` (the latest saved, should two be), with a version. */
    byUrl(organizationId: string, url: string): Promise<OpenApiSpecRow | null> {
      return db.openApiSpec.findFirst({ where: { organizationId, sourceUrl: url, lastVersionId: { not: null } }, orderBy: [{ updatedAt: 'desc' }, { id: 'asc' }] });
    },

    setVisibility(id: string, visibility: string): Promise<OpenApiSpecRow> {
      return db.openApiSpec.update({ where: { id }, data: { visibility } });
    },

    /** False when there was none. */
    async delete(organizationId: string, slug: string): Promise<boolean> {
      const { count } = await db.openApiSpec.deleteMany({ where: { organizationId, slug } });
      return count > 0;
    },

    versions(specId: string, page: Page): Promise<OpenApiVersionRow[]> {
      return db.openApiSpecVersion.findMany({ where: { specId }, select: META, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], ...rowsAfter(page) });
    },

    version(specId: string, versionId: string): Promise<OpenApiVersionRow | null> {
      return db.openApiSpecVersion.findFirst({ where: { id: versionId, specId }, select: META });
    },

    content(specId: string, versionId: string): Promise<OpenApiVersionContentRow | null> {
      return db.openApiSpecVersion.findFirst({ where: { id: versionId, specId } });
    },
  };
}

export type OpenApiStore = ReturnType<typeof createOpenApiStore>;
