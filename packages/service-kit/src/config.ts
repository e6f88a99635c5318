import { readFileSync } from 'node:fs';
import { type Static, type TInteger, type TObject, type TSchema, type TString, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export class ConfigError extends Error {}

/**
 * A key drawn at random per process when unset: fine on one developer's machine, wrong in
 * production (links, sealed jobs and claims break across replicas and restarts), where it must
 * be set.
 */
export const secret = <S extends TSchema>(schema: S) => Type.Optional({ ...schema, requiredInProduction: true } as S);

/**
 * Reads and validates configuration from the environment at start. Every problem is reported at
 * once, naming the variable, so a misconfigured service fails before it serves anything. Any
 * setting may be read from a file instead (`<NAME>_FILE`, e.g. a mounted secret; one trailing
 * newline dropped). With `NODE_ENV=production`, the `secret` fields must be set.
 */
export function loadConfig<T extends TObject>(schema: T, env: NodeJS.ProcessEnv = process.env): Static<T> {
  const raw: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const [key, field] of Object.entries(schema.properties) as [string, TSchema][]) {
    let value = env[key];
    // A setting whose `<NAME>_FILE` is a field of its own (the service keys) reads its file itself.
    const file = `${key}_FILE` in schema.properties ? undefined : env[`${key}_FILE`];
    if ((value === undefined || value === '') && file) {
      try {
        value = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
      } catch (err) {
        missing.push(`  ${key}_FILE: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
        continue;
      }
    }
    if (value !== undefined && value !== '') raw[key] = value;
    else if (field.requiredInProduction && env.NODE_ENV === 'production')
      missing.push(`  ${key}: must be set in production (a key drawn per process breaks across replicas and restarts; \`quire init\` makes a deployment's secrets) (not set)`);
  }
  if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n${missing.join('\n')}`);
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

/** The settings of a service identity, in every app's configuration schema. */
export const serviceIdentityFields = {
  /** This app's Ed25519 private key, PKCS8 PEM (or `QUIRE_SERVICE_KEY_FILE`). */
  QUIRE_SERVICE_KEY: Type.Optional(Type.String()),
  QUIRE_SERVICE_KEY_FILE: Type.Optional(Type.String({ minLength: 1 })),
  /** JSON object: service name → Ed25519 public key, SPKI PEM (or `QUIRE_SERVICE_TRUST_FILE`). */
  QUIRE_SERVICE_TRUST: Type.Optional(Type.String()),
  QUIRE_SERVICE_TRUST_FILE: Type.Optional(Type.String({ minLength: 1 })),
};

const logLevel = Type.Union(
  ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
  { default: 'info' },
);
/** The side HTTP port of `/metrics` and `/readyz`; the app's own port + 1000 when unset. */
const metricsPort = Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 }));

/** Fields every service shares; a service spreads these into its own schema. */
export const serviceConfigFields = {
  ...serviceIdentityFields,
  LOG_LEVEL: logLevel,
  GRPC_HOST: Type.String({ default: '127.0.0.1' }),
  METRICS_PORT: metricsPort,
};

/** Fields every HTTP app (gateway, reader, collab) shares: they listen on HOST and call the services. */
export const httpAppConfigFields = {
  LOG_LEVEL: logLevel,
  ...serviceIdentityFields,
  HOST: Type.String({ default: '127.0.0.1' }),
  METRICS_PORT: metricsPort,
  GRPC_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10_000 }),
};

export const port = (defaultPort: number) => Type.Integer({ minimum: 0, maximum: 65535, default: defaultPort });
export const url = (defaultUrl?: string) => Type.String({ pattern: '^[a-z][a-z0-9+.-]*://', ...(defaultUrl ? { default: defaultUrl } : {}) });

/** Each service's gRPC port: where it listens (`<NAME>_PORT`) and where its callers reach it (`<NAME>_URL`) by default. */
export const SERVICE_PORTS = { orgs: 50051, content: 50052, review: 50053, sites: 50054, integrations: 50055, 'git-sync': 50056, insights: 50057 } as const;
type Service = keyof typeof SERVICE_PORTS;
/** A service's settings prefix: `git-sync` → `GIT_SYNC`. */
type Prefix<N extends string> = Uppercase<N extends `${infer A}-${infer B}` ? `${A}_${B}` : N>;
const prefix = <N extends Service>(name: N) => name.toUpperCase().replace(/-/g, '_') as Prefix<N>;

/** `<NAME>_PORT`, where the service listens. */
export const servicePortField = <N extends Service>(name: N) => ({ [`${prefix(name)}_PORT`]: port(SERVICE_PORTS[name]) }) as Record<`${Prefix<N>}_PORT`, TInteger>;

/** `<NAME>_URL` of each service an app calls, the service's local address by default. */
export const serviceUrlFields = <N extends Service>(...names: N[]) =>
  Object.fromEntries(names.map((name) => [`${prefix(name)}_URL`, grpcAddress(SERVICE_PORTS[name])])) as Record<`${Prefix<N>}_URL`, TString>;

/** The database fields of a service's config: its own `quire_<service>` database by default. */
export const databaseConfigFields = (service: string) => ({
  DATABASE_URL: url(databaseUrlDefault(service)),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
});

// host:port, the host a name, an IPv4 address or a bracketed IPv6 one. No class overlaps the next
// character, so matching stays linear.
const HOST_PORT = '(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9.-]+):[0-9]{1,5}';

/**
 * A gRPC address, defaulting to the local one on `defaultPort`: `host:port`, `dns:///name:port`
 * (every address the name resolves to), or a list `ip:port,ip:port` of replicas.
 */
export const grpcAddress = (defaultPort: number) =>
  Type.String({ maxLength: 2000, pattern: `^(dns:(//[A-Za-z0-9.:-]*/)?)?${HOST_PORT}(,${HOST_PORT})*$`, default: `127.0.0.1:${defaultPort}` });

/** `DATABASE_URL` for a service, defaulting to `quire_<service>` on the local server. */
export function databaseUrlDefault(service: string, base = process.env.QUIRE_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres'): string {
  const u = new URL(base);
  u.pathname = `/quire_${service.replace(/-/g, '_')}`;
  return u.toString();
}
