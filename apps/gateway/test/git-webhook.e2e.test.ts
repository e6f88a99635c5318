import { createHmac, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GIT_SYNC } from '@quire/proto/limits';
import { describe, expect } from 'vitest';
import { deliver, settledLog, shows, sign, useHookedRepos, type Hooked } from './git-hooked.ts';
import { expectError } from './harness.ts';
import { test } from './fixtures.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the API's JSON as they expect it
type Json = any;

const { cloneOf, hook } = useHookedRepos();

const it = test.extend<{ hooked: Hooked }>({
  // The test's space imported from a new repository, its webhook set up and the hook installed.
  hooked: async ({ g, team: { owner }, space, origin }, use) => {
    const files = { 'README.md': '# Handbook\n\nFirst words.\n', 'SUMMARY.md': '# Table of contents\n\n* [Handbook](README.md)\n' };
    const { dispose, ...hooked } = await hook(g, owner, space.id, origin, files, 'First words.');
    await use(hooked);
    await dispose();
  },
});

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
    expect(log[0]).toMatchObject({ commit: older, result: 'skipped', reason: `commit ${older} is older than ${newer}, the one last synced`, pagesChanged: 0 });
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
