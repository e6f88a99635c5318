import { type Logger, type ServiceBinding } from '@quire/service-kit';
import { loadSecretsKeys } from '@quire/service-kit/sealed';
import { connectNats, ensureStream, STREAMS } from '@quire/service-kit/nats';
import { startAuditConsumer } from './audit-consumer.ts';
import type { OrgsConfig } from './config.ts';
import { natsEvents } from './events.ts';
import { orgsService } from './server.ts';
import type { Store } from './store/index.ts';

type RuntimeConfig = Pick<
  OrgsConfig,
  'QUIRE_SECRETS_KEY' | 'QUIRE_SECRETS_KEY_PREVIOUS' | 'NATS_URL' | 'EVENTS_STREAM' | 'EVENTS_SUBJECT_PREFIX' | 'SESSION_IDLE_TIMEOUT_MS' | 'SESSION_MAX_AGE_MS'
>;

/** The gRPC service with its NATS side: domain events out, the audit log's consumer in, revocations broadcast. */
export async function startOrgsRuntime(
  config: RuntimeConfig,
  store: Store,
  visitorClaimsKey: Uint8Array,
  log: Logger,
): Promise<{ service: ServiceBinding; close: (() => Promise<unknown>)[] }> {
  const nc = await connectNats(config.NATS_URL, 'orgs', log);
  await ensureStream(nc, { ...STREAMS.events, name: config.EVENTS_STREAM, subjects: [`${config.EVENTS_SUBJECT_PREFIX}.>`] });
  const stopConsumer = await startAuditConsumer(nc, config.EVENTS_STREAM, config.EVENTS_SUBJECT_PREFIX, store, log);
  const events = natsEvents(nc, config.EVENTS_SUBJECT_PREFIX, log);
  const secretsKey = loadSecretsKeys(config, (msg) => log.warn(msg), 'OIDC client secrets saved now are unreadable after a restart');
  const service = orgsService({ store, visitorClaimsKey, secretsKey, events, sessions: { idleMs: config.SESSION_IDLE_TIMEOUT_MS, maxAgeMs: config.SESSION_MAX_AGE_MS } }, log);
  return { service, close: [stopConsumer, () => nc.drain()] };
}
