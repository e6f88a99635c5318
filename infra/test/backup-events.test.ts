import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventRows } from '@quire/insights/events';
import { toMessages } from '@quire/insights/publisher';
import { openStore, type Store } from '@quire/insights/store';
import { afterAll, describe, expect, it } from 'vitest';
import { backup, restore, type BackupSources } from '../src/backup.ts';
import { clickhouseOverChdb } from './clickhouse-http.ts';

// The insights events of `quire backup` and `quire restore`, on a real ClickHouse engine (chdb,
// the embedded one) in the table insights makes: a restore replaces the events with the backup's,
// however often it runs. libchdb serves one data directory per process at a time: the tests run in
// order, each closing its engine before the next opens another.

const ORG = 'org-backup';
const SITE = 'site-backup';
const temp: string[] = [];
const tempDir = async (prefix: string) => {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  temp.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of temp) await rm(dir, { recursive: true, force: true });
});

const open = (chdbPath: string) => openStore({ chdbPath, clickhouseDatabase: 'default', retentionDays: 30 });

/** Stores `n` page views of visitors `<prefix>-<i>`, as insights' writer does. */
async function track(store: Store, prefix: string, n: number): Promise<void> {
  const events = Array.from({ length: n }, (_, i) => ({
    type: 'page_view',
    session: { visitorId: `${prefix}-${i}`, sessionId: `${prefix}-${i}`, cookies: {}, userAgent: 'test', language: 'en', referrer: null },
    location: { url: 'https://docs.example.com/', siteSection: null, siteSpace: null, siteShareKey: null, space: 'space-1', revision: 'rev-1', page: 'page-1' },
  }));
  const rows = eventRows(events, { organizationId: ORG, siteId: SITE, clientIp: '203.0.113.7', now: new Date(), fromReader: false });
  for (const m of toMessages(rows, `${prefix}-batch`, 1 << 20)) await store.insert(m.body, m.id);
}

describe('restore into a ClickHouse server (CLICKHOUSE_URL)', () => {
  it('replaces the events with the backup’s: those written since are gone, and a second restore adds nothing', async () => {
    const path = await tempDir('quire-ch-server-');
    const store = await open(path);
    const server = await clickhouseOverChdb(path);
    try {
      const stores: BackupSources = { databases: {}, clickhouseUrl: server.url, clickhouseDatabase: 'default' };
      await track(store, 'before', 5);
      const dir = join(await tempDir('quire-backup-'), 'b');
      expect(await backup(dir, stores)).toMatchObject({ insights: 'clickhouse' });
      await track(store, 'after', 3);
      expect(await store.count(ORG, SITE)).toBe(8);

      await restore(dir, stores);
      expect(await store.count(ORG, SITE)).toBe(5);
      await restore(dir, stores);
      expect(await store.count(ORG, SITE)).toBe(5);
      const visitors = await store.transport.query<{ v: string }>('SELECT visitor_id AS v FROM events ORDER BY v', {});
      expect(visitors.map((r) => r.v)).toEqual(['before-0', 'before-1', 'before-2', 'before-3', 'before-4']);
    } finally {
      await server.close();
      await store.close();
    }
  });
});

describe('restore into the embedded engine (INSIGHTS_CHDB_PATH)', () => {
  it('replaces the data directory with the backup’s, however often it runs', async () => {
    const path = await tempDir('quire-chdb-');
    const stores: BackupSources = { databases: {}, chdbPath: path };
    let store = await open(path);
    await track(store, 'before', 5);
    const dir = join(await tempDir('quire-backup-'), 'b');
    expect(await backup(dir, stores)).toMatchObject({ insights: 'chdb' });
    await track(store, 'after', 3);
    expect(await store.count(ORG, SITE)).toBe(8);
    for (let i = 0; i < 2; i++) {
      // Restored with insights stopped, then started again.
      await store.close();
      await restore(dir, stores);
      store = await open(path);
      expect(await store.count(ORG, SITE)).toBe(5);
    }
    await store.close();
  });
});

describe('restore into the other engine', () => {
  it('is refused before anything is restored, rather than leaving the events out', async () => {
    const manifest = async (insights: string) => {
      const dir = await tempDir('quire-backup-');
      await writeFile(join(dir, 'manifest.json'), JSON.stringify({ createdAt: new Date().toISOString(), databases: [], blobs: false, insights }));
      return dir;
    };
    await expect(restore(await manifest('clickhouse'), { databases: {}, chdbPath: '/nonexistent' })).rejects.toThrow(
      "the backup's insights events come from a ClickHouse server, and CLICKHOUSE_URL is not set: set it to the server to restore them into (nothing was restored)",
    );
    await expect(restore(await manifest('chdb'), { databases: {}, clickhouseUrl: 'http://127.0.0.1:1' })).rejects.toThrow(
      /embedded engine's directory, and CLICKHOUSE_URL names a server/,
    );
  });
});
