import { InvalidArgumentError, rowsAfter, type Page } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import { freePath, pathFromTitle } from '../domain/fields.ts';
import { endOf, itemsIn, movePlan, nextDefault } from '../domain/structure.ts';
import type { Db } from './index.ts';
import { appendSiteSpaces, makeDefaultSiteSpace, notFound, pathTaken, treeEditor, type GroupRow, type SectionRow, type SpaceRef } from './tree.ts';

/** Sections of a site, and the groups that gather them. */
export function sectionStore(database: Db) {
  const db = database.prisma;
  const editTree = treeEditor(db);
  return {
    listSections(siteId: string, page: Page): Promise<SectionRow[]> {
      return db.siteSection.findMany({ where: { siteId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], ...rowsAfter(page) });
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

    listGroups(siteId: string, page: Page): Promise<GroupRow[]> {
      return db.siteSectionGroup.findMany({ where: { siteId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], ...rowsAfter(page) });
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
  };
}
