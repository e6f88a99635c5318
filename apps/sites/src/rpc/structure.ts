import type { SiteRef, SitesServiceServer, SiteStructureItem } from '@quire/proto/sites';
import type { PageRequest } from '@quire/proto/common';
import { checkOneOf, InvalidArgumentError, NotFoundError, pageArgs, pageOf, type CallContext, type Handlers, type Page } from '@quire/service-kit';
import { checkCondition, checkDescription, checkGroupTitle, checkIcon, checkPath, checkSectionTitle } from '../domain/fields.ts';
import { ITEM_KINDS, type ItemKind } from '../domain/structure.ts';
import { presentStructure, treePresenter } from '../presenters.ts';
import type { SiteRow } from '../store/index.ts';
import { editable, readable, spaceOf, viewable, type Deps } from './deps.ts';

type TreePresenter = ReturnType<typeof treePresenter>;

type H = Pick<
  Handlers<SitesServiceServer>,
  | 'listSiteSpaces'
  | 'addSiteSpace'
  | 'updateSiteSpace'
  | 'deleteSiteSpace'
  | 'listSections'
  | 'createSection'
  | 'updateSection'
  | 'deleteSection'
  | 'listSectionGroups'
  | 'createSectionGroup'
  | 'updateSectionGroup'
  | 'deleteSectionGroup'
  | 'addSectionToGroup'
  | 'removeSectionFromGroup'
  | 'getSiteStructure'
  | 'moveSiteItem'
>;

/** `set` with the value unset removes it: null; not `set` leaves it: undefined. */
const settable = <T>(set: boolean, value: T | undefined, check: (v: T) => T): T | null | undefined => (set ? (value !== undefined ? check(value) : null) : undefined);

const DEFAULT_SECTION_TITLE = 'Untitled section';

