// Service names for the health check and clients; the generated modules are imported by path
// (`@quire/proto/orgs`, ...) so that each app loads only the codecs it uses.
export const SERVICE_NAMES = {
  orgs: 'quire.orgs.v1.OrgsService',
  content: 'quire.content.v1.ContentService',
  spaceContent: 'quire.content.v1.SpaceContentService',
  review: 'quire.review.v1.ReviewService',
  sites: 'quire.sites.v1.SitesService',
  integrations: 'quire.integrations.v1.IntegrationsService',
  gitSync: 'quire.gitsync.v1.GitSyncService',
  insights: 'quire.insights.v1.InsightsService',
} as const;
