import { SERVICE_NAMES } from '@quire/proto';
import { ReviewServiceService } from '@quire/proto/review';
import { runPlaceholderService } from '@quire/service-kit';

await runPlaceholderService({
  name: 'review',
  portVar: 'REVIEW_PORT',
  defaultPort: 50053,
  definition: ReviewServiceService,
  serviceName: SERVICE_NAMES.review,
});
