import { readdirSync, readFileSync } from 'node:fs';
import type { TSchema } from '@sinclair/typebox';
import { startScriptFlags } from '@quire/service-kit/testing';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { DATABASES } from '../src/backup.ts';
import { addressTarget, apps, type App, infra, k8s, k8sEnv, root, SET } from './deployment.ts';

// Static checks of the deploy files against the apps' own configuration schemas: every setting a
// deployed app cannot do without is set, every service address names the service and its port,
// migrations run before each service and probes ask each service. What only the Kubernetes
// manifests hold (network policies, disruption budgets, the Ingress) is checked in k8s.test.ts.

/** Settings that have a default only good for one process on a laptop (a random key, the loopback). */
const SECRETS = ['QUIRE_SECRETS_KEY', 'QUIRE_VISITOR_CLAIMS_SECRET', 'QUIRE_LINK_SECRET', 'QUIRE_SERVICE_KEY', 'QUIRE_SERVICE_TRUST'];
/** Settings naming where a service keeps state: on a volume, or the state is lost with the container. */
const STATE_PATHS: Record<string, string> = { CONTENT_BLOB_DIR: 'S3_BUCKET', INSIGHTS_CHDB_PATH: 'CLICKHOUSE_URL' };
/** Where clients reach the API and visitors the published sites. */
const PUBLIC_ADDRESSES = ['QUIRE_PUBLIC_URL', 'QUIRE_READER_URL'];
const LOOPBACK = /127\.0\.0\.1|localhost|\[::1\]/;

/** What an app's deployment must set, from its schema. */
function requiredSettings(app: App): string[] {
  return Object.entries(app.schema.properties as Record<string, TSchema>)
    .filter(([key, prop]) => {
      const optional = !(app.schema.required ?? []).includes(key);
      const hasDefault = prop.default !== undefined;
      if (!optional && !hasDefault) return true;
      if (typeof prop.default === 'string' && LOOPBACK.test(prop.default)) return true;
      return SECRETS.includes(key) || key in STATE_PATHS;
    })
    .map(([key]) => key);
}

/** A deployed app as the checks see it, from either file. */
interface Deployed {
  env: Map<string, string>;
  /** Paths mounted from volumes (persistent or secret). */
  mounts: string[];
  migration?: { command: string; databaseUrl?: string };
  readiness?: number;
}

