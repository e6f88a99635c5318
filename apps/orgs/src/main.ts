import { randomBytes } from 'node:crypto';
import { createLogger, loadServiceIdentity, runGrpcService } from '@quire/service-kit';
import { bootstrap } from './admin.ts';
import { loadOrgsConfig } from './config.ts';
import { startOrgsRuntime } from './runtime.ts';
import { openStore } from './store/index.ts';

await runGrpcService('orgs', async () => {
  const config = loadOrgsConfig();
  const log = createLogger('orgs', config.LOG_LEVEL);
  const identity = loadServiceIdentity('orgs', config);
  const { store, close, checks } = openStore(config.DATABASE_URL, config.DATABASE_POOL_SIZE, log);
  if (config.QUIRE_BOOTSTRAP_TOKEN && (await bootstrap(store, config.QUIRE_BOOTSTRAP_TOKEN, config.QUIRE_BOOTSTRAP_PASSWORD))) {
    log.info('empty database: created the admin user, an organization and the bootstrap token');
  }
  if (!config.QUIRE_VISITOR_CLAIMS_SECRET) log.warn('QUIRE_VISITOR_CLAIMS_SECRET is not set: visitor claims are signed with a per-process key');
  const visitorClaimsKey = config.QUIRE_VISITOR_CLAIMS_SECRET ? new TextEncoder().encode(config.QUIRE_VISITOR_CLAIMS_SECRET) : randomBytes(32);
  const runtime = await startOrgsRuntime(config, store, visitorClaimsKey, log);
  return {
    log,
    host: config.GRPC_HOST,
    port: config.ORGS_PORT,
    metricsPort: config.METRICS_PORT,
    identity,
    checks,
    services: [runtime.service],
    close: [...runtime.close, close],
  };
});
