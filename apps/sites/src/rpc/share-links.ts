import { listPage, NotFoundError, type CallContext, type Handlers } from '@quire/service-kit';
import type { SiteRef, SitesServiceServer } from '@quire/proto/sites';
import { checkShareLinkName } from '../domain/fields.ts';
import { presentShareLink } from '../presenters.ts';
import { editable, readable, type Deps } from './deps.ts';

type H = Pick<Handlers<SitesServiceServer>, 'listShareLinks' | 'createShareLink' | 'updateShareLink' | 'deleteShareLink'>;

export function shareLinkHandlers(deps: Deps): H {
  const { store } = deps;

  async function editableLink(ref: SiteRef | undefined, id: string, ctx: CallContext) {
    const site = await editable(deps, ref, ctx);
    const link = id ? await store.getShareLink(site.id, id) : null;
    if (!link) throw new NotFoundError(`Share link "${id}" not found`);
    return link;
  }

  return {
    async listShareLinks(req, ctx) {
      const { site } = await readable(deps, req.site, ctx);
      return listPage(
        req.page,
        (page) => store.listShareLinks(site.id, page),
        (items) => items.map(presentShareLink),
      );
    },

    async createShareLink(req, ctx) {
      const name = checkShareLinkName(req.name);
      const site = await editable(deps, req.site, ctx);
      return presentShareLink(await store.createShareLink(site.id, name));
    },

    async updateShareLink(req, ctx) {
      const name = req.name !== undefined ? checkShareLinkName(req.name) : undefined;
      const link = await editableLink(req.site, req.shareLinkId, ctx);
      return presentShareLink(await store.updateShareLink(link.id, { name, active: req.active }));
    },

    async deleteShareLink(req, ctx) {
      const link = await editableLink(req.site, req.shareLinkId, ctx);
      await store.deleteShareLink(link.id);
      return {};
    },
  };
}
