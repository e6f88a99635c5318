import { AlreadyExistsError, NotFoundError } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import type { Prisma, PrismaClient } from '../generated/prisma/client.ts';
import { freePath, pathFromTitle } from '../domain/fields.ts';
import { containerOf, endOf, movePlan, nextDefault, type Container, type Pointer, type Tree } from '../domain/structure.ts';
import type { Db } from './index.ts';

export type Tx = Prisma.TransactionClient;
export type GroupRow = Prisma.SiteSectionGroupGetPayload<object>;
export type SectionRow = Prisma.SiteSectionGetPayload<object>;
export type SiteSpaceRow = Prisma.SiteSpaceGetPayload<object>;
export type SiteTree = Tree<GroupRow, SectionRow, SiteSpaceRow>;

export const ordered = [{ position: 'asc' as const }, { id: 'asc' as const }];

export interface SpaceRef {
  spaceId: string;
  title: string;
}

export const notFound = (what: string, id: string, field?: string) => new NotFoundError(`${field ? `${field}: ` : ''}${what} "${id}" not found`);
export const pathTaken = (path: string, where: string) => new AlreadyExistsError(`path: "${path}" is already used in this ${where}`);

export async function loadTree(tx: Tx, siteId: string): Promise<SiteTree> {
  const [groups, sections, siteSpaces] = await Promise.all([
    tx.siteSectionGroup.findMany({ where: { siteId }, orderBy: ordered }),
    tx.siteSection.findMany({ where: { siteId }, orderBy: ordered }),
    tx.siteSpace.findMany({ where: { siteId }, orderBy: ordered }),
  ]);
  return { groups, sections, siteSpaces };
}

const placeFields = (c: Container) => (c.kind === 'group' ? { groupId: c.groupId } : c.kind === 'top' ? { groupId: null } : { sectionId: c.sectionId });

/** The site-spaces of `sectionId` (the root when null) get `spaces` at their end, the first one default when the section was empty. */
export async function appendSiteSpaces(tx: Tx, tree: SiteTree, siteId: string, sectionId: string | null, spaces: SpaceRef[]): Promise<SiteSpaceRow[]> {
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

export async function makeDefaultSiteSpace(tx: Tx, tree: SiteTree, siteSpaceId: string, field: string, sectionId?: string) {
  const p = tree.siteSpaces.find((x) => x.id === siteSpaceId);
  if (!p || (sectionId !== undefined && p.sectionId !== sectionId)) throw notFound('site-space', siteSpaceId, field);
  await tx.siteSpace.updateMany({ where: { siteId: p.siteId, sectionId: p.sectionId, id: { not: p.id } }, data: { isDefault: false } });
  await tx.siteSpace.update({ where: { id: p.id }, data: { isDefault: true } });
}

/** When a default site-space leaves its section, the first of the others takes over. */
export async function handOverDefault(tx: Tx, tree: SiteTree, leaving: SiteSpaceRow) {
  if (!leaving.isDefault) return;
  const next = nextDefault(
    tree.siteSpaces.filter((p) => p.sectionId === leaving.sectionId),
    leaving.id,
  );
  if (next) await tx.siteSpace.update({ where: { id: next.id }, data: { isDefault: true } });
}

/** What runs `fn` on the site's structure with the site row locked: structure changes of one site happen one at a time. */
export function treeEditor(db: PrismaClient) {
  return function editTree<T>(siteId: string, fn: (tx: Tx, tree: SiteTree) => Promise<T>): Promise<T> {
    return db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM "Site" WHERE id = ${siteId} FOR UPDATE`;
      return fn(tx, await loadTree(tx, siteId));
    });
  };
}

/** A site's structure as a whole: its groups, sections and site-spaces, and moves among them. */
export function treeStore(database: Db) {
  const db = database.prisma;
  const editTree = treeEditor(db);
  return {
    tree(siteId: string): Promise<SiteTree> {
      return loadTree(db, siteId);
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
