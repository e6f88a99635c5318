import { Type } from '@sinclair/typebox';
import { databaseConfigFields, loadConfig, serviceConfigFields, servicePortField, serviceUrlFields } from '@quire/service-kit';
import { eventsPrefixField } from '@quire/service-kit/nats';
import { secretsKeyFields } from '@quire/service-kit/sealed';

const ms = (def: number, minimum = 100) => Type.Integer({ minimum, default: def });

export const ConfigSchema = Type.Object({
  ...serviceConfigFields,
  ...servicePortField('git-sync'),
  ...databaseConfigFields('git-sync'),
  /** The content service: spaces (permissions) and revisions. */
  ...serviceUrlFields('content'),
  NATS_URL: Type.String({ default: 'nats://127.0.0.1:4222' }),
  /** The subject of this service's jobs on the JOBS stream, and its durable consumer (tests use their own). */
  /** Where exports and imports started go as domain events (the audit log reads them). */
  EVENTS_SUBJECT_PREFIX: eventsPrefixField,
  GIT_SYNC_SUBJECT: Type.String({ pattern: '^jobs\\.[A-Za-z0-9_.-]+$', default: 'jobs.gitsync' }),
  GIT_SYNC_CONSUMER: Type.String({ pattern: '^[A-Za-z0-9_-]+$', default: 'git-sync' }),
  /** Jobs one process runs at once; 0 runs no worker (an API-only replica). */
  GIT_SYNC_WORKERS: Type.Integer({ minimum: 0, maximum: 32, default: 2 }),
  /** Redelivery after a worker stops answering; a running job extends it while it works. */
  GIT_SYNC_ACK_WAIT_MS: ms(30_000),
  /** The longest a job may run (each git command and content call included). */
  GIT_SYNC_JOB_TIMEOUT_MS: ms(10 * 60_000, 1000),
  GIT_SYNC_MAX_DELIVER: Type.Integer({ minimum: 1, maximum: 100, default: 5 }),
  /** Drops the durable consumer after this long with no worker (tests' own consumers); kept forever when unset. */
  GIT_SYNC_CONSUMER_INACTIVE_MS: Type.Optional(ms(60_000, 1000)),
  /** How often this process looks for links due a poll (each polls at its own interval); 0: never. */
  GIT_SYNC_POLL_TICK_MS: Type.Integer({ minimum: 0, default: 5000 }),
  /** Where the per-job working directories are made; the system's temp dir when unset. */
  GIT_SYNC_WORK_DIR: Type.Optional(Type.String()),
  /** Lets repositories be local paths (`file:` URLs): tests and single-machine setups only; the private network setting does not. */
  QUIRE_ALLOW_FILE_REMOTES: Type.Boolean({ default: false }),
  // QUIRE_SECRETS_KEY: AES-256-GCM key sealing repository credentials on job messages, the same on
  // every replica. Jobs queued before a rotation open with QUIRE_SECRETS_KEY_PREVIOUS.
  ...secretsKeyFields,
});

export type GitSyncConfig = ReturnType<typeof loadGitSyncConfig>;
export const loadGitSyncConfig = (env = process.env) => loadConfig(ConfigSchema, env);
