import { GitSyncServiceService } from '@quire/proto/gitsync';
import { SERVICE_NAMES } from '@quire/proto';
import { implement, type Logger, type ServiceBinding } from '@quire/service-kit';
import type { Deps } from './rpc/deps.ts';
import { gitSyncHandlers } from './rpc/gitsync.ts';

export function gitSyncService(deps: Deps, log: Logger): ServiceBinding {
  return { definition: GitSyncServiceService, implementation: implement(gitSyncHandlers(deps), log), name: SERVICE_NAMES.gitSync };
}
