import { Type } from '@sinclair/typebox';
import { databaseConfigFields, grpcAddress, loadConfig, port, serviceConfigFields } from '@quire/service-kit';

export const ConfigSchema = Type.Object({
  ...serviceConfigFields,
  CONTENT_PORT: port(50052),
  ...databaseConfigFields('content'),
  /** The orgs service, asked for the caller's role and teams in an organization. */
  ORGS_URL: grpcAddress(50051),
});

export const loadContentConfig = (env = process.env) => loadConfig(ConfigSchema, env);
