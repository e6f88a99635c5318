import { Type } from '@sinclair/typebox';
import { databaseConfigFields, loadConfig, port, serviceConfigFields } from '@quire/service-kit';

export const ConfigSchema = Type.Object({
  ...serviceConfigFields,
  ORGS_PORT: port(50051),
  ...databaseConfigFields('orgs'),
  /** Key for the visitor-claims JWT of `ping`; at least 32 characters. Random per process when unset. */
  QUIRE_VISITOR_CLAIMS_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  /** On first start with an empty database, the token of the admin user created then. */
  QUIRE_BOOTSTRAP_TOKEN: Type.Optional(Type.String({ minLength: 20, pattern: '^[A-Za-z0-9_-]+$' })),
});

export const loadOrgsConfig = (env = process.env) => loadConfig(ConfigSchema, env);
