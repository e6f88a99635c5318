import { Type, type TSchema } from '@sinclair/typebox';
import { COMMON, SITE } from '@quire/proto/limits';
import { ApiObject, chars, Id, items, ListQuery, literals, Timestamp } from './common.ts';
import { Space } from './content.ts';
import { SiteCustomizationSettings } from './customization.ts';

// GitBook's Site, SiteSection, SiteSectionGroup, SiteSpace, ShareLink, adaptive schema and
// published content site (api-reference "Site" to "Published content site"); the sites service
// checks the same bounds, for callers other than the gateway.

const nullable = <T extends TSchema>(t: T, description: string) => Type.Union([t, Type.Null()], { description });

export const SiteType = literals(['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'], { description: 'Default on creation: basic' });
export const SiteVisibility = literals(['public', 'unlisted', 'share-link', 'visitor-auth']);
export const AgentsContext = literals(['excluded', 'included']);
const SiteTitle = Type.String(chars(SITE.title));
const SectionTitle = Type.String(chars(SITE.sectionTitle));
const Path = Type.String(chars(SITE.path));
const Condition = Type.String({ ...chars(SITE.condition), description: 'Expression deciding whether a visitor sees the item' });
const Icon = Type.String({ ...chars(COMMON.icon), description: 'Icon name' });
const ShareLinkName = Type.String(chars(SITE.shareLinkName));
const Hostname = Type.String({ ...chars(SITE.hostname), pattern: '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$' });
const ProxyOrigin = Type.String({
  ...chars(SITE.proxy),
  pattern: '^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$',
  description: 'A host followed by a path, such as example.com/docs',
});
const ShareKey = Type.Optional(Type.String({ ...chars(SITE.shareKey), description: 'Key of an active share link, for sites shared by link' }));

export const SiteParams = Type.Object({ organizationId: Id('Organization id'), siteId: Id('Site id') });
export const ShareLinkParams = Type.Object({ ...SiteParams.properties, shareLinkId: Id('Share link id') });
export const SiteSpaceParams = Type.Object({ ...SiteParams.properties, siteSpaceId: Id('Site-space id') });
export const SectionParams = Type.Object({ ...SiteParams.properties, siteSectionId: Id('Site section id') });
export const GroupParams = Type.Object({ ...SiteParams.properties, siteSectionGroupId: Id('Site section group id') });
export const GroupSectionParams = Type.Object({ ...GroupParams.properties, siteSectionId: Id('Site section id') });

const PublishedUrls = Type.Object({ published: Type.Optional(Type.String({ description: 'Only while the site is published' })) });

export const Site = ApiObject(
  'site',
  {
    type: SiteType,
    title: Type.String(),
    hostname: Type.Optional(Type.String()),
    basename: Type.Optional(Type.String()),
    proxy: Type.Optional(Type.Object({ origin: Type.String(), target: Type.String() })),
    visibility: SiteVisibility,
    published: Type.Boolean(),
    siteSpaces: Type.Integer(),
    createdAt: Timestamp,
    adaptiveContent: Type.Optional(Type.Object({ enabled: Type.Boolean() })),
    agentsContext: AgentsContext,
    features: Type.Array(
      Type.Object({
        id: Type.String({ description: 'A premium feature the site uses, such as sites-custom-domain' }),
        plan: SiteType,
        frozen: Type.Boolean({ description: 'Never: Quire gates no feature by site type' }),
        customizations: Type.Optional(Type.Array(Type.String(), { description: 'The advanced customizations in use (sites-advanced-customization)' })),
      }),
    ),
    urls: Type.Object({ location: Type.String(), app: Type.String(), published: Type.Optional(Type.String()) }),
  },
  { title: 'Site' },
);

export const SiteSpace = ApiObject(
  'site-space',
  {
    path: Type.String(),
    section: Type.Optional(Type.String()),
    space: Type.Optional(Space),
    title: Type.String(),
    default: Type.Boolean(),
    condition: Type.Optional(Type.String()),
    urls: PublishedUrls,
  },
  { title: 'SiteSpace', description: '`space` is left out when the caller may not see the space' },
);

