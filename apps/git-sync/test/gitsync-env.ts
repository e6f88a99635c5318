import pg from 'pg';
import type { Page } from '@quire/proto/space-content';
import { startContent, type ContentHarness } from '@quire/content/testing';
import { connectDb, stopAll } from '@quire/service-kit/testing';
import { startOrgs, team, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { Role } from '@quire/proto/common';
import { afterAll, beforeAll } from 'vitest';
import { startGitServer } from './git-server.ts';
import { startGitSync, type GitSyncHarness } from './harness.ts';
import { gitSyncJobs } from './jobs.ts';

// One environment per test file (orgs, content, git-sync, two Git servers, one of them behind
// credentials, and a team), shared by the Git Sync contract tests: `useGitSyncEnv()` starts it
// before the file's tests, and the bindings below hold it while they run.
export let orgs: OrgsHarness;
export let content: ContentHarness;
export let gs: GitSyncHarness;
export let repos: Awaited<ReturnType<typeof startGitServer>>;
export let secured: Awaited<ReturnType<typeof startGitServer>>;
export let owner: TestUser, reader: TestUser, outsider: TestUser;
export let orgId: string;
export let contentDb: pg.Client;

export const CREDS = { username: 'alice', password: 'p@ss:word' };
export let jobs: ReturnType<typeof gitSyncJobs>;

export function useGitSyncEnv() {
  beforeAll(async () => {
    orgs = await startOrgs();
    content = await startContent(orgs.address);
    [gs, repos, secured] = await Promise.all([startGitSync(content.address), startGitServer(), startGitServer(CREDS)]);
    ({ owner, reader, outsider, orgId } = await team(orgs, { reader: Role.ROLE_READ }));
    jobs = gitSyncJobs(gs, content, owner, orgId);
    contentDb = await connectDb(content.databaseUrl);
  });
  afterAll(() => stopAll(contentDb, gs, repos, secured, content, orgs));
}

export const createSpace = () => jobs.createSpace();
export const revision = (...a: Parameters<typeof jobs.revision>) => jobs.revision(...a);
export const importRepo = (...a: Parameters<typeof jobs.importRepo>) => jobs.importRepo(...a);
export const exportRepo = (...a: Parameters<typeof jobs.exportRepo>) => jobs.exportRepo(...a);
export const info = (...a: Parameters<typeof jobs.info>) => jobs.info(...a);
export const run = (...a: Parameters<typeof jobs.run>) => jobs.run(...a);

export type Outline = { title: string; type: string; slug: string; pages?: Outline[] };
export const outline = (pages: Page[]): Outline[] => pages.map((p) => ({ title: p.title, type: p.type, slug: p.slug, ...(p.pages.length ? { pages: outline(p.pages) } : {}) }));
export const revisionsOf = async (spaceId: string) => Number((await contentDb.query('SELECT count(*) FROM "Revision" WHERE "spaceId" = $1', [spaceId])).rows[0].count);
