import { createHash } from 'node:crypto';
import {
  connect,
  headers as natsHeaders,
  AckPolicy,
  DeliverPolicy,
  RetentionPolicy,
  StorageType,
  type ConsumerConfig,
  type JetStreamClient,
  type MsgHdrs,
  type NatsConnection,
  type StreamConfig,
} from 'nats';
import { Type } from '@sinclair/typebox';
import type { CallContext } from './context.js';
import { newId } from './ids.js';
import type { Logger } from './logger.js';
import { injectTrace, traceJob } from './tracing.js';

export type { NatsConnection };

export async function connectNats(servers: string, name: string, log: Pick<Logger, 'info'>): Promise<NatsConnection> {
  const nc = await connect({ servers: servers.split(','), name, maxReconnectAttempts: -1 });
  log.info({ server: nc.getServer() }, 'connected to NATS');
  return nc;
}

/** The health check of a NATS connection: a round trip to the server. */
export const natsCheck = (nc: NatsConnection) => () => (nc.isClosed() ? Promise.reject(new Error('NATS connection closed')) : nc.flush());

/** Headers carrying the active trace context, for a message whose handling continues it; none when tracing is off. */
export function traceHeaders(): MsgHdrs | undefined {
  const h = natsHeaders();
  return injectTrace(h, { set: (carrier, k, v) => carrier.set(k, v) }) ? h : undefined;
}

/** Handles a message inside a span continuing the trace of its headers. */
export const traceMessage = <T>(name: string, headers: MsgHdrs | undefined, run: () => Promise<T>) =>
  traceJob(name, headers, { keys: (h) => h.keys(), get: (h, k) => (h.has(k) ? h.get(k) : undefined) }, run);

const DAY_NS = 24 * 60 * 60 * 1_000_000_000;

/** The JetStream streams: background jobs, visitor events and domain events; created by the store preparation step. */
export const STREAMS: Record<'jobs' | 'insights' | 'events', Partial<StreamConfig> & { name: string; subjects: string[] }> = {
  // Work queue: a job message is removed once a worker acks it.
  jobs: { name: 'JOBS', subjects: ['jobs.>'], retention: RetentionPolicy.Workqueue, storage: StorageType.File, duplicate_window: 10 * 60 * 1_000_000_000 },
  // Visitor events wait here until ClickHouse has them (insights trims the stream of what it
  // wrote, see trimAcknowledged); a week of backlog at most.
  insights: {
    name: 'INSIGHTS',
    subjects: ['insights.>'],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: 7 * DAY_NS,
    duplicate_window: 10 * 60 * 1_000_000_000,
  },
  // Domain events for cleanup and copies kept by other services.
  events: { name: 'EVENTS', subjects: ['events.>'], retention: RetentionPolicy.Limits, storage: StorageType.File, max_age: 7 * DAY_NS },
};

/** Creates the stream, or brings an existing one to this configuration. */
export async function ensureStream(nc: NatsConnection, config: Partial<StreamConfig> & { name: string; subjects: string[] }): Promise<void> {
  const jsm = await nc.jetstreamManager();
  try {
    const info = await jsm.streams.info(config.name);
    await jsm.streams.update(config.name, { ...info.config, ...config });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await jsm.streams.add(config);
  }
}

/** Creates or updates a durable pull consumer with explicit acks. */
export async function ensurePullConsumer(nc: NatsConnection, stream: string, config: Partial<ConsumerConfig> & { durable_name: string }): Promise<void> {
  const jsm = await nc.jetstreamManager();
  const full: Partial<ConsumerConfig> = { ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, ...config };
  try {
    await jsm.consumers.info(stream, config.durable_name);
    await jsm.consumers.update(stream, config.durable_name, full);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await jsm.consumers.add(stream, full);
  }
}

/**
 * Removes from `stream`, a queue read by `consumer` alone, the messages it has acknowledged: those
 * below its ack floor. Such a stream created with limits retention keeps every message until its
 * max_age otherwise, and JetStream refuses to change a stream's retention once it exists. A
 * message waiting for redelivery holds the floor, so nothing unwritten is removed. The purge
 * names no subject: on nats-server 2.9.10 a purge filtered by subject made the consumer forget a
 * message waiting for redelivery, which never came. Returns how many messages were removed.
 */