export const SiteSection = ApiObject(
  'site-section',
  {
    title: Type.String(),
    description: Type.Optional(Type.String()),
    default: Type.Boolean(),
    path: Type.String(),
    condition: Type.Optional(Type.String()),
    sectionGroup: Type.Optional(Type.String()),
    icon: Type.Optional(Type.String()),
    siteSpaces: Type.Array(SiteSpace),
    urls: PublishedUrls,
  },
  { title: 'SiteSection' },
);

export const SiteSectionGroup = Type.Object(
  { object: Type.Literal('site-section-group'), id: Type.String(), title: Type.String(), icon: Type.Optional(Type.String()), sections: Type.Array(SiteSection) },
  { title: 'SiteSectionGroup' },
);

export const ShareLink = Type.Object(
  { object: Type.Literal('share-link'), id: Type.String(), createdAt: Timestamp, name: Type.String(), active: Type.Boolean(), urls: Type.Object({ published: Type.String() }) },
  { title: 'ShareLink' },
);

export const SiteStructure = Type.Union(
  [
    Type.Object({ type: Type.Literal('sections'), structure: Type.Array(Type.Union([SiteSection, SiteSectionGroup])) }),
    Type.Object({ type: Type.Literal('siteSpaces'), structure: Type.Array(SiteSpace) }),
  ],
  { title: 'SiteStructure' },
);

export const SiteStructureItem = Type.Union([SiteSpace, SiteSection, SiteSectionGroup], { title: 'SiteStructureItem' });

export const PublishedContentSite = Type.Object(
  {
    object: Type.Literal('published-content-site'),
    site: Site,
    structure: SiteStructure,
    customizations: Type.Object({ site: SiteCustomizationSettings, siteSpaces: Type.Record(Type.String(), SiteCustomizationSettings) }),
    scripts: Type.Array(Type.Object({ script: Type.String(), contentSecurityPolicy: Type.Optional(Type.String()), cookies: Type.Boolean() }), {
      description: 'Scripts of integrations installed on the site; Quire installs none on sites',
    }),
  },
  { title: 'PublishedContentSite' },
);

const JsonObject = Type.Object({}, { additionalProperties: true });

export const AdaptiveSchema = Type.Object({ object: Type.Literal('site-adaptive-schema'), jsonSchema: JsonObject, updatedAt: Timestamp }, { title: 'SiteAdaptiveSchema' });
const VisitorAuthBackend = literals(['custom', 'integration'], { description: 'Who signs visitor tokens: a custom backend or an integration' });
export const PublishingAuth = Type.Object(
  {
    object: Type.Literal('publishing-auth'),
    backend: VisitorAuthBackend,
    privateKey: Type.String({ description: 'Key visitor tokens (JWT, HS256) are signed with' }),
    fallbackURL: Type.Optional(Type.String({ format: 'uri', description: 'Where visitors without a valid token are sent' })),
  },
  { title: 'SitePublishingAuth' },
);
export const PublishingAuthBody = Type.Object({
  backend: VisitorAuthBackend,
  fallbackURL: Type.Optional(Type.Union([Type.String({ format: 'uri', maxLength: COMMON.url.max }), Type.Null()], { description: 'null removes it; absent leaves it' })),
});
export const TemplateConditions = Type.Object({ items: Type.Array(Type.Object({ description: Type.String(), condition: Type.String() })) });

// Requests

export const ListSitesQuery = Type.Object({
  ...ListQuery,
  space: Type.Optional(Id('Only sites holding this space')),
  title: Type.Optional(Type.String({ ...chars(SITE.titleFilter), description: 'Only sites whose title contains this, in any case' })),
  published: Type.Optional(Type.Boolean()),
});

export const CreateSiteBody = Type.Object({
  type: Type.Optional(SiteType),
  title: Type.Optional(SiteTitle),
  visibility: Type.Optional(SiteVisibility),
  spaces: Type.Optional(
    Type.Union([Type.Array(Id('Space id'), items(SITE.spaces)), literals(['empty', 'sample'])], {
      description: 'Spaces to add, or a keyword that creates a new space for the site',
    }),
  ),
});