// ---------------------------------------------------------------- compose
const dockerfile = readFileSync(`${infra}Dockerfile`, 'utf8');
/** A stage of the Dockerfile, from the line after its `FROM ... AS name` to the next `FROM`. */
const stage = (name: string) => dockerfile.split(/^FROM /m).find((s) => new RegExp(`^\\S+ AS ${name}\\n`).test(s)) ?? '';
/** The port of an app image's health check (its HEALTHCHECK_URL), which compose relies on. */
const imageHealthPort = (app: string) => Number(stage(`app-${app}`).match(/HEALTHCHECK_URL=http:\/\/127\.0\.0\.1:(\d+)\//)?.[1]) || undefined;

const compose = parse(readFileSync(`${infra}docker-compose.yml`, 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
  secrets: Record<string, unknown>;
  volumes: Record<string, unknown>;
};
interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  secrets?: { source: string; target: string }[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

/** `${X:-default}` is the default, `${X:?message}` a value the operator must give, `${X}` empty. */
function composeValue(v: string): string {
  return v.replace(/\$\{[A-Z0-9_]+(?::-([^}]*)|:\?[^}]*)?\}/g, (m, def: string | undefined) => (m.includes(':?') ? SET : (def ?? '')));
}

function fromCompose(name: string): Deployed | undefined {
  const s = compose.services[name];
  if (!s) return undefined;
  const env = new Map(Object.entries(s.environment ?? {}).map(([k, v]) => [k, composeValue(String(v))]));
  const mounts = [...(s.volumes ?? []).map((v) => v.split(':')[1]!), ...(s.secrets ?? []).map((x) => `/run/secrets/${x.target}`)];
  // One step migrates every database, with the ops image's `quire migrate`.
  const migrate = compose.services.migrate;
  const migrated = s.depends_on?.migrate?.condition === 'service_completed_successfully';
  const databaseUrl = migrate?.environment?.[`${name.toUpperCase().replace(/-/g, '_')}_DATABASE_URL`];
  return {
    env,
    mounts,
    migration: migrate && migrated ? { command: `quire ${(migrate.command ?? []).join(' ')} ${name}`, databaseUrl: composeValue(String(databaseUrl ?? '')) } : undefined,
    readiness: imageHealthPort(name),
  };
}

// ---------------------------------------------------------------- kubernetes
function fromK8s(name: string): Deployed | undefined {
  const env = k8sEnv(name);
  if (!env) return undefined;
  const pod = k8s('Deployment', name).spec.template.spec;
  const container = pod.containers.find((c: { name: string }) => c.name === name);
  const init = (pod.initContainers ?? []).find((c: { image: string; args?: string[] }) => c.image.startsWith('quire/ops:') && c.args?.[0] === 'migrate');
  type Container = { env?: { name: string; valueFrom?: { secretKeyRef?: { key: string } } }[] };
  const dbRef = (c: Container, variable = 'DATABASE_URL') => c.env?.find((e) => e.name === variable)?.valueFrom?.secretKeyRef?.key;
  const opsVariable = `${name.toUpperCase().replace(/-/g, '_')}_DATABASE_URL`;
  return {
    env,
    mounts: (container.volumeMounts ?? [])
      .filter((m: { name: string }) =>
        pod.volumes.some((v: { name: string; persistentVolumeClaim?: unknown; secret?: unknown }) => v.name === m.name && (v.persistentVolumeClaim || v.secret)),
      )
      .map((m: { mountPath: string }) => m.mountPath),
    migration: init ? { command: `quire ${init.args.join(' ')}`, databaseUrl: dbRef(init, opsVariable) === dbRef(container) ? 'same secret' : undefined } : undefined,
    readiness: container.readinessProbe?.grpc?.port,
  };
}

describe.each([
  ['docker-compose.yml', fromCompose],
  ['k8s', fromK8s],
] as const)('%s', (_file, deployed) => {
  it.each(apps.map((a) => [a.name, a] as const))('%s: every setting it needs, every address it calls', (name, app) => {
    const d = deployed(name);
    expect(d, `${name} is not deployed`).toBeDefined();
    const env = d!.env;
    const isSet = (key: string) => (env.get(key) ?? '') !== '' || (env.get(`${key}_FILE`) ?? '') !== '';
    for (const key of requiredSettings(app)) {
      if (key in STATE_PATHS) {
        if (isSet(STATE_PATHS[key]!)) continue;
        expect(d!.mounts, `${name}: ${key} (${env.get(key)}) is not on a volume`).toContain(env.get(key));
        continue;
      }
      expect(isSet(key), `${name}: ${key} is not set`).toBe(true);
      const value = env.get(key) ?? '';
      // The public addresses are the operator's to choose (a one-machine stack answers on localhost).
      if (!PUBLIC_ADDRESSES.includes(key)) expect(value, `${name}: ${key} points at the loopback`).not.toMatch(LOOPBACK);
      if (key === 'GRPC_HOST' || key === 'HOST') expect(value, `${name}: ${key}`).toBe('0.0.0.0');
    }
    for (const key of SECRETS.filter((k) => k in app.schema.properties)) {
      const file = env.get(`${key}_FILE`);
      // Kubernetes mounts the secret's folder, compose the file itself.
      if (file)
        expect(
          d!.mounts.some((m) => file === m || file.startsWith(`${m}/`)),
          `${name}: ${key}_FILE (${file}) is not mounted`,
        ).toBe(true);
    }
    for (const [key, prop] of Object.entries(app.schema.properties as Record<string, TSchema>)) {
      const target = addressTarget(key, prop);
      if (!target?.portSetting) continue;
      const targetEnv = deployed(target.name)?.env;
      for (const address of (env.get(key) ?? '').split(',')) {
        expect(address.replace(/^dns:\/\/\//, ''), `${name}: ${key}`).toBe(`${target.name}:${targetEnv?.get(target.portSetting)}`);
      }
    }
  });

  it.each(apps.filter((a) => a.migrates).map((a) => [a.name] as const))('%s: its migrations run before it starts', (name) => {
    const d = deployed(name)!;
    expect(d.migration?.command, `${name} has no migration step`).toBe(`quire migrate ${name}`);
    expect(d.migration?.databaseUrl).toBeTruthy();
    if (d.migration?.databaseUrl !== 'same secret') expect(d.migration?.databaseUrl).toBe(d.env.get('DATABASE_URL'));
    expect(d.env.get('DATABASE_URL')).toMatch(new RegExp(`^(${SET}|postgresql://.*/quire_${name.replace(/-/g, '_')})$`));
  });

  it.each(apps.filter((a) => a.portSetting).map((a) => [a.name, a] as const))('%s: readiness asks the service', (name, app) => {
    const d = deployed(name)!;
    const expected = _file === 'k8s' ? Number(d.env.get(app.portSetting!)) : Number(d.env.get('METRICS_PORT'));
    expect(d.readiness).toBe(expected);
  });
});

describe('docker-compose.yml', () => {
  it('declares every secret and volume its services use', () => {
    for (const s of Object.values(compose.services)) {
      for (const x of s.secrets ?? []) expect(compose.secrets).toHaveProperty(x.source);
      for (const v of s.volumes ?? []) if (!v.startsWith('.')) expect(compose.volumes).toHaveProperty(v.split(':')[0]!);
    }
  });
});

describe('images', () => {
  it('git-sync carries git; review carries Chromium and its fonts', () => {
    expect(stage('app-git-sync')).toMatch(/apt-get install[^\n]*\bgit\b/);
    expect(stage('app-review')).toMatch(/apt-get install[^\n]*\bchromium fonts-noto-cjk fonts-noto-core\b/);
  });
  it("runs each app with the node flags of its package's start script", () => {
    for (const app of readdirSync(`${root}apps`)) {
      const flags = startScriptFlags(`${root}apps/${app}`);
      if (flags.length) expect(stage(`app-${app}`), app).toMatch(new RegExp(`^ENV .*\\bNODE_OPTIONS=${flags.join(' ')}$`, 'm'));
    }
  });
  it('the gateway carries the built web app and serves it', () => {
    expect(stage('app-gateway')).toMatch(/COPY --from=builder \/src\/apps\/web\/dist \.\/apps\/web\/dist\nENV QUIRE_WEB_DIST=\/app\/apps\/web\/dist /);
  });
  it('the ops image migrates every service with a database, and pg_dump backs them up', () => {
    const migrating = apps.filter((x) => x.migrates).map((a) => a.name);
    expect([...DATABASES].sort()).toEqual(migrating.sort());
    for (const name of migrating) expect(stage('ops'), name).toContain(`COPY --from=sources /src/apps/${name}/prisma ./apps/${name}/prisma\n`);
    expect(stage('ops')).toMatch(/apt-get install[^\n]*\bpostgresql-client-15\b/);
  });
  it('every image runs as node, without the build toolchain', () => {
    expect(stage('app')).toMatch(/^USER node$/m);
    expect(stage('ops')).toMatch(/^USER node$/m);
    for (const name of ['runtime', 'app', 'ops']) expect(stage(name), name).not.toMatch(/pnpm|turbo|--from=sources \/src\/(?!apps\/[\w-]+\/prisma)/);
  });
});

describe('grafana/quire.json', () => {
  it('charts only series the processes export', () => {
    const dashboard = readFileSync(`${infra}grafana/quire.json`, 'utf8');
    const declared = readFileSync(`${root}packages/service-kit/src/metrics.ts`, 'utf8');
    const used = new Set([...dashboard.matchAll(/quire_[a-z_]+?(?=_bucket|_count|_sum|\b)/g)].map((m) => m[0]));
    expect(used.size).toBeGreaterThan(3);
    for (const name of used) expect(declared, name).toContain(`'${name}'`);
  });
});
