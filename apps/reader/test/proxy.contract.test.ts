import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ok } from '@quire/gateway/testing';
import { API_NAME, SITES_NAME, send, startProxy } from '@quire/gateway/testing/proxy';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { QueuedEvent } from '../src/domain/insights-queue.ts';
import { page, spaceWith, startReader } from './harness.ts';

// The reader behind the example TLS proxy (infra/proxy/nginx.conf, run by the real nginx), which
// it trusts (TRUST_PROXY=127.0.0.1): page views count each visitor's own address, answers know
// they went out over HTTPS (HSTS, Secure cookies); and what a client writes in X-Forwarded-*
// headers, through the proxy or straight to the reader, changes none of that.

let h: Awaited<ReturnType<typeof startReader>>;
let proxy: Awaited<ReturnType<typeof startProxy>>;
let direct: string;
let sitePath: string;
/** The client address of each page view the reader queued for insights. */
const viewers: string[] = [];

const listen = async (app: FastifyInstance) => {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as AddressInfo).port;
};

beforeAll(async () => {
  h = await startReader({ TRUST_PROXY: '127.0.0.1', QUIRE_READER_URL: `https://${SITES_NAME}` });
  const [gateway, reader] = [await listen(h.g.app), await listen(h.reader.app)];
  direct = `http://127.0.0.1:${reader}`;
  proxy = await startProxy({ gateway, reader });
  const owner = await h.g.orgs.user('owner');
  const orgId = (await h.g.orgs.organization(owner, [])).id;
  const spaceId = await spaceWith(h.g, owner, orgId, 'Guide', [page('Welcome', 'Hello.')]);
  const site = await ok(h.g.call(owner, 'POST', `/v1/orgs/${orgId}/sites`, { title: 'Docs', spaces: [spaceId] }), 201);
  await ok(h.g.call(owner, 'POST', `/v1/orgs/${orgId}/sites/${site.id}/publish`));
  sitePath = `/${orgId}/${site.id}/`;
  const push = h.reader.insights.push.bind(h.reader.insights);
  vi.spyOn(h.reader.insights, 'push').mockImplementation((e: QueuedEvent) => {
    viewers.push(e.clientIp);
    return push(e);
  });
}, 120_000);
afterAll(async () => {
  await proxy?.stop();
  await h?.stop();
});

/** A page view from `from`; the client address the reader counted it for. */
async function view(from: string, url: string, headers: Record<string, string> = {}) {
  viewers.length = 0;
  const res = await send(from, url, { ca: proxy.ca, headers });
  expect(res.status, res.body).toBe(200);
  expect(viewers).toHaveLength(1);
  // Whether each cookie it set (the visitor's and the session's ids) is sent over HTTPS only.
  const secure = (res.headers['set-cookie'] ?? []).map((c) => /;\s*Secure/i.test(c));
  return { res, counted: viewers[0], secure };
}

describe('behind the example proxy', () => {
  it('passes each of its two names to its app, and sends plain HTTP on to HTTPS', async () => {
    const api = await proxy.send('127.0.0.2', proxy.url(API_NAME, '/v1/user'));
    expect(api.status).toBe(401);
    expect(JSON.parse(api.body)).toEqual({ error: { code: 401, message: expect.any(String) } });
    const sites = await proxy.send('127.0.0.2', proxy.url(SITES_NAME, sitePath));
    expect(sites.status).toBe(200);
    expect(sites.headers['content-type']).toMatch(/text\/html/);
    const plain = await send('127.0.0.2', `http://${SITES_NAME}:${proxy.ports.http}${sitePath}`);
    expect(plain.status).toBe(301);
    expect(plain.headers.location).toBe(`https://${SITES_NAME}${sitePath}`);
  });

  it('counts each visitor at its own address over HTTPS, whatever X-Forwarded-* the visitor sends', async () => {
    for (const [from, headers] of [
      ['127.0.0.2', {}],
      ['127.0.0.3', {}],
      // The proxy writes over these: the site is still found on its own name, the visitor is still 127.0.0.3.
      ['127.0.0.3', { 'x-forwarded-for': '1.2.3.4', 'x-forwarded-host': 'elsewhere.example', 'x-forwarded-proto': 'http' }],
    ] as const) {
      const { res, counted, secure } = await view(from, proxy.url(SITES_NAME, sitePath), headers);
      expect(counted).toBe(from);
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(secure).toEqual([true, true]);
    }
  });
});

describe('past the proxy', () => {
  it('believes no X-Forwarded-* header of a client that is not a trusted proxy', async () => {
    const forged = { 'x-forwarded-for': '1.2.3.4', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'elsewhere.example' };
    // Were the host believed, elsewhere.example would be a custom hostname without a site (404).
    const { res, counted, secure } = await view('127.0.0.4', `${direct}${sitePath}`, forged);
    expect(counted).toBe('127.0.0.4');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(secure).toEqual([false, false]);
  });
});
