import type { Command } from 'commander';
import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { databaseUrlDefault } from '@quire/service-kit';

const run = promisify(execFile);

/** The services with a PostgreSQL database, each `quire_<service>` unless `<SERVICE>_DATABASE_URL` says otherwise. */
export const DATABASES = ['orgs', 'content', 'review', 'sites', 'integrations', 'git-sync'] as const;

export interface BackupSources {
  /** Database URL of each service. */
  databases: Record<string, string>;
  /** content's blob directory (CONTENT_BLOB_DIR); a bucket is backed up by its own tools. */
  blobDir?: string;
  /** insights' embedded engine directory (INSIGHTS_CHDB_PATH), when no ClickHouse server is used. */
  chdbPath?: string;
  /** A ClickHouse server (CLICKHOUSE_URL) whose `events` table is exported instead. */
  clickhouseUrl?: string;
  clickhouseDatabase?: string;
}

/** Where the stores are, from the same settings the services read. */
export function sourcesFromEnv(env: NodeJS.ProcessEnv = process.env): BackupSources {
  const databases = Object.fromEntries(DATABASES.map((s) => [s, env[`${s.toUpperCase().replace(/-/g, '_')}_DATABASE_URL`] || databaseUrlDefault(s, env.QUIRE_PG_URL)]));
  return {
    databases,
    blobDir: env.S3_BUCKET ? undefined : (env.CONTENT_BLOB_DIR ?? '.quire/blobs'),
    chdbPath: env.CLICKHOUSE_URL ? undefined : (env.INSIGHTS_CHDB_PATH ?? '.quire/insights-chdb'),
    clickhouseUrl: env.CLICKHOUSE_URL || undefined,
    clickhouseDatabase: env.CLICKHOUSE_DATABASE ?? 'default',
  };
}

