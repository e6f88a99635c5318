import type { Command } from 'commander';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { BOOTSTRAP_EMAIL } from '@quire/orgs/admin';
import { databaseUrlDefault, SERVICE_IDENTITIES } from '@quire/service-kit';
import { DATABASES } from './backup.ts';
import { SECRETS } from './secrets.ts';
import { ensureServiceKeys } from './service-keys.ts';

export interface InitResult {
  /** The files written, relative to the folder. */
  made: string[];
  /** The files that existed and were kept. */
  kept: string[];
  /** The first administrator's password, when this run made it (else it is in `.env`). */
  adminPassword?: string;
}

/**
 * Writes what a deployment needs and git must never hold, under `dir` (`infra/`): the service
 * keys and trust list in `secrets/`, the other secrets in `.env` (both read by compose), and the
 * same as two Kubernetes Secrets in `secrets/k8s-secrets.yaml`. What exists is kept, so a second
 * run changes nothing; `force` makes everything anew (every sealed value and link breaks).
 */
export function initDeployment(dir: string, options: { force?: boolean; postgresUrl?: string; owner?: string } = {}): InitResult {
  const secretsDir = join(dir, 'secrets');
  const envFile = join(dir, '.env');
  const manifest = join(secretsDir, 'k8s-secrets.yaml');
  if (options.force) {
    rmSync(secretsDir, { recursive: true, force: true });
    rmSync(envFile, { force: true });
  }
  const result: InitResult = { made: [], kept: [] };
  const keys = ensureServiceKeys(secretsDir);
  result.made.push(...keys.made.map((n) => `secrets/${n}.key`));
  result.kept.push(...keys.kept.map((n) => `secrets/${n}.key`));

  const env = existsSync(envFile) ? readEnv(readFileSync(envFile, 'utf8')) : {};
  const missing = Object.keys(SECRETS).filter((name) => !env[name]);
  for (const name of missing) env[name] = SECRETS[name]!();
  if (missing.length > 0) {
    writeFileSync(
      envFile,
      Object.entries(env)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(''),
      { mode: 0o600 },
    );
    result.made.push('.env');
    if (missing.includes('QUIRE_BOOTSTRAP_PASSWORD')) result.adminPassword = env.QUIRE_BOOTSTRAP_PASSWORD;
  } else result.kept.push('.env');

  if (existsSync(manifest)) result.kept.push('secrets/k8s-secrets.yaml');
  else {
    const postgresUrl = options.postgresUrl ?? `postgresql://quire:${env.POSTGRES_PASSWORD}@postgres:5432`;
    writeFileSync(manifest, kubernetesSecrets(env, secretsDir, postgresUrl), { mode: 0o600 });
    result.made.push('secrets/k8s-secrets.yaml');
  }
  if (options.owner) {
    // Compose mounts the key files as they are: only their owner, the containers' user, reads them.
    const [uid, gid = uid] = options.owner.split(':').map(Number);
    for (const file of readdirSync(secretsDir)) chownSync(join(secretsDir, file), uid!, gid!);
    chownSync(secretsDir, uid!, gid!);
  }
  return result;
}

/** `NAME=value` lines; comments and blank lines are not settings. */
function readEnv(text: string): Record<string, string> {
  const entries = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#') && line.includes('='))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);
  return Object.fromEntries(entries);
}

/** `quire-secrets` (the keys the manifests in infra/k8s read) and `quire-service-identity`. */
function kubernetesSecrets(env: Record<string, string>, secretsDir: string, postgresUrl: string): string {
  const secrets = {
    ...Object.fromEntries(DATABASES.map((s) => [`${s}-database-url`, databaseUrlDefault(s, postgresUrl)])),
    'visitor-claims-secret': env.QUIRE_VISITOR_CLAIMS_SECRET,
    'secrets-key': env.QUIRE_SECRETS_KEY,
    'link-secret': env.QUIRE_LINK_SECRET,
    'bootstrap-token': env.QUIRE_BOOTSTRAP_TOKEN,
    'bootstrap-password': env.QUIRE_BOOTSTRAP_PASSWORD,
  };
  const identity = Object.fromEntries([
    ...SERVICE_IDENTITIES.map((name) => [`${name}.key`, readFileSync(join(secretsDir, `${name}.key`), 'utf8')]),
    ['trust.json', readFileSync(join(secretsDir, 'trust.json'), 'utf8')],
  ]);
  const secret = (name: string, stringData: Record<string, string | undefined>) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, type: 'Opaque', stringData });
  return [secret('quire-secrets', secrets), secret('quire-service-identity', identity)].map((doc) => stringify(doc)).join('---\n');
}

/** `quire init` on the CLI's parser. */
export function initCommand(program: Command, defaultDir: string): void {
  program
    .command('init')
    .description("make a deployment's secrets: service keys, sealing and link keys, the first admin's password (for compose and Kubernetes)")
    .option('--dir <dir>', 'where infra/docker-compose.yml is: secrets/ and .env are written there', defaultDir)
    .option('--postgres-url <url>', 'the PostgreSQL server the Kubernetes Secret names (postgresql://USER:PASS@HOST:5432)')
    .option('--force', 'replace every existing secret (sealed values, links and sessions stop working)')
    .option(
      '--owner <uid[:gid]>',
      "owner of the key files: the containers' user (the images run as 1000), by default when run as root",
      process.getuid?.() === 0 ? '1000:1000' : undefined,
    )
    .action((opts: { dir: string; postgresUrl?: string; force?: boolean; owner?: string }) => {
      if (opts.owner && !/^\d+(:\d+)?$/.test(opts.owner)) throw new Error(`--owner: a numeric uid or uid:gid, got ${opts.owner}`);
      const dir = resolve(opts.dir);
      mkdirSync(dir, { recursive: true });
      const result = initDeployment(dir, opts);
      const lines = [
        ...result.made.map((f) => `made  ${join(dir, f)}`),
        ...result.kept.map((f) => `kept  ${join(dir, f)} (--force replaces it)`),
        '',
        result.adminPassword
          ? `The first start creates ${BOOTSTRAP_EMAIL}; sign in with the password ${result.adminPassword}\n(also QUIRE_BOOTSTRAP_PASSWORD in ${join(dir, '.env')}; change it after signing in).`
          : `The first administrator is ${BOOTSTRAP_EMAIL}; the password is QUIRE_BOOTSTRAP_PASSWORD in ${join(dir, '.env')}.`,
        `Kubernetes: kubectl apply -f ${join(dir, 'secrets/k8s-secrets.yaml')}`,
      ];
      process.stdout.write(lines.join('\n') + '\n');
    });
}
