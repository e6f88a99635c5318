import { organizationPage, type Page } from '@quire/service-kit';
import type { Prisma } from '../generated/prisma/client.ts';
import type { Db } from './index.ts';

export type TranslationRow = Prisma.TranslationSettingsGetPayload<object>;

/** Translation settings of organizations. */
export function translationStore(database: Db) {
  const db = database.prisma;
  return {
    listTranslations(organizationId: string, page: Page): Promise<TranslationRow[]> {
      return db.translationSettings.findMany(organizationPage(organizationId, page));
    },

    getTranslation(organizationId: string, id: string): Promise<TranslationRow | null> {
      return db.translationSettings.findFirst({ where: { id, organizationId } });
    },

    createTranslation(data: { id: string; organizationId: string; title: string; languages: string[] }): Promise<TranslationRow> {
      return db.translationSettings.create({ data });
    },

    updateTranslation(id: string, data: { title: string; languages?: string[] }): Promise<TranslationRow> {
      return db.translationSettings.update({ where: { id }, data });
    },

    async deleteTranslation(organizationId: string, id: string): Promise<boolean> {
      return (await db.translationSettings.deleteMany({ where: { id, organizationId } })).count > 0;
    },
  };
}
