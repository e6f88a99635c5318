import { Type } from '@sinclair/typebox';
import { secretsKeyFields } from '@quire/service-kit/sealed';
import { AUTH } from '@quire/proto/limits';
import { databaseConfigFields, loadConfig, secret, serviceConfigFields, servicePortField } from '@quire/service-kit';
import { eventsPrefixField, STREAMS } from '@quire/service-kit/nats';

export const ConfigSchema = Type.Object({
  ...serviceConfigFields,
  ...servicePortField('orgs'),
  ...databaseConfigFields('orgs'),
  /** Key for the visitor-claims JWT of `ping`; at least 32 characters. Random per process when unset. */
  QUIRE_VISITOR_CLAIMS_SECRET: secret(Type.String({ minLength: 32 })),
  // QUIRE_SECRETS_KEY seals OIDC client secrets; per process when unset (providers then need their
  // secret again after a restart). QUIRE_SECRETS_KEY_PREVIOUS still opens those older keys sealed.
  ...secretsKeyFields,
  /** On first start with an empty database, the token of the admin user created then. */
  QUIRE_BOOTSTRAP_TOKEN: Type.Optional(Type.String({ minLength: 20, pattern: '^[A-Za-z0-9_-]+$' })),
  /** On first start with an empty database, the password of the admin user created then. */
  QUIRE_BOOTSTRAP_PASSWORD: Type.Optional(Type.String({ minLength: AUTH.password.min, maxLength: AUTH.password.max })),
  NATS_URL: Type.String({ default: 'nats://127.0.0.1:4222' }),
  /** The stream of domain events the audit log is written from, and its subjects' prefix (tests use their own). */
  EVENTS_STREAM: Type.String({ pattern: '^[A-Za-z0-9_-]+$', default: STREAMS.events.name }),
  EVENTS_SUBJECT_PREFIX: eventsPrefixField,
  /** A browser session ends when unused this long (7 days)... */
  SESSION_IDLE_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 7 * 24 * 3_600_000 }),
  /** ...and at the latest this long after sign-in (30 days), used or not. */
  SESSION_MAX_AGE_MS: Type.Integer({ minimum: 1000, default: 30 * 24 * 3_600_000 }),
});

export const loadOrgsConfig = (env = process.env) => loadConfig(ConfigSchema, env);

export type OrgsConfig = ReturnType<typeof loadOrgsConfig>;
