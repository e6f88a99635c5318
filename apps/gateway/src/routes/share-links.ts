import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent } from '../schemas/common.ts';
import { CreateShareLinkBody, ShareLink, ShareLinkParams, SiteParams, UpdateShareLinkBody } from '../schemas/sites.ts';
import { presentShareLink } from '../presenters/sites.ts';
import type { RouteDeps } from './context.ts';
import { done, operations, pagedLists } from './operation.ts';
import { siteRef } from './sites.ts';

const op = operations('sites');
const prefix = '/orgs/:organizationId/sites/:siteId/share-links';

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { sites }, urls }) => {
  const list = pagedLists(app, op);
  list(
    prefix,
    { operationId: 'listSiteShareLinks', summary: 'List the share links of a site', params: SiteParams, item: ShareLink },
    (params, page, caller) => sites.listShareLinks({ site: siteRef(params), page }, caller),
    (l, { organizationId }) => presentShareLink(l, urls, organizationId),
  );

  app.post(
    prefix,
    op({ operationId: 'createSiteShareLink', summary: 'Create an active share link', params: SiteParams, body: CreateShareLinkBody, response: { 201: ShareLink } }),
    async (req, reply) =>
      reply.code(201).send(presentShareLink(await sites.createShareLink({ site: siteRef(req.params), name: req.body.name }, req.caller), urls, req.params.organizationId)),
  );

  app.patch(
    `${prefix}/:shareLinkId`,
    op({
      operationId: 'updateSiteShareLinkById',
      summary: 'Rename, deactivate or reactivate a share link',
      params: ShareLinkParams,
      body: UpdateShareLinkBody,
      response: { 200: ShareLink },
    }),
    async (req) =>
      presentShareLink(
        await sites.updateShareLink({ site: siteRef(req.params), shareLinkId: req.params.shareLinkId, active: req.body.active, name: req.body.name }, req.caller),
        urls,
        req.params.organizationId,
      ),
  );

  app.delete(
    `${prefix}/:shareLinkId`,
    op({ operationId: 'deleteSiteShareLinkById', summary: 'Delete a share link', params: ShareLinkParams, response: { 205: NoContent } }),
    async (req, reply) => done(reply, 205, sites.deleteShareLink({ site: siteRef(req.params), shareLinkId: req.params.shareLinkId }, req.caller)),
  );
};

export default routes;
