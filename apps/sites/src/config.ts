import { Type } from '@sinclair/typebox';
import { secretsKeyFields } from '@quire/service-kit/sealed';
import { databaseConfigFields, loadConfig, membershipFields, serviceConfigFields, servicePortField, serviceUrlFields } from '@quire/service-kit';
import { eventsPrefixField } from '@quire/service-kit/nats';

export const ConfigSchema = Type.Object({
  ...serviceConfigFields,
  ...servicePortField('sites'),
  ...databaseConfigFields('sites'),
  /** The orgs service, asked for the caller's role in an organization. */
  ...membershipFields,
  /** The content service: spaces added to sites are checked there, and created for new sites. */
  ...serviceUrlFields('content'),
  // QUIRE_SECRETS_KEY seals the sites' visitor keys: the same on every replica.
  ...secretsKeyFields,
  /** Where visibility and publishing changes go as domain events (the audit log reads them). */
  NATS_URL: Type.String({ default: 'nats://127.0.0.1:4222' }),
  EVENTS_SUBJECT_PREFIX: eventsPrefixField,
});

export const loadSitesConfig = (env = process.env) => loadConfig(ConfigSchema, env);
export type SitesConfig = ReturnType<typeof loadSitesConfig>;
