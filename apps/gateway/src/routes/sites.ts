import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ListOf, NoContent, OrgParams, pageRequest } from '../schemas/common.ts';
import {
  AdaptiveSchema,
  AdaptiveSchemaBody,
  CreateSiteBody,
  ListSitesQuery,
  PublishedContentSite,
  PublishingAuth,
  PublishingAuthBody,
  ShareKeyQuery,
  Site,
  SiteParams,
  TemplateConditions,
  UpdateSiteBody,
} from '../schemas/sites.ts';
import type { Caller } from '@quire/service-kit';
import { SiteCustomizationPatch, SiteCustomizationSettings, type SiteCustomizationJson } from '../schemas/customization.ts';
import { presentAdaptiveSchema, presentSite, sitePresenters } from '../presenters/sites.ts';
import type { RouteDeps } from './context.ts';
import { done, operations, pageOf } from './operation.ts';

const op = operations('sites');

/** The site a route's path names, as the sites service takes it. */
export const siteRef = (p: { organizationId: string; siteId: string }) => ({ organizationId: p.organizationId, siteId: p.siteId });

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services, urls }) => {
  const { sites } = services;
  app.get(
    '/orgs/:organizationId/sites',
    op({
      operationId: 'listSites',
      summary: 'List the sites of an organization, by space, title or published state',
      params: OrgParams,
      querystring: ListSitesQuery,
      response: { 200: ListOf(Site) },
    }),
    async (req) => {
      const q = req.query;
      const res = await sites.listSites({ organizationId: req.params.organizationId, page: pageRequest(q), spaceId: q.space, title: q.title, published: q.published }, req.caller);
      return pageOf(res, (s) => presentSite(s, urls));
    },
  );

  app.post(
    '/orgs/:organizationId/sites',
    op({
      operationId: 'createSite',
      summary: 'Create a site (members with the create or admin role), with spaces or a new one (`empty`, `sample`)',
      params: OrgParams,
      body: CreateSiteBody,
      response: { 201: Site },
    }),
    async (req, reply) => {
      const { type, title, visibility, spaces } = req.body;
      const s = await sites.createSite(
        {
          organizationId: req.params.organizationId,
          type: type ?? '',
          title,
          visibility: visibility ?? '',
          spaceIds: Array.isArray(spaces) ? spaces : [],
          spaceKeyword: typeof spaces === 'string' ? spaces : undefined,
        },
        req.caller,
      );
      return reply.code(201).send(presentSite(s, urls));
    },
  );

  app.get('/orgs/:organizationId/sites/:siteId', op({ operationId: 'getSiteById', summary: 'Get a site', params: SiteParams, response: { 200: Site } }), async (req) =>
    presentSite(await sites.getSite({ site: siteRef(req.params) }, req.caller), urls),
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId',
    op({ operationId: 'updateSiteById', summary: 'Update a site; `proxy` and `hostname` null remove them', params: SiteParams, body: UpdateSiteBody, response: { 200: Site } }),
    async (req) => {
      const b = req.body;
      const s = await sites.updateSite(
        {
          site: siteRef(req.params),
          title: b.title,
          visibility: b.visibility,
          basename: b.basename,
          adaptiveContent: b.adaptiveContent?.enabled,
          agentsContext: b.agentsContext,
          defaultSiteSpaceId: b.defaultSiteSpace,
          defaultSectionId: b.defaultSiteSection,
          setProxy: b.proxy !== undefined,
          proxy: b.proxy ?? undefined,
          setHostname: b.hostname !== undefined,
          hostname: b.hostname ?? undefined,
        },
        req.caller,
      );
      return presentSite(s, urls);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId',
    op({ operationId: 'deleteSiteById', summary: 'Delete a site with its sections, site-spaces and share links', params: SiteParams, response: { 205: NoContent } }),
    async (req, reply) => done(reply, 205, sites.deleteSite({ site: siteRef(req.params) }, req.caller)),
  );

  for (const [path, published, operationId, summary] of [
    ['publish', true, 'publishSite', 'Publish a site: its audience (visibility) can reach it'],
    ['unpublish', false, 'unpublishSite', 'Unpublish a site'],
  ] as const) {
    app.post(`/orgs/:organizationId/sites/:siteId/${path}`, op({ operationId, summary, params: SiteParams, response: { 200: Site } }), async (req) =>
      presentSite(await sites.setSitePublished({ site: siteRef(req.params), published }, req.caller), urls),
    );
  }

  app.get(
    '/orgs/:organizationId/sites/:siteId/adaptive-schema',
    op({
      operationId: 'getSiteAdaptiveSchema',
      summary: 'Get the visitor claims schema of a site (one without claims until set)',
      params: SiteParams,
      response: { 200: AdaptiveSchema },
    }),
    async (req) => presentAdaptiveSchema(await sites.getAdaptiveSchema({ site: siteRef(req.params) }, req.caller)),
  );

  app.put(
    '/orgs/:organizationId/sites/:siteId/adaptive-schema',
    op({
      operationId: 'updateSiteAdaptiveSchema',
      summary: 'Set the visitor claims schema: draft-07, an `unsigned` object of boolean claims and boolean claims at the top level',
      params: SiteParams,
      body: AdaptiveSchemaBody,
      response: { 200: AdaptiveSchema },
    }),
    async (req) => presentAdaptiveSchema(await sites.updateAdaptiveSchema({ site: siteRef(req.params), jsonSchema: JSON.stringify(req.body.jsonSchema) }, req.caller)),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/adaptive-schema/template-conditions',
    op({
      operationId: 'listSiteAdaptiveTemplateConditions',
      summary: 'Suggested conditions, one per claim of the schema',
      params: SiteParams,
      response: { 200: TemplateConditions },
    }),
    async (req) => sites.listTemplateConditions({ site: siteRef(req.params) }, req.caller),
  );

  const presentAuth = (a: { backend: string; privateKey: string; fallbackUrl?: string }) => ({
    object: 'publishing-auth' as const,
    backend: a.backend as 'custom' | 'integration',
    privateKey: a.privateKey,
    ...(a.fallbackUrl !== undefined ? { fallbackURL: a.fallbackUrl } : {}),
  });

  app.get(
    '/orgs/:organizationId/sites/:siteId/publishing/auth',
    op({
      operationId: 'getSitePublishingAuthById',
      summary: 'The visitor authentication settings of a site, with the key visitor tokens are signed with (editors only)',
      params: SiteParams,
      response: { 200: PublishingAuth },
    }),
    async (req) => presentAuth(await sites.getPublishingAuth({ site: siteRef(req.params) }, req.caller)),
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/publishing/auth',
    op({
      operationId: 'updateSitePublishingAuthById',
      summary: 'Set the backend and fallback URL of visitor authentication',
      params: SiteParams,
      body: PublishingAuthBody,
      response: { 200: PublishingAuth },
    }),
    async (req) =>
      presentAuth(
        await sites.updatePublishingAuth(
          { site: siteRef(req.params), backend: req.body.backend, setFallbackUrl: req.body.fallbackURL !== undefined, fallbackUrl: req.body.fallbackURL ?? undefined },
          req.caller,
        ),
      ),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/publishing/auth/regenerate',
    op({
      operationId: 'regenerateSitePublishingAuthById',
      summary: 'Replace the visitor key: tokens signed with the old one stop working',
      params: SiteParams,
      response: { 200: PublishingAuth },
    }),
    async (req) => presentAuth(await sites.regeneratePublishingAuth({ site: siteRef(req.params) }, req.caller)),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/published',
    op({
      operationId: 'getPublishedContentSite',
      summary: 'The published site as a visitor sees it (members, or anyone its visibility and `shareKey` let in)',
      params: SiteParams,
      querystring: ShareKeyQuery,
      response: { 200: PublishedContentSite },
    }),
    async (req) => {
      const res = await sites.getPublishedContentSite({ site: siteRef(req.params), shareKey: req.query.shareKey }, req.caller);
      const p = await sitePresenters(services, req.caller, urls, req.params.organizationId, res.structure?.items ?? []);
      return {
        object: 'published-content-site' as const,
        site: presentSite(res.site!, urls),
        structure: p.structure(res.structure!),
        // Site-spaces carry no settings of their own here: the site's apply to all of them.
        customizations: { site: JSON.parse(res.customizationJson) as SiteCustomizationJson, siteSpaces: {} },
        scripts: [],
      };
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/customization',
    op({
      operationId: 'getSiteCustomizationById',
      summary: "The site's customization settings (members); GitBook's defaults for those never set",
      params: SiteParams,
      response: { 200: SiteCustomizationSettings },
    }),
    async (req) => JSON.parse((await sites.getSiteCustomization({ site: siteRef(req.params) }, req.caller)).settingsJson) as SiteCustomizationJson,
  );

  const update = (replace: boolean) => async (req: { params: { organizationId: string; siteId: string }; body: object; caller: Caller }) =>
    JSON.parse(
      (await sites.updateSiteCustomization({ site: siteRef(req.params), settingsJson: JSON.stringify(req.body), replace }, req.caller)).settingsJson,
    ) as SiteCustomizationJson;

  app.put(
    '/orgs/:organizationId/sites/:siteId/customization',
    op({
      operationId: 'updateSiteCustomizationById',
      summary: 'Replace the customization settings whole (members with the create or admin role)',
      params: SiteParams,
      body: SiteCustomizationSettings,
      response: { 200: SiteCustomizationSettings },
    }),
    update(true),
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/customization',
    op({
      operationId: 'patchSiteCustomizationById',
      summary: 'Change some settings: each one given replaces that setting whole, the others are kept',
      params: SiteParams,
      body: SiteCustomizationPatch,
      response: { 200: SiteCustomizationSettings },
    }),
    update(false),
  );
};

export default routes;
