import { createLogger, loadServiceIdentity, runGrpcService } from '@quire/service-kit';
import { loadGitSyncConfig } from './config.ts';
import { startRuntime } from './runtime.ts';

await runGrpcService('git-sync', async () => {
  const config = loadGitSyncConfig();
  const log = createLogger('git-sync', config.LOG_LEVEL);
  const identity = loadServiceIdentity('git-sync', config);
  const runtime = await startRuntime(config, identity, log);
  return {
    log,
    host: config.GRPC_HOST,
    port: config.GIT_SYNC_PORT,
    metricsPort: config.METRICS_PORT,
    identity,
    services: runtime.services,
    checks: runtime.checks,
    close: runtime.close,
  };
});
