import { createLogger, loadServiceIdentity, runGrpcService } from '@quire/service-kit';
import { loadInsightsConfig } from './config.ts';
import { startInsights } from './runtime.ts';

await runGrpcService('insights', async () => {
  const config = loadInsightsConfig();
  const log = createLogger('insights', config.LOG_LEVEL);
  const identity = loadServiceIdentity('insights', config);
  const insights = await startInsights(config, identity, log);
  return {
    log,
    host: config.GRPC_HOST,
    port: config.INSIGHTS_PORT,
    metricsPort: config.METRICS_PORT,
    identity,
    services: [insights.service],
    checks: insights.checks,
    close: insights.close,
  };
});
