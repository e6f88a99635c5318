// The values the integration messages' string fields take: GitBook's enumerations
// (IntegrationRuntime, IntegrationVisibility, ...). Carried as strings on the wire, checked by the
// integrations service and by the gateway's schemas from these same lists.
export const RUNTIMES = ['v1', 'v2'] as const;
export const VISIBILITIES = ['public', 'private', 'unlisted'] as const;
export const TARGETS = ['all', 'site', 'space', 'organization'] as const;
export const CATEGORIES = ['analytics', 'collaboration', 'content', 'gitsync', 'marketing', 'visitor-auth', 'other'] as const;
export const SCOPES = [
  'space:views:read',
  'space:content:read',
  'space:content:write',
  'space:metadata:read',
  'space:metadata:write',
  'space:script:inject',
  'space:script:cookies',
  'space:git:sync',
  'space:visitor:auth',
  'site:metadata:read',
  'site:views:read',
  'site:script:inject',
  'site:script:cookies',
  'site:visitor:auth',
  'site:adaptive:read',
  'site:adaptive:write',
  'openapi:read',
  'openapi:write',
  'conversations:ingest',
] as const;
