import { type Static, type TObject, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export class ConfigError extends Error {}

/**
 * Reads and validates configuration from the environment at start. Every problem is reported at
 * once, naming the variable, so a misconfigured service fails before it serves anything.
 */
export function loadConfig<T extends TObject>(schema: T, env: NodeJS.ProcessEnv = process.env): Static<T> {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const withDefaults = Value.Default(schema, raw);
  const converted = Value.Convert(schema, withDefaults);
  const errors = [...Value.Errors(schema, converted)];
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const name = e.path.replace(/^\//, '') || '(environment)';
      const got = name in raw ? ` (got ${JSON.stringify(raw[name])})` : ' (not set)';
      return `  ${name}: ${e.message}${got}`;
    });
    throw new ConfigError(`Invalid configuration:\n${[...new Set(lines)].join('\n')}`);
  }
  return converted as Static<T>;
}

/** Fields every service shares; a service spreads these into its own schema. */
export const serviceConfigFields = {
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  GRPC_HOST: Type.String({ default: '127.0.0.1' }),
};

export const port = (defaultPort: number) => Type.Integer({ minimum: 0, maximum: 65535, default: defaultPort });
export const url = (defaultUrl?: string) =>
  Type.String({ pattern: '^[a-z][a-z0-9+.-]*://', ...(defaultUrl ? { default: defaultUrl } : {}) });

/** The database fields of a service's config: its own `quire_<service>` database by default. */
export const databaseConfigFields = (service: string) => ({
  DATABASE_URL: url(databaseUrlDefault(service)),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
});

/** A gRPC `host:port`, defaulting to the local one on `defaultPort`. */
export const grpcAddress = (defaultPort: number) =>
  Type.String({ pattern: '^[A-Za-z0-9.\\-\\[\\]:]+:[0-9]+$', default: `127.0.0.1:${defaultPort}` });

/** `DATABASE_URL` for a service, defaulting to `quire_<service>` on the local server. */
export function databaseUrlDefault(service: string, base = process.env.QUIRE_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres'): string {
  const u = new URL(base);
  u.pathname = `/quire_${service.replace(/-/g, '_')}`;
  return u.toString();
}
