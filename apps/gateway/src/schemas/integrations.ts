import { Type, type TSchema } from '@sinclair/typebox';
import { CATEGORIES, RUNTIMES, SCOPES, TARGETS, VISIBILITIES } from '@quire/proto/integrations-values';
import { COMMON, INTEGRATION } from '@quire/proto/limits';
import { chars, items, literals } from './common.ts';
import { Organization } from './orgs.ts';

// GitBook's integration enumerations, from the lists the integrations service checks too.

export const IntegrationRuntime = literals(RUNTIMES);
export const IntegrationVisibility = literals(VISIBILITIES);
export const IntegrationTarget = literals(TARGETS);
export const IntegrationCategory = literals(CATEGORIES);
export const IntegrationScope = literals(SCOPES);

const NAME_PATTERN = '^[a-zA-Z0-9-_.]+$';
export const IntegrationName = Type.String({ ...chars(INTEGRATION.name), pattern: NAME_PATTERN, description: 'Name of the integration' });
export const BlockDomain = Type.String({ ...chars(INTEGRATION.name), pattern: NAME_PATTERN, description: "Only integrations with a block unfurling this domain's URLs" });

const Base64 = (description: string) => Type.String({ contentEncoding: 'base64', description });

const Key = Type.String(chars(INTEGRATION.key));
const BlockTitle = Type.String(chars(INTEGRATION.blockTitle));
const BlockDescription = Type.Optional(Type.String(chars(INTEGRATION.blockDescription)));
const BlockIcon = Type.Optional(Type.String(chars(INTEGRATION.blockIcon)));

export const IntegrationBlock = Type.Object({
  id: Key,
  title: BlockTitle,
  description: BlockDescription,
  icon: BlockIcon,
  urlUnfurl: Type.Optional(Type.Array(Type.String(chars(COMMON.url)))),
  markdown: Type.Optional(Type.Object({ codeblock: Key, body: Key })),
});

export const IntegrationContentSource = Type.Object({
  id: Key,
  title: BlockTitle,
  description: BlockDescription,
  icon: BlockIcon,
  configuration: Type.Object({ componentId: Key }),
});

export const IntegrationExternalLink = Type.Object({ url: Type.String({ format: 'uri', maxLength: COMMON.url.max }), label: Type.String(chars(INTEGRATION.externalLinkLabel)) });

// A settings schema (`properties`) or a ContentKit component (`componentId`), kept as published.
const Configuration = Type.Object({}, { additionalProperties: true });
export const IntegrationConfigurations = Type.Object(
  { account: Type.Optional(Configuration), space: Type.Optional(Configuration), site: Type.Optional(Configuration) },
  { additionalProperties: false },
);

const Policy = Type.String(chars(INTEGRATION.contentSecurityPolicy));
export const ContentSecurityPolicy = Type.Union([Policy, Type.Record(Type.String(), Policy)], {
  description: 'Sent as headers when the script-fetch and blocks-fetch events are processed',
});

const optionalArray = <T extends TSchema>(item: T, options: object = {}) => Type.Optional(Type.Array(item, options));

export const PublishIntegrationBody = Type.Object({
  runtime: Type.Optional(IntegrationRuntime),
  icon: Type.Optional(Base64('Base64 content of the icon')),
  title: Type.String(chars(INTEGRATION.title)),
  description: Type.String(chars(INTEGRATION.description)),
  summary: Type.Optional(Type.String({ ...chars(INTEGRATION.summary), description: 'Markdown' })),
  previewImages: optionalArray(Base64('Base64 content of the image'), items(INTEGRATION.previewImages)),
  visibility: Type.Optional(IntegrationVisibility),
  target: Type.Optional(IntegrationTarget),
  scopes: optionalArray(IntegrationScope),
  categories: optionalArray(IntegrationCategory),
  blocks: optionalArray(IntegrationBlock),
  contentSources: optionalArray(IntegrationContentSource),
  externalLinks: optionalArray(IntegrationExternalLink, items(INTEGRATION.externalLinks)),
  configurations: Type.Optional(IntegrationConfigurations),
  script: Type.String({ minLength: 1, description: 'Content of the script' }),
  organization: Type.String({ ...chars(INTEGRATION.organization), description: 'Id or subdomain of the publishing organization' }),
  secrets: Type.Optional(Type.Record(Key, Type.String(chars(INTEGRATION.secretValue)), { maxProperties: INTEGRATION.secrets.max })),
  contentSecurityPolicy: Type.Optional(ContentSecurityPolicy),
});

export const Integration = Type.Object(
  {
    object: Type.Literal('integration'),
    name: Type.String(),
    version: Type.Integer(),
    title: Type.String(),
    description: Type.String(),
    summary: Type.Optional(Type.String()),
    previewImages: Type.Array(Type.String({ description: '`data:` URI of the image' })),
    target: IntegrationTarget,
    verified: Type.Boolean(),
    visibility: IntegrationVisibility,
    scopes: Type.Array(Type.String()),
    categories: Type.Array(Type.String()),
    blocks: Type.Array(IntegrationBlock),
    contentSources: Type.Array(IntegrationContentSource),
    configurations: Type.Optional(IntegrationConfigurations),
    externalLinks: Type.Array(IntegrationExternalLink),
    owner: Organization,
    urls: Type.Object({
      location: Type.String(),
      icon: Type.Optional(Type.String({ description: '`data:` URI of the icon' })),
      app: Type.String(),
      assets: Type.String(),
      publicEndpoint: Type.String(),
    }),
    permissions: Type.Object({ admin: Type.Boolean(), install: Type.Boolean() }),
    contentSecurityPolicy: Type.Optional(ContentSecurityPolicy),
  },
  { title: 'Integration' },
);
