import { createLogger, runGrpcService } from '@quire/service-kit';
import { loadInsightsConfig } from './config.ts';
import { startInsights } from './runtime.ts';

await runGrpcService('insights', async () => {
  const config = loadInsightsConfig();
  const log = createLogger('insights', config.LOG_LEVEL);
  const insights = await startInsights(config, log);
  return { log, host: config.GRPC_HOST, port: config.INSIGHTS_PORT, services: [insights.service], close: insights.close };
});
