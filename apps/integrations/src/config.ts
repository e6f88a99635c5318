import { Type } from '@sinclair/typebox';
import { databaseConfigFields, grpcAddress, loadConfig, port, serviceConfigFields } from '@quire/service-kit';
import { secretsKeyFields } from '@quire/service-kit/sealed';

export const ConfigSchema = Type.Object({
  ...serviceConfigFields,
  INTEGRATIONS_PORT: port(50055),
  ...databaseConfigFields('integrations'),
  /** The orgs service, asked for organizations and the caller's role in them. */
  ORGS_URL: grpcAddress(50051),
  // QUIRE_SECRETS_KEY: AES-256-GCM key of the integrations' secrets. Random per process when unset.
  ...secretsKeyFields,
});

export const loadIntegrationsConfig = (env = process.env) => loadConfig(ConfigSchema, env);
export type IntegrationsConfig = ReturnType<typeof loadIntegrationsConfig>;
