import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ListOf, NoContent, pageRequest } from '../schemas/common.ts';
import { AddSiteSpaceBody, ListSiteSpacesQuery, MoveSiteSpaceBody, SiteParams, SiteSpace, SiteSpaceParams, UpdateSiteSpaceBody } from '../schemas/sites.ts';
import type { RouteDeps } from './context.ts';
import { done, operations } from './operation.ts';
import { anchors, base, deprecated, itemPresenters, settable } from './site-items.ts';
import { siteRef } from './sites.ts';

const op = operations('site-spaces');

/** The site-spaces of a site: a space published at a path, in a section or at the root. */
export const siteSpaceRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  const { sites } = deps.services;
  const { siteSpaces } = itemPresenters(deps);

  app.get(
    `${base}/site-spaces`,
    op({
      operationId: 'listSiteSpaces',
      summary: 'List the site-spaces of a site; `default` true gives only the default ones, false only the others',
      params: SiteParams,
      querystring: ListSiteSpacesQuery,
      response: { 200: ListOf(SiteSpace) },
    }),
    async (req) => {
      const q = req.query;
      return siteSpaces.page(req, await sites.listSiteSpaces({ site: siteRef(req.params), page: pageRequest(q), default: q.default, shareKey: q.shareKey }, req.caller));
    },
  );

  app.post(
    `${base}/site-spaces`,
    op({
      operationId: 'addSpaceToSite',
      summary: 'Add a space to a site: to `sectionId`, else the default section, else the root of a site without sections',
      params: SiteParams,
      body: AddSiteSpaceBody,
      response: { 201: SiteSpace },
    }),
    async (req, reply) => {
      const siteSpace = await sites.addSiteSpace({ site: siteRef(req.params), spaceId: req.body.spaceId, sectionId: req.body.sectionId }, req.caller);
      return reply.code(201).send(await siteSpaces.one(req, siteSpace));
    },
  );

  app.patch(
    `${base}/site-spaces/:siteSpaceId`,
    op({
      operationId: 'updateSiteSpaceById',
      summary: 'Update a site-space: path, condition (null removes it), space',
      params: SiteSpaceParams,
      body: UpdateSiteSpaceBody,
      response: { 200: SiteSpace },
    }),
    async (req) => {
      const { path, condition, spaceId } = req.body;
      const set = settable(condition);
      const siteSpace = await sites.updateSiteSpace(
        { site: siteRef(req.params), siteSpaceId: req.params.siteSpaceId, path, setCondition: set.set, condition: set.value, spaceId },
        req.caller,
      );
      return siteSpaces.one(req, siteSpace);
    },
  );

  app.delete(
    `${base}/site-spaces/:siteSpaceId`,
    op({ operationId: 'deleteSiteSpaceById', summary: 'Remove a space from a site', params: SiteSpaceParams, response: { 205: NoContent } }),
    async (req, reply) => done(reply, 205, sites.deleteSiteSpace({ site: siteRef(req.params), siteSpaceId: req.params.siteSpaceId }, req.caller)),
  );

  app.post(
    `${base}/site-spaces/:siteSpaceId/move`,
    op({
      operationId: 'moveSiteSpace',
      summary: `Move a site-space beside another ${deprecated}`,
      params: SiteSpaceParams,
      body: MoveSiteSpaceBody,
      response: { 200: SiteSpace },
    }),
    async (req) => {
      const at = anchors(req.body.position, (p) => ({ type: p.type, id: p.siteSpace }));
      const { siteSpace } = await sites.moveSiteItem({ site: siteRef(req.params), item: { type: 'site-space', id: req.params.siteSpaceId }, ...at }, req.caller);
      return siteSpaces.one(req, siteSpace!);
    },
  );
};
