import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TObject, TSchema } from '@sinclair/typebox';
import { grpcAddress } from '@quire/service-kit';
import { parseAllDocuments } from 'yaml';

// What the deploy checks share: the apps with their configuration schemas, whom each calls, and
// the Kubernetes manifests as kustomize builds them.

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const infra = `${root}infra/`;

const ADDRESS_PATTERN = grpcAddress(1).pattern;

export interface App {
  name: string;
  schema: TObject;
  /** The gRPC port setting (`ORGS_PORT`), absent for the HTTP apps (gateway, reader). */
  portSetting?: string;
  migrates: boolean;
}

export const apps: App[] = await Promise.all(
  readdirSync(`${root}apps`)
    .filter((name) => existsSync(`${root}apps/${name}/src/config.ts`))
    .map(async (name) => {
      const { ConfigSchema } = (await import(`${root}apps/${name}/src/config.ts`)) as { ConfigSchema: TObject };
      const portSetting = `${settingPrefix(name)}_PORT`;
      const grpc = 'GRPC_HOST' in ConfigSchema.properties && portSetting in ConfigSchema.properties;
      return { name, schema: ConfigSchema, portSetting: grpc ? portSetting : undefined, migrates: existsSync(`${root}apps/${name}/prisma`) };
    }),
);
const byName = new Map(apps.map((a) => [a.name, a]));

export function settingPrefix(app: string) {
  return app.toUpperCase().replace(/-/g, '_');
}

/** The service an address setting points to (`GIT_SYNC_URL` → git-sync), when it is one. */
export function addressTarget(key: string, prop: TSchema): App | undefined {
  if (prop.pattern !== ADDRESS_PATTERN) return undefined;
  return byName.get(key.replace(/_URL$/, '').toLowerCase().replace(/_/g, '-'));
}

/** The names of the gRPC services an app calls, from its address settings. */
export function callees(app: App): string[] {
  return Object.entries(app.schema.properties as Record<string, TSchema>)
    .map(([key, prop]) => addressTarget(key, prop))
    .filter((target) => target?.portSetting)
    .map((target) => target!.name)
    .sort();
}

type K8sObject = { apiVersion: string; kind: string; metadata: { name: string }; [k: string]: unknown };
export const manifests = parseAllDocuments(execFileSync('kubectl', ['kustomize', `${infra}k8s`], { encoding: 'utf8' })).map((d) => d.toJS() as K8sObject);
export const k8s = (kind: string, name: string) => manifests.find((m) => m.kind === kind && m.metadata.name === name) as any; // eslint-disable-line @typescript-eslint/no-explicit-any -- plain parsed YAML
export const ofKind = (kind: string) => manifests.filter((m) => m.kind === kind) as any[]; // eslint-disable-line @typescript-eslint/no-explicit-any -- plain parsed YAML
const configMaps = ofKind('ConfigMap') as { metadata: { name: string }; data: Record<string, string> }[];

/** What the value of a setting that names a secret is taken to be: set, never empty. */
export const SET = '<set by the operator>';

/** An app's environment in its Deployment: the config maps it reads, then its own variables. */
export function k8sEnv(name: string): Map<string, string> | undefined {
  const container = k8s('Deployment', name)?.spec.template.spec.containers.find((c: { name: string }) => c.name === name);
  if (!container) return undefined;
  const env = new Map<string, string>();
  for (const from of container.envFrom ?? []) {
    for (const [k, v] of Object.entries(configMaps.find((c) => c.metadata.name === from.configMapRef.name)?.data ?? {})) env.set(k, v);
  }
  for (const e of container.env ?? []) env.set(e.name, e.valueFrom?.secretKeyRef && !e.valueFrom.secretKeyRef.optional ? SET : (e.value ?? ''));
  return env;
}