export function structureHandlers(deps: Deps): H {
  const { store } = deps;

  /** One item of the site as it now stands, with its children. */
  async function current(site: SiteRow, kind: ItemKind, id: string): Promise<SiteStructureItem> {
    const tree = await store.tree(site.id);
    const p = treePresenter(site, tree);
    if (kind === 'site-space') return { siteSpace: p.siteSpace(tree.siteSpaces.find((x) => x.id === id)!) };
    if (kind === 'site-section') return { section: p.section(tree.sections.find((x) => x.id === id)!) };
    return { group: p.group(tree.groups.find((x) => x.id === id)!) };
  }

  /** A page of the site's items of one kind, each presented with the site's tree. */
  async function itemPage<K extends keyof TreePresenter>(site: SiteRow, req: PageRequest | undefined, list: (page: Page) => Promise<Parameters<TreePresenter[K]>[0][]>, kind: K) {
    const { limit, page } = pageArgs(req);
    const [rows, tree] = await Promise.all([list(page), store.tree(site.id)]);
    const { items, next } = pageOf(rows, limit, (r) => r.id);
    const present = treePresenter(site, tree)[kind] as (row: Parameters<TreePresenter[K]>[0]) => ReturnType<TreePresenter[K]>;
    return { items: items.map((r) => present(r)), page: { next } };
  }

  /** A change to an editable site that answers nothing. */
  const change =
    <R extends { site?: SiteRef }>(work: (siteId: string, req: R) => Promise<unknown>) =>
    async (req: R, ctx: CallContext) => {
      await work((await editable(deps, req.site, ctx)).id, req);
      return {};
    };

  return {
    async listSiteSpaces(req, ctx) {
      const { site } = await viewable(deps, req.site, req.shareKey, ctx);
      return itemPage(site, req.page, (page) => store.listSiteSpaces(site.id, req.default, page), 'siteSpace');
    },

    async addSiteSpace(req, ctx) {
      const site = await editable(deps, req.site, ctx);
      const space = await spaceOf(deps, site.organizationId, req.spaceId, 'spaceId', ctx);
      const row = await store.addSiteSpace(site.id, space, req.sectionId);
      return (await current(site, 'site-space', row.id)).siteSpace!;
    },

    async updateSiteSpace(req, ctx) {
      const path = req.path !== undefined ? checkPath(req.path) : undefined;
      const condition = settable(req.setCondition, req.condition, checkCondition);
      const site = await editable(deps, req.site, ctx);
      const space = req.spaceId !== undefined ? await spaceOf(deps, site.organizationId, req.spaceId, 'spaceId', ctx) : undefined;
      const row = await store.updateSiteSpace(site.id, req.siteSpaceId, { path, condition, space });
      return (await current(site, 'site-space', row.id)).siteSpace!;
    },

    deleteSiteSpace: change((siteId, req) => store.deleteSiteSpace(siteId, req.siteSpaceId)),

    async listSections(req, ctx) {
      const { site } = await viewable(deps, req.site, req.shareKey, ctx);
      return itemPage(site, req.page, (page) => store.listSections(site.id, page), 'section');
    },

    async createSection(req, ctx) {
      const title = req.title !== undefined ? checkSectionTitle(req.title) : undefined;
      const icon = req.icon !== undefined ? checkIcon(req.icon) : null;
      const site = await editable(deps, req.site, ctx);
      const space = await spaceOf(deps, site.organizationId, req.spaceId, 'spaceId', ctx);
      // Without a title the section takes its space's, when that one fits the section bounds.
      const fallback = [...space.title.trim()].length >= 2 ? space.title.trim() : DEFAULT_SECTION_TITLE;
      const row = await store.createSection(site.id, { title: title ?? fallback, icon, space }, site.title);
      return (await current(site, 'site-section', row.id)).section!;
    },

    async updateSection(req, ctx) {
      const title = req.title !== undefined ? checkSectionTitle(req.title) : undefined;
      const path = req.path !== undefined ? checkPath(req.path) : undefined;
      const condition = settable(req.setCondition, req.condition, checkCondition);
      const icon = settable(req.setIcon, req.icon, checkIcon);
      const description = settable(req.setDescription, req.description, checkDescription);
      const site = await editable(deps, req.site, ctx);
      await store.updateSection(site.id, req.sectionId, { title, path, condition, icon, description, defaultSiteSpaceId: req.defaultSiteSpaceId });
      return (await current(site, 'site-section', req.sectionId)).section!;
    },

    deleteSection: change((siteId, req) => store.deleteSection(siteId, req.sectionId)),

    async listSectionGroups(req, ctx) {
      const { site } = await readable(deps, req.site, ctx);
      return itemPage(site, req.page, (page) => store.listGroups(site.id, page), 'group');
    },

    async createSectionGroup(req, ctx) {
      const title = checkGroupTitle(req.title);
      const icon = req.icon !== undefined ? checkIcon(req.icon) : null;
      const site = await editable(deps, req.site, ctx);
      const row = await store.createGroup(site.id, { title, icon, sectionIds: req.sectionIds });
      return (await current(site, 'site-section-group', row.id)).group!;
    },

    async updateSectionGroup(req, ctx) {
      const title = req.title !== undefined ? checkGroupTitle(req.title) : undefined;
      const icon = settable(req.setIcon, req.icon, checkIcon);
      const site = await editable(deps, req.site, ctx);
      const group = await store.getGroup(site.id, req.groupId);
      if (!group) throw groupNotFound(req.groupId);
      await store.updateGroup(group.id, { title, icon });
      return (await current(site, 'site-section-group', group.id)).group!;
    },

    deleteSectionGroup: change((siteId, req) => store.deleteGroup(siteId, req.groupId)),

    async addSectionToGroup(req, ctx) {
      const site = await editable(deps, req.site, ctx);
      await store.addSectionToGroup(site.id, req.groupId, req.sectionId);
      return (await current(site, 'site-section-group', req.groupId)).group!;
    },

    removeSectionFromGroup: change((siteId, req) => store.removeSectionFromGroup(siteId, req.groupId, req.sectionId)),

    async getSiteStructure(req, ctx) {
      const { site } = await viewable(deps, req.site, req.shareKey, ctx);
      return presentStructure(site, await store.tree(site.id));
    },

    async moveSiteItem(req, ctx) {
      const item = req.item;
      if (!item) throw new InvalidArgumentError('item: required');
      checkOneOf('item.type', item.type, ITEM_KINDS);
      if (req.before && req.after) throw new InvalidArgumentError('position: give before or after, not both');
      const anchor = req.before ? { pointer: req.before, before: true } : req.after ? { pointer: req.after, before: false } : undefined;
      const site = await editable(deps, req.site, ctx);
      await store.moveItem(site.id, item, anchor);
      return current(site, item.type as ItemKind, item.id);
    },
  };
}

const groupNotFound = (id: string) => new NotFoundError(`Section group "${id}" not found`);
