import { rowsAfter, type Page } from '@quire/service-kit';
import type { Db } from './index.ts';
import { appendSiteSpaces, handOverDefault, notFound, ordered, pathTaken, treeEditor, type SiteSpaceRow, type SpaceRef } from './tree.ts';

/** Site-spaces: the spaces a site publishes, each at a path of its section. */
export function siteSpaceStore(database: Db) {
  const db = database.prisma;
  const editTree = treeEditor(db);
  return {
    listSiteSpaces(siteId: string, isDefault: boolean | undefined, page: Page): Promise<SiteSpaceRow[]> {
      return db.siteSpace.findMany({ where: { siteId, ...(isDefault !== undefined ? { isDefault } : {}) }, orderBy: ordered, ...rowsAfter(page) });
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
  };
}
