import { SERVICE_NAMES } from '@quire/proto';
import { IntegrationsServiceService } from '@quire/proto/integrations';
import { runPlaceholderService } from '@quire/service-kit';

await runPlaceholderService({
  name: 'integrations',
  portVar: 'INTEGRATIONS_PORT',
  defaultPort: 50055,
  definition: IntegrationsServiceService,
  serviceName: SERVICE_NAMES.integrations,
});
