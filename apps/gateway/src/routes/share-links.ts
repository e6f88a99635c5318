import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses, list, ListOf, ListQuery, NoContent, pageRequest } from '../schemas/common.ts';
import { CreateShareLinkBody, ShareLink, ShareLinkParams, SiteParams, UpdateShareLinkBody } from '../schemas/sites.ts';
import { presentShareLink } from '../presenters/sites.ts';
import type { RouteDeps } from './context.ts';
import { siteRef } from './sites.ts';

const tags = ['sites'];
const prefix = '/orgs/:organizationId/sites/:siteId/share-links';

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { sites }, urls }) => {
  app.get(
    prefix,
    {
      schema: {
        operationId: 'listSiteShareLinks',
        tags,
        summary: 'List the share links of a site',
        params: SiteParams,
        querystring: Type.Object(ListQuery),
        response: { 200: ListOf(ShareLink), ...errorResponses },
      },
    },
    async (req) => {
      const res = await sites.listShareLinks({ site: siteRef(req.params), page: pageRequest(req.query) }, req.caller);
      return list(
        res.items.map((l) => presentShareLink(l, urls, req.params.organizationId)),
        res.page?.next,
      );
    },
  );

  app.post(
    prefix,
    {
      schema: {
        operationId: 'createSiteShareLink',
        tags,
        summary: 'Create an active share link',
        params: SiteParams,
        body: CreateShareLinkBody,
        response: { 201: ShareLink, ...errorResponses },
      },
    },
    async (req, reply) =>
      reply.code(201).send(presentShareLink(await sites.createShareLink({ site: siteRef(req.params), name: req.body.name }, req.caller), urls, req.params.organizationId)),
  );

  app.patch(
    `${prefix}/:shareLinkId`,
    {
      schema: {
        operationId: 'updateSiteShareLinkById',
        tags,
        summary: 'Rename, deactivate or reactivate a share link',
        params: ShareLinkParams,
        body: UpdateShareLinkBody,
        response: { 200: ShareLink, ...errorResponses },
      },
    },
    async (req) =>
      presentShareLink(
        await sites.updateShareLink({ site: siteRef(req.params), shareLinkId: req.params.shareLinkId, active: req.body.active, name: req.body.name }, req.caller),
        urls,
        req.params.organizationId,
      ),
  );

  app.delete(
    `${prefix}/:shareLinkId`,
    { schema: { operationId: 'deleteSiteShareLinkById', tags, summary: 'Delete a share link', params: ShareLinkParams, response: { 205: NoContent, ...errorResponses } } },
    async (req, reply) => {
      await sites.deleteShareLink({ site: siteRef(req.params), shareLinkId: req.params.shareLinkId }, req.caller);
      return reply.code(205).send();
    },
  );
};

export default routes;
