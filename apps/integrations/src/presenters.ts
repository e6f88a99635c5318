import { absentIfNull } from '@quire/service-kit';
import type { ContentSecurityPolicy, Integration, IntegrationBlock, IntegrationContentSource, IntegrationExternalLink } from '@quire/proto/integrations';
import { integrationPermissions, type Role } from '@quire/policy';
import { dataUri } from './domain/images.ts';
import type { IntegrationRow } from './store/index.ts';

// Row to proto message. The JSON columns hold what `checkManifest` wrote, in the messages' shapes.

function presentCsp(value: IntegrationRow['contentSecurityPolicy']): ContentSecurityPolicy | undefined {
  if (value === null) return undefined;
  return typeof value === 'string' ? { text: value, directives: {} } : { directives: value as Record<string, string> };
}

export function presentIntegration(r: IntegrationRow, ownerRole: Role): Integration {
  return {
    name: r.name,
    version: r.version,
    title: r.title,
    description: r.description,
    ...absentIfNull(r, 'summary'),
    previewImages: r.previewImages.map(dataUri),
    icon: r.icon ? dataUri(r.icon) : undefined,
    runtime: r.runtime,
    visibility: r.visibility,
    target: r.target,
    scopes: r.scopes,
    categories: r.categories,
    blocks: r.blocks as unknown as IntegrationBlock[],
    contentSources: r.contentSources as unknown as IntegrationContentSource[],
    externalLinks: r.externalLinks as unknown as IntegrationExternalLink[],
    configurations: (r.configurations as Record<string, unknown> | null) ?? undefined,
    contentSecurityPolicy: presentCsp(r.contentSecurityPolicy),
    ownerOrganizationId: r.ownerOrganizationId,
    // No review process exists here to verify an integration.
    verified: false,
    permissions: integrationPermissions(ownerRole, r),
  };
}
