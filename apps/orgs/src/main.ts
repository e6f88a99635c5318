import { randomBytes } from 'node:crypto';
import { serveGrpcService, type ComposedService, type Logger, type ServiceIdentity } from '@quire/service-kit';
import { loadSecretsKeys } from '@quire/service-kit/sealed';
import { connectNats, ensureStream, STREAMS } from '@quire/service-kit/nats';
import { privateHosts } from '@quire/service-kit/outbound';
import { loadOrgsConfig, type OrgsConfig } from './config.ts';
import { startAuditConsumer } from './consumers/audit.ts';
import { bootstrap } from './domain/admin.ts';
import { natsEvents } from './domain/events.ts';
import { orgsService } from './server.ts';
import { openStore, type Store } from './store/index.ts';

/**
 * The composition root: the store (with the first admin on an empty database), the gRPC service
 * and its NATS side: domain events out, the audit log's consumer in, revocations broadcast.
 */
export async function compose(config: OrgsConfig, identity: ServiceIdentity, log: Logger): Promise<ComposedService & { store: Store }> {
  // Read where users' URLs are fetched; checked here so that a typo stops the start.
  privateHosts();
  const { store, close, checks } = openStore(config.DATABASE_URL, config.DATABASE_POOL_SIZE, log);
  if (config.QUIRE_BOOTSTRAP_TOKEN && (await bootstrap(store, config.QUIRE_BOOTSTRAP_TOKEN, config.QUIRE_BOOTSTRAP_PASSWORD))) {
    log.info('empty database: created the admin user, an organization and the bootstrap token');
  }
  if (!config.QUIRE_VISITOR_CLAIMS_SECRET) log.warn('QUIRE_VISITOR_CLAIMS_SECRET is not set: visitor claims are signed with a per-process key');
  const visitorClaimsKey = config.QUIRE_VISITOR_CLAIMS_SECRET ? new TextEncoder().encode(config.QUIRE_VISITOR_CLAIMS_SECRET) : randomBytes(32);
  const nc = await connectNats(config.NATS_URL, 'orgs', log);
  await ensureStream(nc, { ...STREAMS.events, name: config.EVENTS_STREAM, subjects: [`${config.EVENTS_SUBJECT_PREFIX}.>`] });
  const stopConsumer = await startAuditConsumer(nc, config.EVENTS_STREAM, config.EVENTS_SUBJECT_PREFIX, store, log);
  const events = natsEvents(nc, config.EVENTS_SUBJECT_PREFIX, log);
  const secretsKey = loadSecretsKeys(config, (msg) => log.warn(msg), 'OIDC client secrets saved now are unreadable after a restart');
  const sessions = { idleMs: config.SESSION_IDLE_TIMEOUT_MS, maxAgeMs: config.SESSION_MAX_AGE_MS };
  return {
    store,
    checks,
    services: [orgsService({ store, visitorClaimsKey, secretsKey, events, sessions }, log)],
    close: [stopConsumer, () => nc.drain(), close],
  };
}

await serveGrpcService(import.meta.url, 'orgs', { load: loadOrgsConfig, port: (c) => c.ORGS_PORT }, compose);