interface Manifest {
  createdAt: string;
  databases: string[];
  blobs: boolean;
  insights: 'chdb' | 'clickhouse' | 'none';
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * Writes a backup to `out`: each database as a pg_dump custom archive (all dumped at once, each a
 * consistent snapshot of its database), then the blobs (after the dumps: blobs are written before
 * the rows naming them and never change, so every blob a dump names is in the copy), then the
 * insights data.
 */
export async function backup(out: string, sources: BackupSources): Promise<Manifest> {
  await mkdir(out, { recursive: true });
  await Promise.all(
    Object.entries(sources.databases).map(([service, url]) => run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${join(out, `${service}.dump`)}`, url])),
  );
  const blobs = !!sources.blobDir && (await exists(sources.blobDir));
  if (blobs) await cp(sources.blobDir!, join(out, 'blobs'), { recursive: true });
  let insights: Manifest['insights'] = 'none';
  if (sources.clickhouseUrl) {
    await writeFile(join(out, 'insights-events.native'), await clickhouse(sources.clickhouseUrl, sources.clickhouseDatabase!, 'SELECT * FROM events FORMAT Native'));
    insights = 'clickhouse';
  } else if (sources.chdbPath && (await exists(sources.chdbPath))) {
    // Parts of a MergeTree table are written whole and renamed into place: a copy taken while the
    // engine runs holds every part finished before it (stop insights for an exact copy).
    await cp(sources.chdbPath, join(out, 'insights-chdb'), { recursive: true });
    insights = 'chdb';
  }
  const manifest: Manifest = { createdAt: new Date().toISOString(), databases: Object.keys(sources.databases), blobs, insights };
  await writeFile(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

/**
 * Restores a backup into the stores `targets` names: each database is created when missing and
 * its objects replaced by the archive's; blobs are copied into the blob directory; the insights
 * events replace the engine's directory (insights stopped) or the server table's rows.
 */
export async function restore(dir: string, targets: BackupSources): Promise<Manifest> {
  const text = await readFile(join(dir, 'manifest.json'), 'utf8').catch(() => {
    throw new Error(`no backup at ${dir}: it has no manifest.json (quire backup writes one)`);
  });
  const manifest = JSON.parse(text) as Manifest;
  const mismatch = eventsMismatch(manifest, targets);
  if (mismatch) throw new Error(`${mismatch} (nothing was restored)`);
  await Promise.all(
    manifest.databases.map(async (service) => {
      const url = targets.databases[service];
      if (!url) throw new Error(`no database to restore ${service} into`);
      await createDatabaseIfMissing(url);
      await run('pg_restore', ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--single-transaction', `--dbname=${url}`, join(dir, `${service}.dump`)]);
    }),
  );
  if (manifest.blobs && targets.blobDir) await cp(join(dir, 'blobs'), targets.blobDir, { recursive: true });
  if (manifest.insights === 'chdb' && targets.chdbPath) {
    await rm(targets.chdbPath, { recursive: true, force: true });
    await cp(join(dir, 'insights-chdb'), targets.chdbPath, { recursive: true });
  } else if (manifest.insights === 'clickhouse' && targets.clickhouseUrl) {
    await replaceEvents(targets.clickhouseUrl, targets.clickhouseDatabase!, await readFile(join(dir, 'insights-events.native')));
  }
  return manifest;
}

/** Why the target cannot take the backup's insights events, if it cannot: refused up front rather than skipped. */
function eventsMismatch(manifest: Manifest, targets: BackupSources): string | undefined {
  if (manifest.insights === 'chdb' && !targets.chdbPath)
    return "the backup's insights events are the embedded engine's directory, and CLICKHOUSE_URL names a server: restore with CLICKHOUSE_URL unset (into INSIGHTS_CHDB_PATH)";
  if (manifest.insights === 'clickhouse' && !targets.clickhouseUrl)
    return "the backup's insights events come from a ClickHouse server, and CLICKHOUSE_URL is not set: set it to the server to restore them into";
  return undefined;
}

/**
 * The server's events become the backup's: the table emptied, then filled (an insert alone would
 * add the backup's rows to those already there, again on every restore). Deduplication is off for
 * the insert: a table that remembers the hashes of blocks inserted before (a replicated one keeps
 * them in Keeper) would otherwise drop identical ones.
 */
async function replaceEvents(url: string, database: string, native: Buffer): Promise<void> {
  await clickhouse(url, database, 'TRUNCATE TABLE events');
  await clickhouse(url, database, 'INSERT INTO events SETTINGS insert_deduplicate = 0 FORMAT Native', native);
}

async function createDatabaseIfMissing(url: string): Promise<void> {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.slice(1));
  u.pathname = '/postgres';
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

async function clickhouse(url: string, database: string, query: string, body?: Buffer): Promise<Buffer> {
  const u = new URL(url);
  u.searchParams.set('database', database);
  u.searchParams.set('query', query);
  // A copy typed as an ArrayBuffer view: programs with the DOM's fetch types refuse a Buffer body.
  const res = await fetch(u, { method: 'POST', body: body && new Uint8Array(body) });
  if (!res.ok) throw new Error(`ClickHouse answered ${res.status}: ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}

const summary = (m: Manifest) => `${m.databases.join(', ')}${m.blobs ? ', blobs' : ''}${m.insights !== 'none' ? `, insights (${m.insights})` : ''}`;

/** `quire backup --out DIR` and `quire restore DIR` on `program`, with the stores the environment names (sourcesFromEnv). */
export function backupCommands(program: Command): void {
  program
    .command('backup')
    .description('write every database (pg_dump), the blobs and the insights events to a new folder')
    .requiredOption('--out <dir>', 'the folder to write; it must not exist yet')
    .action(async (o: { out: string }) => {
      const m = await backup(resolve(o.out), sourcesFromEnv());
      process.stdout.write(`backed up ${summary(m)} to ${o.out}\n`);
    });
  program
    .command('restore')
    .description('replace every database, the blobs and the insights events with a backup (stop the stack first)')
    .argument('<dir>', 'a folder `quire backup` wrote')
    .action(async (dir: string) => {
      const m = await restore(resolve(dir), sourcesFromEnv());
      process.stdout.write(`restored ${summary(m)} from ${dir}\n`);
    });
}
