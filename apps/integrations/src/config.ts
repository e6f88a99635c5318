import { Type } from '@sinclair/typebox';
import { databaseConfigFields, grpcAddress, loadConfig, port, serviceConfigFields } from '@quire/service-kit';

export const ConfigSchema = Type.Object({
  ...serviceConfigFields,
  INTEGRATIONS_PORT: port(50055),
  ...databaseConfigFields('integrations'),
  /** The orgs service, asked for organizations and the caller's role in them. */
  ORGS_URL: grpcAddress(50051),
  /** AES-256-GCM key of the integrations' secrets: 32 bytes, base64. Random per process when unset. */
  QUIRE_SECRETS_KEY: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9+/]{43}=$', description: '32 bytes, base64' })),
});

export const loadIntegrationsConfig = (env = process.env) => loadConfig(ConfigSchema, env);
