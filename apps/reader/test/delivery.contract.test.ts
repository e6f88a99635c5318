import { gunzipSync } from 'node:zlib';
import { startMetricsServer } from '@quire/service-kit';
import { describe, expect } from 'vitest';
import { page } from './harness.ts';
import { test as it } from './published.ts';

// How a published site is delivered: its security headers, compression and metrics, the files for
// machines, search, its basename and custom hostname, and the page views insights counts.

describe('serving a public site', () => {
  it('sends the security headers on every answer, HSTS over HTTPS only', async ({ get, base }) => {
    for (const res of [await get(`${base}/`), await get('/nosuchorg/x/'), await get(`${base}/robots.txt`)]) {
      expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'SAMEORIGIN' });
      expect(res.headers['referrer-policy']).toBeDefined();
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    // No proxy is trusted (TRUST_PROXY unset): a client claiming HTTPS is not believed. Through a
    // trusted TLS proxy, HSTS is sent: proxy.contract.test.ts.
    expect((await get(`${base}/`, { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toBeUndefined();
  });

  it('counts its requests by route and status on the Prometheus side port', async ({ get, base }) => {
    await get(`${base}/`);
    await get('/nosuchorg/x/');
    const side = await startMetricsServer('127.0.0.1', 0);
    try {
      const text = await (await fetch(`http://127.0.0.1:${side.port}/metrics`)).text();
      expect(text).toMatch(/quire_http_request_duration_seconds_count\{method="GET",route="\/\*",status="200"\} [1-9]/);
      expect(text).toMatch(/quire_http_request_duration_seconds_count\{method="GET",route="\/\*",status="404"\} [1-9]/);
    } finally {
      await side.close();
    }
  });

  it('sends pages and assets gzipped to clients that take it, the same bytes once unzipped', async ({ get, base }) => {
    const plain = await get(`${base}/setup`);
    const zipped = await get(`${base}/setup`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('accept-encoding');
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body);
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect((await get(`${base}/setup`, { 'accept-encoding': 'gzip;q=0, identity' })).headers['content-encoding']).toBeUndefined();
    const css = plain.body.match(/href="(\/_reader\/[^"]+\.css)"/)![1]!;
    const asset = await get(css, { 'accept-encoding': 'gzip' });
    expect(asset.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(asset.rawPayload).toString()).toBe((await get(css)).body);
  });

  it('serves the machine files: robots, sitemap, page markdown, llms.txt and llms-full.txt', async ({ get, base }) => {
    const robots = await get(`${base}/robots.txt`);
    expect(robots.body).toContain(`Sitemap: http://127.0.0.1:8090${base}/sitemap.xml`);
    const sitemap = await get(`${base}/sitemap.xml`);
    expect(sitemap.headers['content-type']).toMatch(/application\/xml/);
    expect(sitemap.body).toContain(`<loc>http://127.0.0.1:8090${base}/setup/advanced</loc>`);
    expect(sitemap.body).not.toContain('/hidden<');
    const md = await get(`${base}/setup/advanced.md`);
    expect(md.headers['content-type']).toMatch(/text\/markdown/);
    expect(md.body).toBe('# Advanced\n\nDeep dive.');
    const llms = await get(`${base}/llms.txt`);
    expect(llms.body).toContain(`- [Advanced](http://127.0.0.1:8090${base}/setup/advanced.md)`);
    const full = await get(`${base}/llms-full.txt`);
    expect(full.body).toContain('Deep dive.');
    expect(full.body).toContain('# Introduction');
  });

  it('searches the site, as JSON for the dialog and as a page without JavaScript', async ({ get, base }) => {
    const json = await get(`${base}/~search?q=deep`, { accept: 'application/json' });
    expect(json.json().items).toEqual([expect.objectContaining({ title: 'Advanced', url: `${base}/setup/advanced` })]);
    const page = await get(`${base}/~search?q=deep`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<a href="${base}/setup/advanced">Advanced`);
    // A hidden page is not found, as it is not in the navigation.
    expect((await get(`${base}/~search?q=menu`, { accept: 'application/json' })).json()).toEqual({ items: [] });
  });

  it('answers at the site basename and at its custom hostname', async ({ orgId, get, api, publishedSite, spaceWith }) => {
    const spaceId2 = await spaceWith('Host', [page('Hello host', 'Hi.')]);
    const site = await publishedSite([spaceId2], { basename: 'handbook', hostname: 'docs.acme.test' });
    expect((await get(`/${orgId}/handbook/`)).body).toContain('<h1>Hello host</h1>');
    const byHost = await get('/hello-host', { host: 'docs.acme.test' });
    expect(byHost.statusCode).toBe(200);
    expect(byHost.body).toContain('<link rel="canonical" href="http://docs.acme.test/hello-host">');
    expect((await get('/', { host: 'unknown.acme.test' })).statusCode).toBe(404);
    const shown = await api('GET', `/sites/${site.id}`);
    expect(shown.urls.published).toBe('https://docs.acme.test');
  });
});

describe('insights', () => {
  it('sends page views with a visitor and a session, counted by insights', async ({ h, orgId, get, api, publishedSite, spaceWith }) => {
    const site = await publishedSite([await spaceWith('Counted', [page('Counted page', 'x')])]);
    const first = await get(`/${orgId}/${site.id}/`);
    const cookies = [first.headers['set-cookie']].flat().map((c) => c!.split(';')[0]!);
    expect(cookies.some((c) => c.startsWith('quire_vid='))).toBe(true);
    expect(cookies.some((c) => c.startsWith('quire_sid='))).toBe(true);
    await get(`/${orgId}/${site.id}/counted-page`, { cookie: cookies.join('; ') });
    await h.reader.flushInsights();
    const count = async () =>
      (await api('POST', `/sites/${site.id}/insights/events/aggregate`, { select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }], range: 'last24Hours' })).columns.map(
        (c: { values: number[] }) => c.values[0],
      );
    let seen: number[] = [];
    for (let i = 0; i < 100; i++) {
      seen = await count();
      if (seen[0]! >= 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toEqual([2, 1]);
  });
});
