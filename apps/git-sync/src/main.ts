import { SERVICE_NAMES } from '@quire/proto';
import { GitSyncServiceService } from '@quire/proto/gitsync';
import { runPlaceholderService } from '@quire/service-kit';

await runPlaceholderService({
  name: 'git-sync',
  portVar: 'GIT_SYNC_PORT',
  defaultPort: 50056,
  definition: GitSyncServiceService,
  serviceName: SERVICE_NAMES.gitSync,
});