export const UpdateSiteBody = Type.Object({
  title: Type.Optional(SiteTitle),
  visibility: Type.Optional(SiteVisibility),
  basename: Type.Optional(Type.String(chars(SITE.basename))),
  adaptiveContent: Type.Optional(Type.Object({ enabled: Type.Boolean() })),
  agentsContext: Type.Optional(AgentsContext),
  defaultSiteSpace: Type.Optional(Id('Site-space id')),
  defaultSiteSection: Type.Optional(Id('Site section id')),
  proxy: Type.Optional(nullable(ProxyOrigin, 'null removes the proxy')),
  hostname: Type.Optional(nullable(Hostname, 'Custom hostname; null removes it')),
});

export const AdaptiveSchemaBody = Type.Object({ jsonSchema: JsonObject });
export const ShareKeyQuery = Type.Object({ shareKey: ShareKey });

export const CreateShareLinkBody = Type.Object({ name: ShareLinkName });
export const UpdateShareLinkBody = Type.Object({ active: Type.Optional(Type.Boolean()), name: Type.Optional(ShareLinkName) }, { minProperties: 1 });

export const ListSiteSpacesQuery = Type.Object({ ...ListQuery, shareKey: ShareKey, default: Type.Optional(Type.Boolean()) });
export const AddSiteSpaceBody = Type.Object({ spaceId: Id('Space id'), sectionId: Type.Optional(Id('Site section id')) });
export const UpdateSiteSpaceBody = Type.Object({
  path: Type.Optional(Path),
  condition: Type.Optional(nullable(Condition, 'null removes it; unset leaves it')),
  spaceId: Type.Optional(Id('Space the site-space points to')),
});

export const ListSectionsQuery = Type.Object({ ...ListQuery, shareKey: ShareKey });
export const CreateSectionBody = Type.Object({
  spaceId: Id("Space added as the section's first site-space"),
  title: Type.Optional(nullable(SectionTitle, "null or unset: the space's title")),
  icon: Type.Optional(nullable(Icon, 'null: no icon')),
});
export const UpdateSectionBody = Type.Object({
  title: Type.Optional(SectionTitle),
  path: Type.Optional(Path),
  defaultSiteSpace: Type.Optional(Id('Site-space id of this section')),
  condition: Type.Optional(nullable(Condition, 'null removes it; unset leaves it')),
  icon: Type.Optional(nullable(Icon, 'null removes it')),
  description: Type.Optional(nullable(Type.String(chars(SITE.description)), 'null removes it')),
});

export const CreateGroupBody = Type.Object({
  title: Type.String(chars(SITE.groupTitle)),
  icon: Type.Optional(nullable(Icon, 'null: no icon')),
  sections: Type.Optional(Type.Array(Id('Site section id'), items(SITE.groupSections))),
});
export const UpdateGroupBody = Type.Object({ title: Type.Optional(Type.String(chars(SITE.groupTitle))), icon: Type.Optional(nullable(Icon, 'null removes it')) });
export const AddSectionToGroupBody = Type.Object({ sectionId: Id('Site section id') });

const anchors = <T extends TSchema>(pointer: T, description: string) => Type.Object({ before: Type.Optional(pointer), after: Type.Optional(pointer) }, { description });

export const MoveGroupBody = Type.Object({
  position: Type.Optional(anchors(Type.Object({ type: literals(['site-section', 'site-section-group']), id: Id('Item id') }), 'At the end of the site when unset')),
});
export const MoveSectionBody = Type.Object({
  position: Type.Optional(anchors(Type.Object({ type: Type.Literal('site-section'), siteSection: Id('Site section id') }), 'At the end of the site when unset')),
});
export const MoveSiteSpaceBody = Type.Object({
  position: Type.Optional(anchors(Type.Object({ type: Type.Literal('site-space'), siteSpace: Id('Site-space id') }), 'At the end of its section when unset')),
});
const ItemPointer = Type.Object({ type: literals(['site-space', 'site-section', 'site-section-group']), id: Id('Item id') });
export const SortStructureBody = Type.Object({ item: ItemPointer, position: anchors(ItemPointer, 'At the end when neither is given') });
