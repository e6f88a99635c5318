import { createHmac, randomUUID } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gitIn, startGitServer } from '@quire/git-sync/testing';
import { GIT_SYNC } from '@quire/proto/limits';
import { TEST_PRIVATE_HOST } from '@quire/service-kit/testing';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { expectError } from './harness.ts';
import { test } from './fixtures.ts';

// A repository served over HTTP on the private test host, whose post-receive hook signs each push
// as GitHub does and sends it to the gateway's webhook URL: the push is the only trigger.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the API's JSON as they expect it
type Json = any;

interface Sent {
  headers: Record<string, string>;
  body: string;
  status?: number;
  answer?: string;
}

let server: Awaited<ReturnType<typeof startGitServer>>;
beforeAll(async () => {
  server = await startGitServer(undefined, TEST_PRIVATE_HOST);
});
afterAll(() => server.stop());

/**
 * A post-receive hook that, for each ref pushed, writes the GitHub push event it makes (signed
 * with `secret`) into `outbox` and sends it to `url`, unless `outbox/hold` exists.
 */
const hookScript = (url: string, secret: string, outbox: string) => `#!/usr/bin/env node
const { createHmac, randomUUID } = require('node:crypto');
const fs = require('node:fs');
const [url, secret, outbox] = ${JSON.stringify([url, secret, outbox])};
(async () => {
  for (const line of fs.readFileSync(0, 'utf8').trim().split('\\n')) {
    const [before, after, ref] = line.split(' ');
    const body = JSON.stringify({ ref, before, after, repository: { full_name: 'acme/docs' }, pusher: { name: 'test' } });
    const headers = {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': 'sha256=' + createHmac('sha256', secret).update(body).digest('hex'),
    };
    const file = outbox + '/' + String(fs.readdirSync(outbox).length).padStart(3, '0') + '.json';
    const sent = { headers, body };
    if (!fs.existsSync(outbox + '/hold')) {
      const res = await fetch(url, { method: 'POST', headers, body });
      Object.assign(sent, { status: res.status, answer: await res.text() });
    }
    fs.writeFileSync(file, JSON.stringify(sent));
  }
})();
`;

