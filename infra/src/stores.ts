import { execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { connect } from 'nats';
import { databaseUrlDefault } from '@quire/service-kit';
import { STREAMS, ensureStream } from '@quire/service-kit/nats';
import { bootstrap, BOOTSTRAP_EMAIL } from '@quire/orgs/admin';
import { ensureDevKeys } from './dev-keys.ts';

// `pnpm dev` runs this first (turbo task @quire/infra#stores): PostgreSQL up with one database
// per service and its migrations applied, NATS with JetStream up with the streams, and on an
// empty orgs database a first admin, organization and token; the service identities' keys once.

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const stateDir = join(root, '.quire');
const pgUrl = process.env.QUIRE_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const say = (msg: string) => console.log(`[stores] ${msg}`);

async function pgAnswers(): Promise<boolean> {
  const c = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 1500 });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

async function waitFor(what: string, check: () => Promise<boolean>, seconds = 30) {
  for (let i = 0; i < seconds * 4; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not come up within ${seconds} s`);
}

/** The local server when one answers; else the Debian cluster; else embedded PostgreSQL in the background. */
async function ensurePostgres() {
  if (await pgAnswers()) return say(`PostgreSQL answers at ${new URL(pgUrl).host}`);
  const { hostname, port } = new URL(pgUrl);
  const localDefault = ['127.0.0.1', 'localhost'].includes(hostname) && (port || '5432') === '5432';
  if (localDefault && spawnSync('sh', ['-c', 'command -v pg_ctlcluster']).status === 0 && existsSync('/etc/postgresql')) {
    const version = readdirSync('/etc/postgresql')[0];
    say(`starting the local PostgreSQL ${version} cluster`);
    spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version!, 'main', 'start'], { stdio: 'inherit' });
  } else {
    say('no PostgreSQL answers: starting embedded PostgreSQL in the background (data in .quire/pg)');
    mkdirSync(stateDir, { recursive: true });
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./embedded-postgres.ts', import.meta.url))], {
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, QUIRE_STATE_DIR: stateDir, QUIRE_PG_URL: pgUrl },
    });
    child.unref();
  }
  await waitFor('PostgreSQL', pgAnswers, 60);
}

async function natsAnswers(): Promise<boolean> {
  try {
    const nc = await connect({ servers: natsUrl, timeout: 1500, reconnect: false });
    await nc.close();
    return true;
  } catch {
    return false;
  }
}

async function ensureNats() {
  if (!(await natsAnswers())) {
    if (spawnSync('sh', ['-c', 'command -v nats-server']).status !== 0) {
      throw new Error(`no NATS answers at ${natsUrl} and nats-server is not installed: install it (Debian: apt-get install nats-server) or set NATS_URL`);
    }
    const { hostname, port } = new URL(natsUrl);
    say('starting nats-server with JetStream in the background (data in .quire/nats)');
    mkdirSync(join(stateDir, 'nats'), { recursive: true });
    spawn('nats-server', ['-js', '-a', hostname, '-p', port || '4222', '-sd', join(stateDir, 'nats')], { detached: true, stdio: 'ignore' }).unref();
    await waitFor('NATS', natsAnswers);
  }
  if (upOnly) return say(`NATS answers at ${natsUrl}`);
  const nc = await connect({ servers: natsUrl });
  try {
    for (const stream of Object.values(STREAMS)) await ensureStream(nc, stream);
  } finally {
    await nc.close();
  }
  say(
    `NATS JetStream at ${natsUrl}: streams ${Object.values(STREAMS)
      .map((s) => s.name)
      .join(', ')}`,
  );
}

/** Every app with a Prisma schema gets its database and its migrations. */
async function migrateServices() {
  const appsDir = join(root, 'apps');
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  try {
    for (const app of readdirSync(appsDir).filter((a) => existsSync(join(appsDir, a, 'prisma', 'schema.prisma')))) {
      const url = process.env[`${app.toUpperCase().replace(/-/g, '_')}_DATABASE_URL`] ?? databaseUrlDefault(app, pgUrl);
      const name = new URL(url).pathname.slice(1);
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${name}"`);
      await run('pnpm', ['exec', 'prisma', 'migrate', 'deploy'], { cwd: join(appsDir, app), env: { ...process.env, DATABASE_URL: url } });
      say(`${app}: database ${name} migrated`);
    }
  } finally {
    await admin.end();
  }
}

/**
 * On an empty orgs database: the first admin (with a password to sign in with), an organization
 * and a token, kept in .quire/dev-token and .quire/dev-password (readable by this user only).
 */
async function bootstrapOrgs() {
  const { openStore } = await import('@quire/orgs/store');
  const { store, close } = openStore(process.env.ORGS_DATABASE_URL ?? databaseUrlDefault('orgs', pgUrl), 2);
  const tokenFile = join(stateDir, 'dev-token');
  const passwordFile = join(stateDir, 'dev-password');
  try {
    const token = process.env.QUIRE_BOOTSTRAP_TOKEN ?? `qt_${randomBytes(32).toString('base64url')}`;
    const password = process.env.QUIRE_BOOTSTRAP_PASSWORD ?? randomBytes(15).toString('base64url');
    if (await bootstrap(store, token, password)) {
      mkdirSync(stateDir, { recursive: true });
      writeFileSync(tokenFile, token + '\n', { mode: 0o600 });
      writeFileSync(passwordFile, password + '\n', { mode: 0o600 });
      say(`created ${BOOTSTRAP_EMAIL}, an organization and a token (saved in .quire/dev-token): ${token}`);
    } else if (existsSync(tokenFile)) {
      say(`dev token (from .quire/dev-token): ${readFileSync(tokenFile, 'utf8').trim()}`);
    } else {
      say('the orgs database has organizations already; make a token with `pnpm quire token create --email <email>`');
    }
    if (existsSync(passwordFile)) {
      say(`sign in at POST /auth/sign-in as ${BOOTSTRAP_EMAIL} with the password in .quire/dev-password; more users: pnpm quire user create --email E --name N --password P`);
    }
  } finally {
    await close();
  }
}

// `--up`: only make sure PostgreSQL and NATS answer (what the tests need; they make their own databases).
const upOnly = process.argv.includes('--up');

try {
  await ensurePostgres();
  if (!upOnly) await migrateServices();
  await ensureNats();
  if (!upOnly) await bootstrapOrgs();
  if (!upOnly) say(ensureDevKeys(stateDir));
} catch (err) {
  console.error(`[stores] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
