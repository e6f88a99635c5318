import { SERVICE_NAMES } from '@quire/proto';
import { ContentServiceService } from '@quire/proto/content';
import { runPlaceholderService } from '@quire/service-kit';

await runPlaceholderService({
  name: 'content',
  portVar: 'CONTENT_PORT',
  defaultPort: 50052,
  definition: ContentServiceService,
  serviceName: SERVICE_NAMES.content,
});
