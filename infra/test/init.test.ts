import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as models from 'kubernetes-models';
import { parseAllDocuments } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, loadServiceKeys, SERVICE_IDENTITIES } from '@quire/service-kit';
import { ConfigSchema as OrgsConfig } from '../../apps/orgs/src/config.ts';
import { initDeployment } from '../src/init.ts';

// `quire init`: the secrets of a deployment, as compose and the Kubernetes manifests read them.

const root = fileURLToPath(new URL('../..', import.meta.url));
const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'quire-init-'));
  folders.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const readEnv = (dir: string) =>
  Object.fromEntries(
    readFileSync(join(dir, '.env'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(/=(.*)/s).slice(0, 2)),
  );
const snapshot = (dir: string) => Object.fromEntries(['.env', ...readdirSync(join(dir, 'secrets')).map((f) => `secrets/${f}`)].map((f) => [f, readFileSync(join(dir, f), 'utf8')]));

describe('quire init', () => {
  it('writes every app key, the trust list and the secrets, each readable only by its owner, in the forms the apps load', () => {
    const dir = folder();
    const result = initDeployment(dir);
    expect(result.made).toEqual([...SERVICE_IDENTITIES.map((n) => `secrets/${n}.key`), '.env', 'secrets/k8s-secrets.yaml']);
    for (const name of SERVICE_IDENTITIES) {
      const keys = loadServiceKeys(name, { QUIRE_SERVICE_KEY_FILE: join(dir, `secrets/${name}.key`), QUIRE_SERVICE_TRUST_FILE: join(dir, 'secrets/trust.json') });
      expect([...keys.trust.keys()].sort()).toEqual([...SERVICE_IDENTITIES].sort());
      expect(statSync(join(dir, `secrets/${name}.key`)).mode & 0o077).toBe(0);
    }
    expect(statSync(join(dir, '.env')).mode & 0o077).toBe(0);
    const env = readEnv(dir);
    expect(result.adminPassword).toBe(env.QUIRE_BOOTSTRAP_PASSWORD);
    // orgs in production accepts what init wrote (its bounds: the token's alphabet, the password's length, the key's size).
    const orgs = loadConfig(OrgsConfig, { ...env, NODE_ENV: 'production' });
    expect(Buffer.from(orgs.QUIRE_SECRETS_KEY!, 'base64')).toHaveLength(32);
    expect(orgs).toMatchObject({ QUIRE_BOOTSTRAP_TOKEN: env.QUIRE_BOOTSTRAP_TOKEN, QUIRE_BOOTSTRAP_PASSWORD: env.QUIRE_BOOTSTRAP_PASSWORD });
  });

  it('keeps everything on a second run, makes only what is missing, and replaces all with --force', () => {
    const dir = folder();
    initDeployment(dir);
    const first = snapshot(dir);
    const again = initDeployment(dir);
    expect(again.made).toEqual([]);
    expect(again.adminPassword).toBeUndefined();
    expect(snapshot(dir)).toEqual(first);

    rmSync(join(dir, 'secrets/review.key'));
    const repaired = initDeployment(dir);
    expect(repaired.made).toEqual(['secrets/review.key']);
    expect(snapshot(dir)['secrets/orgs.key']).toBe(first['secrets/orgs.key']);
    expect(snapshot(dir)['secrets/review.key']).not.toBe(first['secrets/review.key']);

    const forced = initDeployment(dir, { force: true });
    expect(forced.made).toHaveLength(SERVICE_IDENTITIES.length + 2);
    const after = snapshot(dir);
    for (const file of Object.keys(first)) expect(after[file], file).not.toBe(first[file]);
  });

  it.runIf(process.getuid?.() === 0)("gives the key files to the containers' user, who alone reads them", () => {
    const dir = folder();
    initDeployment(dir, { owner: '1000:1000' });
    for (const file of readdirSync(join(dir, 'secrets'))) expect(statSync(join(dir, 'secrets', file)), file).toMatchObject({ uid: 1000, gid: 1000 });
    expect(statSync(join(dir, 'secrets/orgs.key')).mode & 0o077).toBe(0);
    expect(statSync(join(dir, '.env')).uid).toBe(0);
  });

  it('writes the Kubernetes Secrets every manifest reads, valid against the Kubernetes schema', () => {
    const dir = folder();
    initDeployment(dir, { postgresUrl: 'postgresql://quire:pw@db.internal:5432/' });
    const docs = parseAllDocuments(readFileSync(join(dir, 'secrets/k8s-secrets.yaml'), 'utf8')).map((d) => d.toJS());
    for (const doc of docs) new models.v1.Secret(doc).validate();
    const byName = new Map(docs.map((d) => [d.metadata.name, d.stringData as Record<string, string>]));
    expect(byName.get('quire-secrets')).toMatchObject({
      'orgs-database-url': 'postgresql://quire:pw@db.internal:5432/quire_orgs',
      'git-sync-database-url': 'postgresql://quire:pw@db.internal:5432/quire_git_sync',
    });
    expect(byName.get('quire-secrets')!['link-secret']).toBe(readEnv(dir).QUIRE_LINK_SECRET);
    // Every key a manifest in infra/k8s asks of a Secret is there.
    const manifests = readdirSync(join(root, 'infra/k8s')).map((f) => readFileSync(join(root, 'infra/k8s', f), 'utf8'));
    const asked = manifests.flatMap((text) => [...text.matchAll(/secretKeyRef: \{ name: ([\w-]+), key: ([\w.-]+) \}/g)].map((m): [string, string] => [m[1]!, m[2]!]));
    const mounted = manifests.flatMap((text) => [...text.matchAll(/\{ key: ([\w.-]+\.(?:key|json)), path: /g)].map((m): [string, string] => ['quire-service-identity', m[1]!]));
    expect(asked.length).toBeGreaterThan(10);
    for (const [secret, key] of [...asked, ...mounted]) expect(byName.get(secret), `${secret}/${key}`).toHaveProperty([key]);
  });
});

describe('pnpm quire init', { timeout: 120_000 }, () => {
  it("prints the first administrator's password once, then says where it is kept", async () => {
    const dir = folder();
    const run = () => promisify(execFile)('pnpm', ['--silent', 'quire', 'init', '--dir', dir], { cwd: root });
    const first = await run();
    const password = readEnv(dir).QUIRE_BOOTSTRAP_PASSWORD!;
    expect(first.stdout).toContain(`sign in with the password ${password}`);
    expect(first.stdout).toMatch(/^made {2}.*secrets\/orgs\.key$/m);
    const second = await run();
    expect(second.stdout).not.toContain(password);
    expect(second.stdout).toMatch(/^kept {2}.*\.env \(--force replaces it\)$/m);
  });
});
