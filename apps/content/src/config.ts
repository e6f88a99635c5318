import { Type } from '@sinclair/typebox';
import { databaseUrlDefault, grpcAddress, loadConfig, port, serviceConfigFields, url } from '@quire/service-kit';

export const ConfigSchema = Type.Object({
  ...serviceConfigFields,
  CONTENT_PORT: port(50052),
  DATABASE_URL: url(databaseUrlDefault('content')),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  /** The orgs service, asked for the caller's role and teams in an organization. */
  ORGS_URL: grpcAddress(50051),
});

export const loadContentConfig = (env = process.env) => loadConfig(ConfigSchema, env);
