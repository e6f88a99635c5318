import type { Space as SpaceMsg } from '@quire/proto/content';
import type {
  AdaptiveSchema as AdaptiveSchemaMsg,
  ShareLink as ShareLinkMsg,
  Site as SiteMsg,
  SiteSection as SectionMsg,
  SiteSectionGroup as GroupMsg,
  SiteSpace as SiteSpaceMsg,
  SiteStructure as StructureMsg,
  SiteStructureItem as ItemMsg,
} from '@quire/proto/sites';
import type { Caller } from '@quire/service-kit';
import type { Services } from '../clients.ts';
import type { Static } from '@sinclair/typebox';
import type { AdaptiveSchema, ShareLink, Site, SiteSection, SiteSectionGroup, SiteSpace, SiteStructure, SiteStructureItem } from '../schemas/sites.ts';
import { presentSpace } from './content.ts';
import { iso } from './time.ts';
import type { Urls } from './urls.ts';

// Proto message to the exact JSON of the reference. A published site answers on the reader at
// `<reader>/<organizationId>/<siteId>`, its sections and site-spaces below it, and at its custom
// hostname when it has one (the site's own `urls.published` then names that).

export function presentSite(s: SiteMsg, urls: Urls): Static<typeof Site> {
  const target = urls.published(s.organizationId, s.id);
  const published = s.hostname !== undefined ? `https://${s.hostname}` : target;
  return {
    object: 'site',
    id: s.id,
    type: s.type as Static<typeof Site>['type'],
    title: s.title,
    ...(s.hostname !== undefined ? { hostname: s.hostname } : {}),
    ...(s.basename !== undefined ? { basename: s.basename } : {}),
    ...(s.proxy !== undefined ? { proxy: { origin: s.proxy, target } } : {}),
    visibility: s.visibility as Static<typeof Site>['visibility'],
    published: s.published,
    siteSpaces: s.siteSpaces,
    createdAt: iso(s.createdAt),
    ...(s.adaptiveContent !== undefined ? { adaptiveContent: { enabled: s.adaptiveContent } } : {}),
    agentsContext: s.agentsContext as Static<typeof Site>['agentsContext'],
    features: s.features.map((f) => ({
      id: f.id,
      plan: f.plan as Static<typeof Site>['type'],
      frozen: f.frozen,
      ...(f.customizations.length ? { customizations: f.customizations } : {}),
    })),
    urls: {
      location: urls.api(`/orgs/${s.organizationId}/sites/${s.id}`),
      app: urls.app(`/o/${s.organizationId}/sites/${s.id}`),
      ...(s.published ? { published } : {}),
    },
  };
}

export function presentShareLink(l: ShareLinkMsg, urls: Urls, organizationId: string): Static<typeof ShareLink> {
  return {
    object: 'share-link',
    id: l.id,
    createdAt: iso(l.createdAt),
    name: l.name,
    active: l.active,
    urls: { published: `${urls.published(organizationId, l.siteId)}?shareKey=${encodeURIComponent(l.key)}` },
  };
}

export function presentAdaptiveSchema(a: AdaptiveSchemaMsg): Static<typeof AdaptiveSchema> {
  return { object: 'site-adaptive-schema', jsonSchema: JSON.parse(a.jsonSchema) as Record<string, unknown>, updatedAt: iso(a.updatedAt) };
}

type Embeddable = { siteSpace?: SiteSpaceMsg; section?: SectionMsg; group?: GroupMsg };

/** The space ids of site-spaces anywhere in these items. */
function spaceIdsIn(items: Embeddable[]): string[] {
  const ids = new Set<string>();
  const section = (s: SectionMsg) => s.siteSpaces.forEach((p) => ids.add(p.spaceId));
  for (const i of items) {
    if (i.siteSpace) ids.add(i.siteSpace.spaceId);
    if (i.section) section(i.section);
    i.group?.sections.forEach(section);
  }
  return [...ids];
}

/**
 * Presenters of site-spaces, sections, groups and structures, with the spaces they embed asked of
 * content in one batch call for all of `items` (the spaces the caller may see; the others are
 * left out).
 */
export async function sitePresenters(services: Pick<Services, 'content'>, caller: Caller, urls: Urls, organizationId: string, items: Embeddable[]) {
  const ids = spaceIdsIn(items);
  const { spaces } = ids.length ? await services.content.batchGetSpaces({ spaceIds: ids }, caller) : { spaces: [] as SpaceMsg[] };
  const byId = new Map(spaces.map((s) => [s.id, presentSpace(s, urls)]));
  const published = (siteId: string, path: string | undefined) => (path !== undefined ? { published: `${urls.published(organizationId, siteId)}/${path}` } : {});

  const siteSpace = (p: SiteSpaceMsg): Static<typeof SiteSpace> => {
    const space = byId.get(p.spaceId);
    return {
      object: 'site-space',
      id: p.id,
      path: p.path,
      ...(p.sectionId !== undefined ? { section: p.sectionId } : {}),
      ...(space ? { space } : {}),
      title: space?.title ?? p.title,
      default: p.default,
      ...(p.condition !== undefined ? { condition: p.condition } : {}),
      urls: published(p.siteId, p.publishedPath),
    };
  };

  const section = (s: SectionMsg): Static<typeof SiteSection> => ({
    object: 'site-section',
    id: s.id,
    title: s.title,
    ...(s.description !== undefined ? { description: s.description } : {}),
    default: s.default,
    path: s.path,
    ...(s.condition !== undefined ? { condition: s.condition } : {}),
    ...(s.groupId !== undefined ? { sectionGroup: s.groupId } : {}),
    ...(s.icon !== undefined ? { icon: s.icon } : {}),
    siteSpaces: s.siteSpaces.map(siteSpace),
    urls: published(s.siteId, s.publishedPath),
  });

  const group = (g: GroupMsg): Static<typeof SiteSectionGroup> => ({
    object: 'site-section-group',
    id: g.id,
    title: g.title,
    ...(g.icon !== undefined ? { icon: g.icon } : {}),
    sections: g.sections.map(section),
  });

  const item = (i: ItemMsg): Static<typeof SiteStructureItem> => (i.siteSpace ? siteSpace(i.siteSpace) : i.section ? section(i.section) : group(i.group!));

  const structure = (s: StructureMsg): Static<typeof SiteStructure> =>
    s.type === 'sections'
      ? { type: 'sections', structure: s.items.map((i) => (i.section ? section(i.section) : group(i.group!))) }
      : { type: 'siteSpaces', structure: s.items.map((i) => siteSpace(i.siteSpace!)) };

  return { siteSpace, section, group, item, structure };
}
