import { Type } from '@sinclair/typebox';
import { COMMON, OPENAPI_SPEC } from '@quire/proto/limits';
import { ApiObject, chars, Id, literals, Timestamp } from './common.ts';

const SpecSlug = Type.String({ ...chars(OPENAPI_SPEC.slug), pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', description: 'Slug used as reference' });
export const Visibility = literals(['private', 'public'] as const, { description: '`private`: members only; `public`: anyone with its link' });

export const SpecParams = Type.Object({ organizationId: Id('Organization id'), specSlug: SpecSlug });
export const VersionParams = Type.Object({ organizationId: Id('Organization id'), specSlug: SpecSlug, versionId: Id('Version id') });

/**
 * Where a spec comes from: a URL fetched now (public addresses only), or its text (JSON or YAML);
 * exactly one. One object rather than GitBook's oneOf, so that a bad field is named as such.
 */
export const SpecSource = Type.Object(
  {
    url: Type.Optional(Type.String({ format: 'uri', maxLength: COMMON.url.max })),
    text: Type.Optional(Type.String({ ...chars(OPENAPI_SPEC.document), description: 'OpenAPI specification as text (JSON or YAML)' })),
  },
  { additionalProperties: false, minProperties: 1, maxProperties: 1, description: 'Either `url` or `text`' },
);

export const CreateSpecBody = Type.Object({ slug: SpecSlug, source: SpecSource });
export const PutSpecBody = Type.Object({ source: SpecSource });
export const UpdateSpecBody = Type.Object({ visibility: Visibility });

export const OpenApiSpec = ApiObject(
  'openapi-spec',
  {
    createdAt: Timestamp,
    updatedAt: Timestamp,
    slug: Type.String(),
    sourceURL: Type.Optional(Type.String({ format: 'uri' })),
    processingState: literals(['pending', 'progress', 'complete'] as const),
    visibility: Visibility,
    lastVersion: Type.Optional(Type.String()),
    lastProcessedAt: Type.Optional(Timestamp),
    lastProcessErrorCode: Type.Optional(literals(['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const)),
    permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean(), delete: Type.Boolean() }),
    urls: Type.Object({ location: Type.String({ format: 'uri' }), app: Type.String({ format: 'uri' }), published: Type.Optional(Type.String({ format: 'uri' })) }),
  },
  { title: 'OpenAPISpec' },
);

export const OpenApiSpecVersion = ApiObject(
  'openapi-spec-version',
  {
    createdAt: Timestamp,
    url: Type.String({ format: 'uri', description: 'Where the specification is: its source URL, or its content in the API' }),
    urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
  },
  { title: 'OpenAPISpecVersion' },
);

export const OpenApiSpecContent = Type.Object(
  {
    filesystem: Type.Record(Type.String(), Type.Unknown(), { description: 'The specification files by name: the entry document, as JSON' }),
    url: Type.String({ format: 'uri' }),
  },
  { title: 'OpenAPISpecContent' },
);
