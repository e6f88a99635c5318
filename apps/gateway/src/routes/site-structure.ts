import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ShareKeyQuery, SiteParams, SiteStructure, SiteStructureItem, SortStructureBody } from '../schemas/sites.ts';
import type { RouteDeps } from './context.ts';
import { operations } from './operation.ts';
import { sectionRoutes } from './site-sections.ts';
import { anchors, base, itemPresenters } from './site-items.ts';
import { siteRef } from './sites.ts';
import { siteSpaceRoutes } from './site-spaces.ts';

// Site-spaces, sections, section groups and the site structure (read and sort; the deprecated
// move operations are the sort of one kind of item).

const op = operations('site-structure');

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  await siteSpaceRoutes(app, deps);
  await sectionRoutes(app, deps);
  const { sites } = deps.services;
  const { present } = itemPresenters(deps);

  app.get(
    `${base}/structure`,
    op({
      operationId: 'getSiteStructure',
      summary: 'The ordered sections and groups of a site, or its site-spaces when it has no sections',
      params: SiteParams,
      querystring: ShareKeyQuery,
      response: { 200: SiteStructure },
    }),
    async (req) => {
      const s = await sites.getSiteStructure({ site: siteRef(req.params), shareKey: req.query.shareKey }, req.caller);
      return (await present(req, s.items)).structure(s);
    },
  );

  app.patch(
    `${base}/structure/sort`,
    op({
      operationId: 'sortSiteStructure',
      summary: 'Move a site-space, section or group before or after another item, or to the end',
      params: SiteParams,
      body: SortStructureBody,
      response: { 200: SiteStructureItem },
    }),
    async (req) => {
      const item = await sites.moveSiteItem({ site: siteRef(req.params), item: req.body.item, ...anchors(req.body.position, (p) => p) }, req.caller);
      return (await present(req, [item])).item(item);
    },
  );
};

export default routes;
