import { createLogger, runGrpcService } from '@quire/service-kit';
import { loadGitSyncConfig } from './config.ts';
import { startRuntime } from './runtime.ts';

await runGrpcService('git-sync', async () => {
  const config = loadGitSyncConfig();
  const log = createLogger('git-sync', config.LOG_LEVEL);
  const runtime = await startRuntime(config, log);
  return { log, host: config.GRPC_HOST, port: config.GIT_SYNC_PORT, services: runtime.services, close: runtime.close };
});
