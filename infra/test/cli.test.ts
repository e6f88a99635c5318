import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrpcStatus } from '@quire/service-kit';
import { startOrgs } from '@quire/orgs/testing';
import { adminUrl, cloneTemplate, connectDb, migrateTemplate, testSuffix, type TestDatabase } from '@quire/service-kit/testing';
import { quire as run } from './quire.ts';

// `pnpm quire ...` as an operator runs it, against a fresh orgs database (ORGS_DATABASE_URL, as
// backup reads it); the passwords it sets are then checked by the real orgs service, as sign-in
// checks them.

let db: TestDatabase;
let orgs: Awaited<ReturnType<typeof startOrgs>>;

beforeAll(async () => {
  await migrateTemplate('orgs', fileURLToPath(new URL('../../apps/orgs', import.meta.url)));
  db = await cloneTemplate('orgs');
  orgs = await startOrgs({}, db.url);
});
afterAll(async () => {
  await orgs?.stop();
  await db?.drop();
});

/** `pnpm quire` on this file's orgs database. */
const quire = (args: string[], stdin?: string, env: NodeJS.ProcessEnv = {}) => run(args, stdin, { ORGS_DATABASE_URL: db.url, ...env });

const signIn = (email: string, password: string) => orgs.call(orgs.client.checkPassword, { email, password, client: { ip: '127.0.0.1', userAgent: 'cli-test' } });

// Each command starts pnpm and tsx: seconds on a busy machine.
describe('pnpm quire user', { timeout: 180_000 }, () => {
  it('create --password makes a user who signs in with it, and prints no hash', async () => {
    const res = await quire(['user', 'create', '--email', 'Ada@Example.com', '--name', 'Ada', '--password', 'a long passphrase', '--json']);
    expect(res, res.stderr).toMatchObject({ code: 0 });
    const user = JSON.parse(res.stdout);
    expect(user).toMatchObject({ id: expect.any(String), email: 'ada@example.com', displayName: 'Ada' });
    expect(res.stdout).not.toMatch(/argon2|passwordHash/);
    await expect(signIn('ada@example.com', 'a long passphrase')).resolves.toEqual({ userId: user.id });
    await expect(signIn('ada@example.com', 'another passphrase')).rejects.toMatchObject({ code: GrpcStatus.UNAUTHENTICATED });
  });

  it('set-password replaces the password, read from stdin with -', async () => {
    const res = await quire(['user', 'set-password', '--email', 'ada@example.com', '--password', '-'], 'a newer passphrase\n');
    expect(res, res.stderr).toMatchObject({ code: 0, stdout: 'password set for ada@example.com\n' });
    await expect(signIn('ada@example.com', 'a newer passphrase')).resolves.toMatchObject({ userId: expect.any(String) });
    await expect(signIn('ada@example.com', 'a long passphrase')).rejects.toMatchObject({ code: GrpcStatus.UNAUTHENTICATED });
  });

  it('refuses short and over-long passwords, unknown emails and a second account, naming the problem', async () => {
    const short = await quire(['user', 'create', '--email', 'bob@example.com', '--name', 'Bob', '--password', 'short']);
    expect(short).toMatchObject({ code: 1, stderr: expect.stringMatching(/^quire: password: must have at least 8 characters/) });
    const long = await quire(['user', 'set-password', '--email', 'ada@example.com', '--password', '-'], 'x'.repeat(257));
    expect(long).toMatchObject({ code: 1, stderr: expect.stringMatching(/password: must have at most 256 characters/) });
    await expect(signIn('ada@example.com', 'a newer passphrase')).resolves.toMatchObject({ userId: expect.any(String) });
    const unknown = await quire(['user', 'set-password', '--email', 'nobody@example.com', '--password', 'a long passphrase']);
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringMatching(/No user with email nobody@example.com/) });
    const twice = await quire(['user', 'create', '--email', 'ada@example.com', '--name', 'Ada again']);
    expect(twice).toMatchObject({ code: 1, stderr: expect.stringMatching(/exists/) });
    // Nothing half-written: bob was never made.
    expect(await orgs.store.findUserByEmail('bob@example.com')).toBeNull();
  });
});

describe('pnpm quire on one parser', { timeout: 180_000 }, () => {
  it('lists every command in --help, and each command prints its own usage', async () => {
    const all = await quire(['--help']);
    expect(all, all.stderr).toMatchObject({ code: 0 });
    for (const command of ['init', 'migrate', 'user', 'org', 'member', 'token', 'backup', 'restore', 'secrets']) expect(all.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    const restore = await quire(['restore', '--help']);
    expect(restore).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: quire restore \[options\] <dir>\n/) });
    const backup = await quire(['backup', '--help']);
    expect(backup).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: quire backup \[options\]\n/) });
    expect(backup.stdout).toContain('--out <dir>');
  });

  it('refuses a backup without its folder and a restore from a folder that holds no backup, naming them', async () => {
    expect(await quire(['backup'])).toMatchObject({ code: 1, stderr: expect.stringContaining("required option '--out <dir>' not specified") });
    expect(await quire(['restore'])).toMatchObject({ code: 1, stderr: expect.stringContaining("missing required argument 'dir'") });
    const missing = await quire(['restore', '/nonexistent/quire-backup']);
    expect(missing).toMatchObject({ code: 1, stderr: 'quire: no backup at /nonexistent/quire-backup: it has no manifest.json (quire backup writes one)\n' });
  });
});

describe('pnpm quire migrate', { timeout: 300_000 }, () => {
  it("applies a service's migrations to an empty database once, and names an unknown service", async () => {
    const name = `quire_integrations_test_${testSuffix()}`;
    const server = await connectDb(adminUrl());
    await server.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl());
    url.pathname = `/${name}`;
    try {
      const env = { INTEGRATIONS_DATABASE_URL: url.toString() };
      const first = await quire(['migrate', 'integrations'], undefined, env);
      expect(first, first.stderr).toMatchObject({ code: 0, stdout: 'integrations: The following migration(s) have been applied\n' });
      const again = await quire(['migrate', 'integrations'], undefined, env);
      expect(again).toMatchObject({ code: 0, stdout: 'integrations: No pending migrations\n' });
      const db = await connectDb(url.toString());
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL`);
      await db.end();
      expect(rows[0].n).toBeGreaterThan(0);
      const unknown = await quire(['migrate', 'contnet']);
      expect(unknown).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('unknown service contnet (services with a database: orgs, content, review, sites, integrations, git-sync)'),
      });
    } finally {
      await server.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await server.end();
    }
  });
});