export async function trimAcknowledged(nc: NatsConnection, stream: string, consumer: string): Promise<number> {
  // Without the account-info round trip each manager makes first: the stream, made at start, shows JetStream is there.
  const jsm = await nc.jetstreamManager({ checkAPI: false });
  const floor = (await jsm.consumers.info(stream, consumer)).ack_floor.stream_seq;
  if (floor === 0) return 0;
  // Purges up to, not including, `seq`.
  const { purged } = await jsm.streams.purge(stream, { seq: floor + 1 });
  return purged;
}

function isNotFound(err: unknown): boolean {
  const e = err as { api_error?: { err_code?: number }; message?: string };
  return e?.api_error?.err_code === 10059 || e?.api_error?.err_code === 10014 || /not found/i.test(e?.message ?? '');
}

/**
 * Core NATS subject (no stream) on which orgs names the hashes of ended sessions and revoked
 * tokens; every gateway replica drops them from its authentication cache at once.
 */
export const AUTH_REVOKED_SUBJECT = 'quire.auth.revoked';

/** What a revocation names a credential by: the SHA-256 orgs stores of it. */
export const credentialHash = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** A domain event on the EVENTS stream (`<prefix>.<service>.<entity>.<verb>`), as the audit log reads it. */
export interface DomainEvent {
  /** Unique per event: the stream's duplicate key and the audit log's idempotency key. */
  id: string;
  occurredAt: string;
  service: string;
  entity: string;
  verb: string;
  /** Absent for events about a user rather than an organization (sign-ins, tokens). */
  organizationId?: string;
  /** The user who acted; absent for anonymous attempts. */
  actor?: string;
  target?: { type: string; id: string };
  ip?: string;
  userAgent?: string;
  details?: Record<string, unknown>;
}

/**
 * Events carrying an owner's current state of something another service keeps a copy of (what a
 * Space shows: review's counters, git-sync's Git link), at a version the owner raises on every
 * change; `details` holds the state. They record no one's action: the audit log leaves them out.
 */
export const STATE_EVENTS = {
  spaceCounters: { service: 'review', entity: 'space', verb: 'counters_changed' },
  spaceGitLink: { service: 'git-sync', entity: 'space', verb: 'git_link_changed' },
} as const;

export const isStateEvent = (e: Pick<DomainEvent, 'service' | 'entity' | 'verb'>) =>
  Object.values(STATE_EVENTS).some((s) => s.service === e.service && s.entity === e.entity && s.verb === e.verb);

/** A message of the EVENTS stream as an event; null when it is not JSON of an object. */
export function parseDomainEvent(data: string): DomainEvent | null {
  try {
    const value: unknown = JSON.parse(data);
    return value !== null && typeof value === 'object' ? (value as DomainEvent) : null;
  } catch {
    return null;
  }
}

/** Publishes a domain event once its change is committed; the stream drops a retried duplicate by id. */
export async function publishEvent(js: JetStreamClient, event: DomainEvent, prefix = 'events'): Promise<void> {
  await js.publish(`${prefix}.${event.service}.${event.entity}.${event.verb}`, JSON.stringify(event), { msgID: event.id });
}

/** The subjects' prefix of the EVENTS stream, as a setting (tests use their own). */
export const eventsPrefixField = Type.String({ pattern: '^[a-z0-9_-]+(\\.[a-z0-9_-]+)*$', default: 'events' });

/** What a handler says happened; the rest (id, time, service, who, from where) is filled in. */
export type ServiceEvent = Pick<DomainEvent, 'entity' | 'verb' | 'organizationId' | 'target' | 'details'> & { actor?: string };

export interface EventSink {
  /**
   * Publishes a committed change to the EVENTS stream (the audit log reads it), as done by the
   * caller (`ctx`) unless `actor` says otherwise. A failure is logged and does not fail the call
   * whose change is already committed.
   */
  emit(ctx: Pick<CallContext, 'userId' | 'ip' | 'userAgent'>, event: ServiceEvent): Promise<void>;
}

/** The domain events of `service`, published on `<prefix>.<service>.<entity>.<verb>`. */
export function eventSink(nc: NatsConnection, service: string, prefix: string, log: Pick<Logger, 'error'>): EventSink {
  const js = nc.jetstream();
  return {
    async emit(ctx, e) {
      const event: DomainEvent = { id: newId(), occurredAt: new Date().toISOString(), service, ...e, actor: e.actor ?? ctx.userId, ip: ctx.ip, userAgent: ctx.userAgent };
      await publishEvent(js, event, prefix).catch((err: unknown) => log.error({ err, action: `${e.entity}.${e.verb}` }, 'domain event not published'));
    },
  };
}
