import { Type } from '@sinclair/typebox';
import { databaseConfigFields, loadConfig, serviceConfigFields, servicePortField, serviceUrlFields } from '@quire/service-kit';
import { secretsKeyFields } from '@quire/service-kit/sealed';

export const ConfigSchema = Type.Object({
  ...serviceConfigFields,
  ...servicePortField('integrations'),
  ...databaseConfigFields('integrations'),
  /** The orgs service, asked for organizations and the caller's role in them. */
  ...serviceUrlFields('orgs'),
  // QUIRE_SECRETS_KEY: AES-256-GCM key of the integrations' secrets. Random per process when unset.
  ...secretsKeyFields,
});

export const loadIntegrationsConfig = (env = process.env) => loadConfig(ConfigSchema, env);
export type IntegrationsConfig = ReturnType<typeof loadIntegrationsConfig>;
