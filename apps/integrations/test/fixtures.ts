import type { PublishIntegrationRequest } from '@quire/proto/integrations';

/** A valid publish request for integration `name` of `organization` (an id or subdomain), the optional fields empty unless `over` sets them. */
export const manifest = (name: string, organization: string, over: Partial<PublishIntegrationRequest> = {}): PublishIntegrationRequest => ({
  name,
  organization,
  runtime: '',
  title: 'An integration',
  description: 'It integrates',
  previewImages: [],
  visibility: '',
  target: '',
  scopes: [],
  categories: [],
  blocks: [],
  contentSources: [],
  externalLinks: [],
  script: 'export default () => {}',
  ...over,
});
