import { Type } from '@sinclair/typebox';
import { loadConfig, membershipFields, serviceConfigFields, servicePortField, url } from '@quire/service-kit';
import { STREAMS } from '@quire/service-kit/nats';

export const ConfigSchema = Type.Object({
  ...serviceConfigFields,
  ...servicePortField('insights'),
  /** The orgs service, asked whether the caller is a member of the organization (ingest asks on every request). */
  ...membershipFields,
  NATS_URL: Type.String({ default: 'nats://127.0.0.1:4222' }),
  /** The JetStream stream events wait in, and the prefix of its subjects (tests use their own). */
  INSIGHTS_STREAM: Type.String({ pattern: '^[A-Za-z0-9_-]+$', default: STREAMS.insights.name }),
  INSIGHTS_SUBJECT_PREFIX: Type.String({ pattern: '^[a-z0-9_-]+(\\.[a-z0-9_-]+)*$', default: 'insights' }),
  /** The durable consumer writing events to ClickHouse; replicas share it. */
  INSIGHTS_CONSUMER: Type.String({ pattern: '^[A-Za-z0-9_-]+$', default: 'insights-writer' }),
  /** Messages per insert at most (each holds one request's events, up to 1000). */
  INSIGHTS_BATCH_MESSAGES: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
  /** How long an unacked message waits before JetStream delivers it again. */
  INSIGHTS_ACK_WAIT_MS: Type.Integer({ minimum: 1000, default: 60_000 }),
  /** A ClickHouse server (`http://host:8123`); the embedded engine (chdb) over INSIGHTS_CHDB_PATH when unset. */
  CLICKHOUSE_URL: Type.Optional(url()),
  CLICKHOUSE_DATABASE: Type.String({ default: 'default' }),
  INSIGHTS_CHDB_PATH: Type.String({ minLength: 1, default: '.quire/insights-chdb' }),
  /** Events older than this are removed (the table's TTL); longer than the `lastYear` range by default. */
  INSIGHTS_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 36_500, default: 400 }),
});

export type InsightsConfig = ReturnType<typeof loadInsightsConfig>;
export const loadInsightsConfig = (env = process.env) => loadConfig(ConfigSchema, env);
