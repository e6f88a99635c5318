import type { SitesServiceServer } from '@quire/proto/sites';
import type { Handlers } from '@quire/service-kit';
import type { Prisma } from '../generated/prisma/client.ts';
import { customizationOf, parseCustomization } from '../domain/customization.ts';
import { EMPTY_SCHEMA, parseAdaptiveSchema, templateConditions, type JsonSchema } from '../domain/adaptive.ts';
import { visibleTree } from '../domain/structure.ts';
import { presentSite, presentStructure } from '../presenters.ts';
import type { SiteRow } from '../store/index.ts';
import { editable, readable, siteNotFound, viewable, type Deps } from './deps.ts';

type H = Pick<
  Handlers<SitesServiceServer>,
  'getAdaptiveSchema' | 'updateAdaptiveSchema' | 'listTemplateConditions' | 'getPublishedContentSite' | 'getSiteCustomization' | 'updateSiteCustomization'
>;

/** The site's schema, or the empty one (no claims) until one is set, dated at the site's creation. */
const schemaOf = (site: SiteRow) => ({
  jsonSchema: (site.adaptiveSchema as JsonSchema | null) ?? EMPTY_SCHEMA,
  updatedAt: site.adaptiveSchemaUpdatedAt ?? site.createdAt,
});

export function publishedHandlers(deps: Deps): H {
  const { store } = deps;
  const now = deps.now ?? (() => new Date());

  return {
    async getAdaptiveSchema(req, ctx) {
      const { jsonSchema, updatedAt } = schemaOf((await readable(deps, req.site, ctx)).site);
      return { jsonSchema: JSON.stringify(jsonSchema), updatedAt };
    },

    async updateAdaptiveSchema(req, ctx) {
      const schema = parseAdaptiveSchema(req.jsonSchema);
      const site = await editable(deps, req.site, ctx);
      const { jsonSchema, updatedAt } = schemaOf(await store.setAdaptiveSchema(site.id, schema as Prisma.InputJsonValue, now()));
      return { jsonSchema: JSON.stringify(jsonSchema), updatedAt };
    },

    async listTemplateConditions(req, ctx) {
      return { items: templateConditions(schemaOf((await readable(deps, req.site, ctx)).site).jsonSchema) };
    },

    // Visitors carry no claims here (no visitor token is taken), so conditioned items show only
    // when their condition holds without claims.
    async getPublishedContentSite(req, ctx) {
      const { site } = await viewable(deps, req.site, req.shareKey, ctx);
      // Unpublished, the site has no published view, for members too.
      if (!site.published) throw siteNotFound(site.id);
      const tree = visibleTree(await store.tree(site.id), {});
      return { site: presentSite(site), structure: presentStructure(site, tree), customizationJson: JSON.stringify(customizationOf(site.customization)) };
    },

    // Settings are site settings: members read them, editors of the site change them.
    async getSiteCustomization(req, ctx) {
      return { settingsJson: JSON.stringify(customizationOf((await readable(deps, req.site, ctx)).site.customization)) };
    },

    async updateSiteCustomization(req, ctx) {
      const settings = parseCustomization(req.settingsJson);
      const site = await editable(deps, req.site, ctx);
      const updated = await store.setCustomization(site.id, settings as Prisma.InputJsonObject, req.replace);
      return { settingsJson: JSON.stringify(customizationOf(updated.customization)) };
    },
  };
}
