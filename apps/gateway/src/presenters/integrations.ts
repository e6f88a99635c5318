import type { ContentSecurityPolicy as CspMsg, Integration as IntegrationMsg, PublishIntegrationRequest } from '@quire/proto/integrations';
import type { Organization as OrganizationMsg } from '@quire/proto/orgs';
import type { Static } from '@sinclair/typebox';
import type { Integration, PublishIntegrationBody } from '../schemas/integrations.ts';
import { presentOrganization } from './orgs.ts';
import type { Urls } from './urls.ts';

type Json = Static<typeof Integration>;

function presentCsp(csp: CspMsg | undefined): Json['contentSecurityPolicy'] {
  if (!csp) return undefined;
  return csp.text ?? csp.directives;
}

export function presentIntegration(i: IntegrationMsg, owner: OrganizationMsg, urls: Urls): Json {
  const csp = presentCsp(i.contentSecurityPolicy);
  return {
    object: 'integration',
    name: i.name,
    version: i.version,
    title: i.title,
    description: i.description,
    ...(i.summary !== undefined ? { summary: i.summary } : {}),
    previewImages: i.previewImages,
    target: i.target as Json['target'],
    verified: i.verified,
    visibility: i.visibility as Json['visibility'],
    scopes: i.scopes,
    categories: i.categories,
    blocks: i.blocks,
    contentSources: i.contentSources.map((s) => ({ ...s, configuration: { componentId: s.configuration?.componentId ?? '' } })),
    ...(i.configurations ? { configurations: i.configurations } : {}),
    externalLinks: i.externalLinks,
    owner: presentOrganization(owner, urls),
    urls: {
      location: urls.api(`/integrations/${i.name}`),
      ...(i.icon ? { icon: i.icon } : {}),
      app: urls.app(`/integrations/${i.name}`),
      assets: urls.app(`/integrations/${i.name}/assets`),
      publicEndpoint: urls.api(`/integrations/${i.name}/integration`),
    },
    permissions: { admin: !!i.permissions?.admin, install: !!i.permissions?.install },
    ...(csp !== undefined ? { contentSecurityPolicy: csp } : {}),
  };
}

/** The publish body as the integrations service takes it; absent lists are empty, absent enums the service's defaults. */
export function publishRequest(name: string, b: Static<typeof PublishIntegrationBody>): PublishIntegrationRequest {
  const csp = b.contentSecurityPolicy;
  return {
    name,
    organization: b.organization,
    runtime: b.runtime ?? '',
    icon: b.icon,
    title: b.title,
    description: b.description,
    summary: b.summary,
    previewImages: b.previewImages ?? [],
    visibility: b.visibility ?? '',
    target: b.target ?? '',
    scopes: b.scopes ?? [],
    categories: b.categories ?? [],
    blocks: (b.blocks ?? []).map((block) => ({ ...block, urlUnfurl: block.urlUnfurl ?? [] })),
    contentSources: b.contentSources ?? [],
    externalLinks: b.externalLinks ?? [],
    configurations: b.configurations,
    script: b.script,
    secrets: b.secrets ? { values: b.secrets } : undefined,
    contentSecurityPolicy: csp === undefined ? undefined : typeof csp === 'string' ? { text: csp, directives: {} } : { directives: csp },
  };
}
