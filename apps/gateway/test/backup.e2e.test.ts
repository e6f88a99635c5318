import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backup, restore, type BackupSources } from '@quire/infra/backup';
import { startContent } from '@quire/content/testing';
import { startOrgs } from '@quire/orgs/testing';
import type { ApplyChangesRequest, ApplyChangesResponse } from '@quire/proto/space-content';
import { adminUrl, testIdentity } from '@quire/service-kit/testing';
import pg from 'pg';
import { expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../src/app.ts';
import { connectServices } from '../src/clients.ts';
import { loadGatewayConfig } from '../src/config.ts';
import { ok, startGateway } from './harness.ts';

// `quire backup` of a stack with data, `quire restore` into fresh databases and a fresh blob
// directory, then a second orgs and content over the restored stores answer the same through a
// gateway: the token, the organization, the space, its page and the file's bytes.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEUlEQVR4nGP8z8DwnwEIGGEMAC/WAf7C9rEAAAAAAElFTkSuQmCC', 'base64');

/** Undone when the test finishes, last first; a step that fails is passed over. */
const cleanup = (step: () => Promise<unknown>) =>
  onTestFinished(async () => {
    await step().catch(() => undefined);
  });

const withDatabase = (name: string) => {
  const u = new URL(adminUrl());
  u.pathname = `/${name}`;
  return u.toString();
};
async function rows(url: string, sql: string): Promise<unknown[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return (await c.query(sql).finally(() => c.end())).rows;
}

it('restores every database and the blobs so that the services read back what was written', async () => {
  // Its own services: their databases are backed up and restored whole.
  const g = await startGateway({ QUIRE_PUBLIC_URL: 'http://quire.test' }, { own: true });
  cleanup(() => g.stop());
  const owner = await g.orgs.user('owner');
  const org = await g.orgs.organization(owner);
  const space = await ok(g.call(owner, 'POST', `/v1/orgs/${org.id}/spaces`, { title: 'Handbook' }), 201);
  const applied = await g.content.callContent<ApplyChangesRequest, ApplyChangesResponse>(
    g.content.spaceContent.applyChanges,
    {
      spaceId: space.id,
      revisionId: space.revision,
      changes: [
        { insertPage: { fields: { title: 'Intro' }, type: '', href: '', ref: 'intro', markdown: '# Welcome back' } },
        { insertFiles: { files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', data: PNG }] } },
      ],
    },
    owner.id,
  );
  await g.content.callContent(g.content.spaceContent.setSpaceRevision, { spaceId: space.id, revisionId: applied.revision!.id, expectedRevisionId: space.revision }, owner.id);
  const file = applied.insertedFiles[0]!;
  const spaceList = await ok(g.call(owner, 'GET', `/v1/orgs/${org.id}/spaces`));

  const sources: BackupSources = {
    databases: {
      orgs: g.orgs.databaseUrl,
      content: g.content.databaseUrl,
      review: g.review.databaseUrl,
      sites: g.sites.databaseUrl,
      integrations: g.integrations.databaseUrl,
      'git-sync': g.gitSync.databaseUrl,
    },
    blobDir: g.content.blobDir,
  };
  const dir = await mkdtemp(join(tmpdir(), 'quire-backup-'));
  cleanup(() => rm(dir, { recursive: true, force: true }));
  const manifest = await backup(dir, sources);
  expect(manifest).toMatchObject({ databases: ['orgs', 'content', 'review', 'sites', 'integrations', 'git-sync'], blobs: true });

  const suffix = randomBytes(4).toString('hex');
  const targets: BackupSources = {
    databases: Object.fromEntries(Object.keys(sources.databases).map((s) => [s, withDatabase(`quire_${s.replace('-', '_')}_restore_${suffix}`)])),
    blobDir: await mkdtemp(join(tmpdir(), 'quire-restored-blobs-')),
  };
  cleanup(() => rm(targets.blobDir!, { recursive: true, force: true }));
  for (const url of Object.values(targets.databases)) {
    cleanup(() => rows(adminUrl(), `DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`));
  }
  await restore(dir, targets);

  // Every table of every database holds the same rows as the original.
  for (const [service, url] of Object.entries(sources.databases)) {
    const tables = (await rows(url, `SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`)) as { tablename: string }[];
    for (const { tablename } of tables) {
      const count = `SELECT count(*)::int AS n FROM "${tablename}"`;
      expect(await rows(targets.databases[service]!, count), `${service}.${tablename}`).toEqual(await rows(url, count));
    }
  }

  // A second orgs and content over the restored stores, behind a gateway.
  const orgs = await startOrgs({}, targets.databases.orgs);
  cleanup(() => orgs.stop());
  const content = await startContent(orgs.address, { databaseUrl: targets.databases.content!, blobDir: targets.blobDir! });
  cleanup(() => content.stop());
  const config = loadGatewayConfig({
    ...g.config,
    ORGS_URL: orgs.address,
    CONTENT_URL: content.address,
    LOG_LEVEL: 'silent',
    QUIRE_PUBLIC_URL: 'http://quire.test',
  } as unknown as NodeJS.ProcessEnv);
  const services = connectServices(config, testIdentity('gateway'));
  const app = await buildApp(config, services);
  cleanup(async () => {
    await app.close();
    for (const c of services.channels) c.client.close();
  });
  const get = (url: string, token: string | null = owner.token) => app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

  expect(await ok(get(`/v1/orgs/${org.id}`))).toMatchObject({ id: org.id, title: org.title });
  expect(await ok(get(`/v1/orgs/${org.id}/spaces`))).toEqual(spaceList);
  const restoredSpace = await ok(get(`/v1/spaces/${space.id}`));
  expect(restoredSpace).toMatchObject({ id: space.id, title: 'Handbook', revision: applied.revision!.id });
  const pages = await ok(get(`/v1/spaces/${space.id}/content/pages`));
  const intro = pages.pages.find((p: { title: string }) => p.title === 'Intro');
  expect(await ok(get(`/v1/spaces/${space.id}/content/page/${intro.id}?format=markdown`))).toMatchObject({ markdown: expect.stringContaining('# Welcome back') });
  const { downloadURL } = await ok(get(`/v1/spaces/${space.id}/content/files/${file.id}`));
  const bytes = await get(downloadURL.replace('http://quire.test', ''), null);
  expect(bytes.statusCode).toBe(200);
  expect(Buffer.compare(bytes.rawPayload, PNG)).toBe(0);
}, 300_000);
