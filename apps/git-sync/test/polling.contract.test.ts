import { status } from '@grpc/grpc-js';
import type { CreateSpaceRequest, Space } from '@quire/proto/content';
import type { ImportRepositoryRequest, QueueJobResponse, SetWebhookRequest, SetWebhookResponse } from '@quire/proto/gitsync';
import { GIT_SYNC } from '@quire/proto/limits';
import { startContent, type ContentHarness } from '@quire/content/testing';
import { startOrgs, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { stopAll } from '@quire/service-kit/testing';
import { rejects } from '@quire/service-kit/testing/expect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitTo, startGitServer } from './git-server.ts';
import { startGitSync, type GitSyncHarness } from './harness.ts';

// Polling, for hosts that cannot reach Quire: a link that polls imports a new commit of its branch.

let orgs: OrgsHarness;
let content: ContentHarness;
let gitSync: GitSyncHarness;
let repos: Awaited<ReturnType<typeof startGitServer>>;
let owner: TestUser;
let orgId: string;

beforeAll(async () => {
  orgs = await startOrgs();
  content = await startContent(orgs.address);
  gitSync = await startGitSync(content.address, { workers: 1, pollTickMs: 250 });
  repos = await startGitServer();
  owner = await orgs.user('owner');
  orgId = (await orgs.organization(owner, [])).id;
});
afterAll(() => stopAll(repos, gitSync, content, orgs));

const repository = (url: string) => ({ url, ref: 'refs/heads/main', repoCacheId: '', repoTreeUrl: '', repoCommitUrl: '', repoProjectDirectory: '', force: false });
const setWebhook = (spaceId: string, url: string, pollSeconds: number) =>
  gitSync.call<SetWebhookRequest, SetWebhookResponse>(gitSync.client.setWebhook, { spaceId, repository: repository(url), pollSeconds }, owner.id);

/** The space's sync log once its newest entry is a done one of `trigger` (`within` ms at most). */
async function done(spaceId: string, trigger: string, within: number) {
  const over = (log: { trigger: string; result: string }[]) => log[0]?.trigger === trigger && log[0].result === 'done';
  let log = await gitSync.store.log(spaceId, { take: 10 });
  for (const end = Date.now() + within; Date.now() < end && !over(log); await new Promise((r) => setTimeout(r, 250))) log = await gitSync.store.log(spaceId, { take: 10 });
  return log;
}

describe('polling', () => {
  it('imports a new commit of the branch found by polling, once', async () => {
    const bare = await repos.create('polled', { 'README.md': '# Polled\n\nFirst.\n' });
    const spaceId = (
      await content.call<CreateSpaceRequest, Space>(content.client.createSpace, { organizationId: orgId, title: 'Docs', emoji: '', editMode: '', visibility: '' }, owner.id)
    ).id;
    await rejects(setWebhook(spaceId, repos.url('polled'), GIT_SYNC.pollSeconds.min - 1), status.INVALID_ARGUMENT, /pollSeconds: 0 \(no polling\) or from 10 to 86400/);
    await gitSync.call<ImportRepositoryRequest, QueueJobResponse>(
      gitSync.client.importRepository,
      { spaceId, repository: repository(repos.url('polled')), standalone: false },
      owner.id,
    );
    expect((await done(spaceId, 'api', 30_000))[0]).toMatchObject({ trigger: 'api', result: 'done' });
    await setWebhook(spaceId, repos.url('polled'), GIT_SYNC.pollSeconds.min);
    const head = await commitTo(bare, { 'README.md': '# Polled\n\nSecond.\n' }, 'Second');
    const log = await done(spaceId, 'poll', 3 * GIT_SYNC.pollSeconds.min * 1000);
    expect(log.map((e) => [e.trigger, e.result])).toEqual([
      ['poll', 'done'],
      ['api', 'done'],
    ]);
    expect(log[0]).toMatchObject({ provider: 'poll', commitOid: head, pagesChanged: 1, userId: owner.id });
    // Later polls find nothing new: no other job.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await gitSync.store.log(spaceId, { take: 10 })).toHaveLength(2);
  });
});
