import { SPACE } from '@quire/proto/limits';
import type { SitesServiceServer } from '@quire/proto/sites';
import { listPage, checkOneOf, InvalidArgumentError, NotFoundError, type CallContext, type Handlers } from '@quire/service-kit';
import { AGENTS_CONTEXTS, checkBasename, checkHostname, checkProxy, checkSiteTitle, DEFAULTS, SITE_TYPES, SITE_VISIBILITIES, SPACE_KEYWORDS } from '../domain/fields.ts';
import { presentSite } from '../presenters.ts';
import type { SpaceRef } from '../store/index.ts';
import { editable, editorOf, memberOf, readable, type Deps } from './deps.ts';

type H = Pick<Handlers<SitesServiceServer>, 'createSite' | 'listSites' | 'getSite' | 'updateSite' | 'deleteSite' | 'setSitePublished'>;

export function siteHandlers(deps: Deps): H {
  const { store, content, events } = deps;

  const siteTarget = (site: { id: string }) => ({ type: 'site', id: site.id });

  /** The spaces a new site starts with: existing ones, or one created for it by content. */
  async function initialSpaces(organizationId: string, spaceIds: string[], keyword: string | undefined, title: string, ctx: CallContext): Promise<SpaceRef[]> {
    if (keyword !== undefined) {
      checkOneOf('spaces', keyword, SPACE_KEYWORDS);
      const spaceTitle = [...title].slice(0, SPACE.title.max).join('');
      const space = await content.createSpace({ organizationId, title: spaceTitle, emoji: '', editMode: '', visibility: '' }, ctx);
      return [{ spaceId: space.id, title: space.title }];
    }
    if (new Set(spaceIds).size !== spaceIds.length) throw new InvalidArgumentError('spaces: the same space is given twice');
    // One batch call: content answers the spaces the caller sees, in order, and leaves the others out.
    const { spaces } = await content.batchGetSpaces({ spaceIds }, ctx);
    const byId = new Map(spaces.filter((s) => s.organizationId === organizationId).map((s) => [s.id, s]));
    return spaceIds.map((id, i) => {
      const space = byId.get(id);
      if (!space) throw new NotFoundError(`spaces[${i}]: space "${id}" not found`);
      return { spaceId: space.id, title: space.title };
    });
  }

  return {
    async createSite(req, ctx) {
      const type = checkOneOf('type', req.type || DEFAULTS.type, SITE_TYPES);
      const title = req.title !== undefined ? checkSiteTitle(req.title) : DEFAULTS.title;
      const visibility = checkOneOf('visibility', req.visibility || DEFAULTS.visibility, SITE_VISIBILITIES);
      await editorOf(deps, req.organizationId, ctx);
      const spaces = await initialSpaces(req.organizationId, req.spaceIds, req.spaceKeyword, title, ctx);
      const site = await store.createSite({ organizationId: req.organizationId, type, title, visibility, agentsContext: DEFAULTS.agentsContext }, spaces);
      return presentSite(site);
    },

    async listSites(req, ctx) {
      await memberOf(deps, req.organizationId, ctx);
      const filter = { spaceId: req.spaceId, title: req.title, published: req.published };
      return listPage(
        req.page,
        (page) => store.listSites(req.organizationId, filter, page),
        (items) => items.map(presentSite),
      );
    },

    async getSite(req, ctx) {
      return presentSite((await readable(deps, req.site, ctx)).site);
    },

    async updateSite(req, ctx) {
      const title = req.title !== undefined ? checkSiteTitle(req.title) : undefined;
      const visibility = req.visibility !== undefined ? checkOneOf('visibility', req.visibility, SITE_VISIBILITIES) : undefined;
      const basename = req.basename !== undefined ? checkBasename(req.basename) : undefined;
      const agentsContext = req.agentsContext !== undefined ? checkOneOf('agentsContext', req.agentsContext, AGENTS_CONTEXTS) : undefined;
      const proxy = req.setProxy ? (req.proxy !== undefined ? checkProxy(req.proxy) : null) : undefined;
      const hostname = req.setHostname ? (req.hostname !== undefined ? checkHostname(req.hostname) : null) : undefined;
      const site = await editable(deps, req.site, ctx);
      const updated = await store.updateSite(site.id, {
        title,
        visibility,
        basename,
        adaptiveContent: req.adaptiveContent,
        agentsContext,
        proxy,
        hostname,
        defaultSiteSpaceId: req.defaultSiteSpaceId,
        defaultSectionId: req.defaultSectionId,
      });
      if (updated.visibility !== site.visibility) {
        await events.emit(ctx, {
          entity: 'site',
          verb: 'visibility_changed',
          organizationId: site.organizationId,
          target: siteTarget(site),
          details: { from: site.visibility, to: updated.visibility },
        });
      }
      return presentSite(updated);
    },

    async deleteSite(req, ctx) {
      const site = await editable(deps, req.site, ctx);
      await store.deleteSite(site.id);
      return {};
    },

    async setSitePublished(req, ctx) {
      const site = await editable(deps, req.site, ctx);
      if (site.published === req.published) return presentSite(site);
      const updated = await store.setPublished(site.id, req.published);
      // The spaces it shows, whatever its visibility: the reader reads them ahead of the first visitor.
      const spaceIds = req.published ? [...new Set((await store.tree(site.id)).siteSpaces.map((s) => s.spaceId))] : undefined;
      await events.emit(ctx, {
        entity: 'site',
        verb: req.published ? 'published' : 'unpublished',
        organizationId: site.organizationId,
        target: siteTarget(site),
        details: { visibility: updated.visibility, ...(spaceIds && { spaceIds }) },
      });
      return presentSite(updated);
    },
  };
}
