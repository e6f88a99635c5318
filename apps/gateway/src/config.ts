import { Type } from '@sinclair/typebox';
import { grpcAddress, loadConfig, port, serviceConfigFields, url } from '@quire/service-kit';

export const ConfigSchema = Type.Object({
  LOG_LEVEL: serviceConfigFields.LOG_LEVEL,
  HOST: Type.String({ default: '127.0.0.1' }),
  PORT: port(8080),
  /** Base address clients reach the API at, for `urls.location`. */
  QUIRE_PUBLIC_URL: url('http://127.0.0.1:8080'),
  /** Base address of the web app, for `urls.app`; the public URL when unset. */
  QUIRE_APP_URL: Type.Optional(url()),
  ORGS_URL: grpcAddress(50051),
  CONTENT_URL: grpcAddress(50052),
  REVIEW_URL: grpcAddress(50053),
  INTEGRATIONS_URL: grpcAddress(50055),
  INSIGHTS_URL: grpcAddress(50057),
  SITES_URL: grpcAddress(50054),
  GIT_SYNC_URL: grpcAddress(50056),
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 1200 }),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 1024 * 1024 }),
  /** How long a resolved token is trusted before orgs is asked again. */
  AUTH_CACHE_TTL_MS: Type.Integer({ minimum: 0, default: 30_000 }),
  GRPC_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10_000 }),
  /** Key of signed download links (files, PDFs); drawn at start when unset, so links last until a restart. */
  QUIRE_LINK_SECRET: Type.Optional(Type.String({ minLength: 16 })),
});

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
export const loadGatewayConfig = (env = process.env) => loadConfig(ConfigSchema, env);
