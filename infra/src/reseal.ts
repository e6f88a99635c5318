import type { Command } from 'commander';
import pg from 'pg';
import { Type } from '@sinclair/typebox';
import { sealedColumns as integrations } from '@quire/integrations/sealed-columns';
import { sealedColumns as orgs } from '@quire/orgs/sealed-columns';
import { sealedColumns as sites } from '@quire/sites/sealed-columns';
import { loadConfig, makeKeyring, type Keyring } from '@quire/service-kit';
import { previousSecretsKeys, reseal, secretsKeyFields, type SealedColumn } from '@quire/service-kit/sealed';
import { sourcesFromEnv } from './backup.ts';

/**
 * Every database column of values sealed with QUIRE_SECRETS_KEY, by service, each as its service
 * declares it. git-sync reseals its webhooks' values itself when it starts; the credentials of its
 * queued jobs live minutes in NATS and open with the previous key while it stays configured.
 */
export const SEALED_COLUMNS: Record<string, readonly SealedColumn[]> = { orgs, sites, integrations };

export interface ResealCount {
  service: string;
  table: string;
  column: string;
  /** Rows sealed again with the current key. */
  resealed: number;
  /** Rows already sealed with it, left as they are. */
  current: number;
  /** Keys of the rows that no configured key opens, left as they are. */
  unreadable: string[];
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** One column's rows, opened with any key of `keys` and sealed again with the current one, in one transaction. */
async function resealColumn(client: pg.Client, service: string, { table, column, key, context }: SealedColumn, keys: Keyring): Promise<ResealCount> {
  const count: ResealCount = { service, table, column, resealed: 0, current: 0, unreadable: [] };
  await client.query('BEGIN');
  try {
    // Locked until the commit: a service writing one of these rows meanwhile waits, and its value stays.
    const { rows } = await client.query<{ key: string; sealed: Buffer }>(
      `SELECT ${ident(key)} AS key, ${ident(column)} AS sealed FROM ${ident(table)} WHERE ${ident(column)} IS NOT NULL FOR UPDATE`,
    );
    for (const row of rows) {
      let next: Buffer | undefined;
      try {
        next = reseal(row.sealed, context(row.key), keys);
      } catch {
        count.unreadable.push(row.key);
        continue;
      }
      if (!next) count.current++;
      else {
        await client.query(`UPDATE ${ident(table)} SET ${ident(column)} = $1 WHERE ${ident(key)} = $2`, [next, row.key]);
        count.resealed++;
      }
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  }
  return count;
}

/** Reseals every sealed column of the services' databases with the current key of `keys`. */
export async function resealAll(databases: Record<string, string>, keys: Keyring, columns = SEALED_COLUMNS): Promise<ResealCount[]> {
  const counts: ResealCount[] = [];
  for (const [service, sealed] of Object.entries(columns)) {
    const url = databases[service];
    if (!url) throw new Error(`no database for ${service}`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const column of sealed) counts.push(await resealColumn(client, service, column, keys));
    } finally {
      await client.end();
    }
  }
  return counts;
}

/** The keys from the environment (or their `_FILE`s), as the services read them; the current one is required. */
export function resealKeys(env: NodeJS.ProcessEnv = process.env): Keyring {
  const settings = loadConfig(Type.Object(secretsKeyFields), env);
  if (!settings.QUIRE_SECRETS_KEY)
    throw new Error('QUIRE_SECRETS_KEY is not set: it is the key every value is sealed again with (and QUIRE_SECRETS_KEY_PREVIOUS the keys that open them now)');
  return makeKeyring(Buffer.from(settings.QUIRE_SECRETS_KEY, 'base64'), previousSecretsKeys(settings));
}

const line = (c: ResealCount) =>
  `${c.service} ${c.table}.${c.column}: ${c.resealed} resealed, ${c.current} already current` +
  (c.unreadable.length ? `, ${c.unreadable.length} opened by no configured key (${c.unreadable.join(', ')})` : '');

/** `quire secrets reseal` on the CLI's parser. */
export function secretsCommands(program: Command): void {
  program
    .command('secrets')
    .description('values sealed with QUIRE_SECRETS_KEY')
    .command('reseal')
    .description(
      'seal every stored sealed value again with QUIRE_SECRETS_KEY, opening it with that key or one of QUIRE_SECRETS_KEY_PREVIOUS: run it once every replica seals with the new key, before the previous keys are removed',
    )
    .action(async () => {
      const counts = await resealAll(sourcesFromEnv().databases, resealKeys());
      for (const c of counts) process.stdout.write(`${line(c)}\n`);
      const unreadable = counts.reduce((n, c) => n + c.unreadable.length, 0);
      if (unreadable > 0) throw new Error(`${unreadable} sealed values open with none of the configured keys and were left as they are`);
    });
}
