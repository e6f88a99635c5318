import { createHmac, randomUUID } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gitIn, startGitServer } from '@quire/git-sync/testing';
import type { TestUser } from '@quire/orgs/testing';
import { TEST_PRIVATE_HOST } from '@quire/service-kit/testing';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Gateway } from './harness.ts';

// Repositories served over HTTP on the private test host, whose post-receive hook signs each push
// as GitHub does and sends it to the gateway's webhook URL: the push is the only trigger.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the API's JSON as they expect it
type Json = any;

export interface Sent {
  headers: Record<string, string>;
  body: string;
  status?: number;
  answer?: string;
}

export interface Hooked {
  spaceId: string;
  secret: string;
  url: string;
  /** The bare repository on disk. */
  bare: string;
  outbox: string;
  sent: () => Promise<Sent[]>;
}

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

/**
 * A file's Git server (started before its tests, stopped after): `hook` imports a new repository of
 * `files` into a space, sets its webhook up and installs the hook; `cloneOf` edits it as a writer.
 */
export function useHookedRepos() {
  let server: Awaited<ReturnType<typeof startGitServer>>;
  beforeAll(async () => {
    server = await startGitServer(undefined, TEST_PRIVATE_HOST);
  });
  afterAll(() => server.stop());

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

  async function hook(
    g: Gateway,
    owner: TestUser,
    spaceId: string,
    origin: string,
    files: Record<string, string>,
    firstWords: string,
  ): Promise<Hooked & { dispose(): Promise<void> }> {
    const name = `docs-${randomUUID()}`;
    const bare = await server.create(name, files);
    const url = server.url(name);
    expect((await g.call(owner, 'POST', `/v1/spaces/${spaceId}/git/import`, { url, ref: 'refs/heads/main' })).statusCode).toBe(204);
    await shows(g, owner, spaceId, firstWords);
    const res = await g.call(owner, 'POST', `/v1/spaces/${spaceId}/git/webhook`, { url, ref: 'refs/heads/main' });
    expect(res.statusCode, res.body).toBe(201);
    const hook = res.json();
    expect(hook).toEqual({ url: expect.stringMatching(new RegExp(`/v1/git/webhooks/${spaceId}$`)), secret: expect.stringMatching(/^[0-9a-f]{64}$/), ref: 'refs/heads/main' });
    const outbox = join(server.root, `${name}-outbox`);
    await mkdir(outbox);
    const hookFile = join(bare, 'hooks', 'post-receive');
    await writeFile(hookFile, hookScript(`${origin}/v1/git/webhooks/${spaceId}`, hook.secret, outbox));
    await chmod(hookFile, 0o755);
    const sent = async () =>
      Promise.all(
        (await readdir(outbox))
          .filter((f) => f.endsWith('.json'))
          .sort()
          .map(async (f) => JSON.parse(await readFile(join(outbox, f), 'utf8')) as Sent),
      );
    return { spaceId, secret: hook.secret, url, bare, outbox, sent, dispose: () => rm(outbox, { recursive: true, force: true }) };
  }

  return { cloneOf, hook, root: () => server.root };
}

/** Waits (100 ms steps, `within` ms at most) until the space's one page reads `text`: the time it took. */
export async function shows(g: Json, as: Json, spaceId: string, text: string, within = 30_000): Promise<number> {
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
export const deliver = (origin: string, spaceId: string, headers: Record<string, string>, body: string | Buffer) =>
  fetch(`${origin}/v1/git/webhooks/${spaceId}`, { method: 'POST', headers, body: typeof body === 'string' ? body : new Uint8Array(body) });

export const sign = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** The space's sync log, once its newest entry is no longer queued or running. */
export async function settledLog(g: Json, as: Json, spaceId: string): Promise<Json[]> {
  for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    const res = await g.call(as, 'GET', `/v1/spaces/${spaceId}/git/log`);
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items;
    if (!['queued', 'running'].includes(items[0]?.result)) return items;
  }
  throw new Error('the sync log did not settle');
}
