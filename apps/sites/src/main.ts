import { SERVICE_NAMES } from '@quire/proto';
import { SitesServiceService } from '@quire/proto/sites';
import { runPlaceholderService } from '@quire/service-kit';

await runPlaceholderService({
  name: 'sites',
  portVar: 'SITES_PORT',
  defaultPort: 50054,
  definition: SitesServiceService,
  serviceName: SERVICE_NAMES.sites,
});
