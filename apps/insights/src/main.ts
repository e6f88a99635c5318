import { SERVICE_NAMES } from '@quire/proto';
import { InsightsServiceService } from '@quire/proto/insights';
import { runPlaceholderService } from '@quire/service-kit';

await runPlaceholderService({
  name: 'insights',
  portVar: 'INSIGHTS_PORT',
  defaultPort: 50057,
  definition: InsightsServiceService,
  serviceName: SERVICE_NAMES.insights,
});