/** A clone of `url` over HTTP where the test edits, commits and pushes as a writer would. */
async function cloneOf(url: string) {
  const work = join(server.root, `work-${randomUUID()}`);
  await gitIn(server.root, 'clone', '--quiet', '--branch', 'main', url, work);
  return {
    async push(files: Record<string, string>, branch = 'main') {
      for (const [path, text] of Object.entries(files)) await writeFile(join(work, path), text);
      await gitIn(work, 'add', '--all');
      await gitIn(work, 'commit', '--quiet', '-m', `Edit ${Object.keys(files).join(', ')}`);
      await gitIn(work, 'push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`);
      return (await gitIn(work, 'rev-parse', 'HEAD')).trim();
    },
  };
}

const it = test.extend<{ hooked: { spaceId: string; secret: string; url: string; outbox: string; sent: () => Promise<Sent[]> } }>({
  // The test's space imported from a new repository, its webhook set up and the hook installed.
  hooked: async ({ g, team: { owner }, space, origin }, use) => {
    const name = `docs-${randomUUID()}`;
    const bare = await server.create(name, { 'README.md': '# Handbook\n\nFirst words.\n', 'SUMMARY.md': '# Table of contents\n\n* [Handbook](README.md)\n' });
    const url = server.url(name);
    expect((await g.call(owner, 'POST', `/v1/spaces/${space.id}/git/import`, { url, ref: 'refs/heads/main' })).statusCode).toBe(204);
    await shows(g, owner, space.id, 'First words.');
    const res = await g.call(owner, 'POST', `/v1/spaces/${space.id}/git/webhook`, { url, ref: 'refs/heads/main' });
    expect(res.statusCode, res.body).toBe(201);
    const hook = res.json();
    expect(hook).toEqual({ url: expect.stringMatching(new RegExp(`/v1/git/webhooks/${space.id}$`)), secret: expect.stringMatching(/^[0-9a-f]{64}$/), ref: 'refs/heads/main' });
    const outbox = join(server.root, `${name}-outbox`);
    await mkdir(outbox);
    const hookFile = join(bare, 'hooks', 'post-receive');
    await writeFile(hookFile, hookScript(`${origin}/v1/git/webhooks/${space.id}`, hook.secret, outbox));
    await chmod(hookFile, 0o755);
    const sent = async () =>
      Promise.all(
        (await readdir(outbox))
          .filter((f) => f.endsWith('.json'))
          .sort()
          .map(async (f) => JSON.parse(await readFile(join(outbox, f), 'utf8')) as Sent),
      );
    await use({ spaceId: space.id, secret: hook.secret, url, outbox, sent });
    await rm(outbox, { recursive: true, force: true });
  },
});

/** Waits (100 ms steps, `within` ms at most) until the space's one page reads `text`: the time it took. */
async function shows(g: Json, as: Json, spaceId: string, text: string, within = 30_000): Promise<number> {
  const start = Date.now();
  let seen = '';
  while (Date.now() - start < within) {
    const [page] = (await g.call(as, 'GET', `/v1/spaces/${spaceId}/content`)).json().pages;
    // A new space has no page until its first import.
    seen = page ? (await g.call(as, 'GET', `/v1/spaces/${spaceId}/content/page/${page.id}?format=markdown`)).json().markdown : '';
    if (seen.includes(text)) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the space's page reads ${JSON.stringify(seen)}, not ${JSON.stringify(text)}`);
}

/** Sends a delivery to the gateway over HTTP as a Git host would. */
const deliver = (origin: string, spaceId: string, headers: Record<string, string>, body: string | Buffer) =>
  fetch(`${origin}/v1/git/webhooks/${spaceId}`, { method: 'POST', headers, body: typeof body === 'string' ? body : new Uint8Array(body) });

const sign = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** The space's sync log, once its newest entry is no longer queued or running. */
async function settledLog(g: Json, as: Json, spaceId: string): Promise<Json[]> {
  for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    const res = await g.call(as, 'GET', `/v1/spaces/${spaceId}/git/log`);
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items;
    if (!['queued', 'running'].includes(items[0]?.result)) return items;
  }
  throw new Error('the sync log did not settle');
}

describe('push webhooks', () => {
  it('a push imports its commit within 5 s; replays, forgeries and other branches import nothing; the log lists each', async ({ g, team: { owner }, origin, hooked }) => {
    const { spaceId } = hooked;
    const clone = await cloneOf(hooked.url);
    const pushStart = Date.now();
    const head = await clone.push({ 'README.md': '# Handbook\n\nSecond words.\n' });
    const pushMs = Date.now() - pushStart;
    const [push] = await hooked.sent();
    expect(push).toMatchObject({ status: 202, answer: JSON.stringify({ result: 'queued' }) });
    const tookMs = await shows(g, owner, spaceId, 'Second words.', 5000);
    expect(tookMs).toBeLessThan(5000);
    let log = await settledLog(g, owner, spaceId);
    expect(log[0]).toMatchObject({
      direction: 'import',
      trigger: 'webhook',
      user: owner.id,
      provider: 'github',
      deliveryId: push!.headers['x-github-delivery'],
      ref: 'refs/heads/main',
      commit: head,
      result: 'done',
      pagesChanged: 1,
      attempts: 1,
    });
    // The first import, a member's call, stays below it.
    expect(log[1]).toMatchObject({ direction: 'import', trigger: 'api', user: owner.id, result: 'done', pagesChanged: 1 });

    // The same delivery again: answered, nothing queued.
    const replay = await deliver(origin, spaceId, push!.headers, push!.body);
    expect(replay.status).toBe(202);
    expect(await replay.json()).toEqual({ result: 'ignored', reason: `delivery ${push!.headers['x-github-delivery']} was already received` });

    // A body changed after signing, a signature made with another secret, none at all: 401, nothing queued.
    const forgedBody = push!.body.replace(head, '0'.repeat(39) + '1');
    const fresh = (signature?: string) => ({ ...push!.headers, 'x-github-delivery': randomUUID(), 'x-hub-signature-256': signature ?? '' });
    for (const [headers, body] of [
      [fresh(push!.headers['x-hub-signature-256']), forgedBody],
      [fresh(sign('not-the-secret', push!.body)), push!.body],
      [fresh(), push!.body],
    ] as const) {
      const res = await deliver(origin, spaceId, headers, body);
      expect(res.status).toBe(401);
      expect((await res.json()).error.message).toMatch(/github webhook: the (signature does not match|delivery carries no signature)/);
    }

    // A push to another branch: the hook sends it, it is ignored.
    await clone.push({ 'README.md': '# Handbook\n\nDraft words.\n' }, 'draft');
    const [, draft] = await hooked.sent();
    expect(draft).toMatchObject({ status: 202 });
    expect(JSON.parse(draft!.answer!)).toEqual({ result: 'ignored', reason: 'a push to refs/heads/draft, not to refs/heads/main' });

    expect(await shows(g, owner, spaceId, 'Second words.')).toBeLessThan(1000);
    log = (await g.call(owner, 'GET', `/v1/spaces/${spaceId}/git/log`)).json().items;
    expect(log.map((e: Json) => [e.trigger, e.result])).toEqual([
      ['webhook', 'ignored'],
      ['webhook', 'rejected'],
      ['webhook', 'rejected'],
      ['webhook', 'rejected'],
      ['webhook', 'ignored'],
      ['webhook', 'done'],
      ['api', 'done'],
    ]);
    expect(log[0]).toMatchObject({ ref: 'refs/heads/draft', reason: 'a push to refs/heads/draft, not to refs/heads/main', pagesChanged: 0 });
    expect(log[1]).toMatchObject({ reason: 'the delivery carries no signature' });
    expect(log[2]).toMatchObject({ reason: 'the signature does not match the webhook secret' });
    expect(log[4]).toMatchObject({ deliveryId: push!.headers['x-github-delivery'], reason: expect.stringMatching(/already received/) });
    // Pages: the log's own pagination.
    const first = (await g.call(owner, 'GET', `/v1/spaces/${spaceId}/git/log?limit=4`)).json();
    expect(first.items).toEqual(log.slice(0, 4));
    const rest = (await g.call(owner, 'GET', `/v1/spaces/${spaceId}/git/log?limit=4&page=${first.next.page}`)).json();
    expect(rest.items).toEqual(log.slice(4));
    expect(rest.next).toBeUndefined();
    // The figures docs/operations.md quotes.
    console.log(`git push (its hook's delivery included): ${pushMs} ms; then the change in the content: ${tookMs} ms`);
  });

  it('pushes delivered out of order never move the space back to an older commit', async ({ g, team: { owner }, origin, hooked }) => {
    const { spaceId } = hooked;
    await writeFile(join(hooked.outbox, 'hold'), '');
    const clone = await cloneOf(hooked.url);
    const older = await clone.push({ 'README.md': '# Handbook\n\nOlder.\n' });
    const newer = await clone.push({ 'README.md': '# Handbook\n\nNewer.\n' });
    const [first, second] = await hooked.sent();
    expect(JSON.parse(second!.body).after).toBe(newer);
    expect((await deliver(origin, spaceId, second!.headers, second!.body)).status).toBe(202);
    await shows(g, owner, spaceId, 'Newer.');
    await settledLog(g, owner, spaceId);
    expect((await deliver(origin, spaceId, first!.headers, first!.body)).status).toBe(202);
    const log = await settledLog(g, owner, spaceId);
    expect(log[0]).toMatchObject({ commit: older, result: 'skipped', reason: `commit ${older} is older than ${newer}, the one last imported`, pagesChanged: 0 });
    expect(await shows(g, owner, spaceId, 'Newer.')).toBeLessThan(1000);
    // The same commit pushed again under a new delivery id (a host's manual redelivery): already queued.
    const again = await deliver(origin, spaceId, { ...second!.headers, 'x-github-delivery': randomUUID() }, second!.body);
    expect(await again.json()).toEqual({ result: 'ignored', reason: expect.stringMatching(new RegExp(`^commit ${newer} was already queued`)) });
  });

  it('setting the webhook up: admins only, a new secret each time; deliveries are bounded and verified by provider', async ({
    g,
    team: { owner, editor, outsider },
    origin,
    hooked,
  }) => {
    const { spaceId, url } = hooked;
    const path = `/v1/spaces/${spaceId}/git/webhook`;
    expectError(await g.call(editor, 'POST', path, { url, ref: 'refs/heads/main' }), 403, /webhook/);
    expectError(await g.call(outsider, 'POST', path, { url, ref: 'refs/heads/main' }), 404);
    expectError(await g.call(outsider, 'GET', `/v1/spaces/${spaceId}/git/log`), 404);
    expectError(await g.call(owner, 'POST', path, { url, ref: 'main' }), 400, /ref: must be a full Git ref/);
    expectError(await g.call(owner, 'POST', path, { url: 'ftp://example.com/r.git', ref: 'refs/heads/main' }), 400, /url/);
    expectError(await g.call(owner, 'GET', `/v1/spaces/${spaceId}/git/log?page=nope`), 400, /page/);

    // A new secret replaces the one the hook signs with: its deliveries are refused.
    const again = (await g.call(owner, 'POST', path, { url, ref: 'refs/heads/main' })).json();
    expect(again.secret).not.toBe(hooked.secret);
    const body = JSON.stringify({ ref: 'refs/heads/main', after: 'a'.repeat(40) });
    const github = (secret: string) => ({
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': sign(secret, body),
    });
    expect((await deliver(origin, spaceId, github(hooked.secret), body)).status).toBe(401);

    // GitLab's token, Gitea's and Bitbucket's signatures: a ping-like event is verified and ignored.
    const hex = (s: string) => createHmac('sha256', s).update(body).digest('hex');
    const gitlab = { 'content-type': 'application/json', 'x-gitlab-event': 'Tag Push Hook', 'x-gitlab-event-uuid': randomUUID() };
    expect((await deliver(origin, spaceId, { ...gitlab, 'x-gitlab-token': 'wrong' }, body)).status).toBe(401);
    expect(await (await deliver(origin, spaceId, { ...gitlab, 'x-gitlab-token': again.secret }, body)).json()).toEqual({
      result: 'ignored',
      reason: 'Tag Push Hook events import nothing',
    });
    const gitea = { 'content-type': 'application/json', 'x-gitea-event': 'create', 'x-gitea-delivery': randomUUID() };
    expect((await deliver(origin, spaceId, { ...gitea, 'x-gitea-signature': hex('wrong') }, body)).status).toBe(401);
    expect((await deliver(origin, spaceId, { ...gitea, 'x-gitea-signature': hex(again.secret) }, body)).status).toBe(202);
    const bitbucket = { 'content-type': 'application/json', 'x-event-key': 'repo:push', 'x-request-uuid': randomUUID(), 'x-hub-signature': `sha256=${hex(again.secret)}` };
    expect((await deliver(origin, spaceId, bitbucket, body)).status).toBe(400);

    // Bounds and shapes, before any verification: too big, no event header, unknown space.
    const huge = Buffer.alloc(GIT_SYNC.webhookBody.max + 1, 32);
    expect((await deliver(origin, spaceId, github(again.secret), huge)).status).toBe(413);
    expect((await deliver(origin, spaceId, { 'content-type': 'application/json' }, body)).status).toBe(400);
    expect((await deliver(origin, spaceId, { ...github(again.secret), 'content-type': 'text/plain' }, body)).status).toBe(415);
    expect((await deliver(origin, 'no-such-space', github(again.secret), body)).status).toBe(404);
  });
});
