import { describe, expect } from 'vitest';
import { page } from './harness.ts';
import { test as it } from './published.ts';

// What a site's settings change of the published site: its customization, and its structure of
// sections and variants.

describe('customization', () => {
  it("shows the site's title, logo, accent colour and default theme, with a new ETag when they change, as the published view answers them", async ({
    orgId,
    get,
    api,
    publishedSite,
    spaceWith,
  }) => {
    const site = await publishedSite([await spaceWith('Styled', [page('Styled page', 'Hello.')])]);
    const url = `/${orgId}/${site.id}/styled-page`;
    const before = await get(url);
    expect(before.body).toContain('data-theme="light"');
    expect(before.body).toMatch(/<a class="brand" href="[^"]+">Acme Docs<\/a>/);
    const etag = before.headers.etag as string;

    await api('PATCH', `/sites/${site.id}/customization`, {
      title: 'Acme Handbook',
      header: { preset: 'default', links: [], logo: { light: 'https://cdn.example.com/logo.png', dark: 'https://cdn.example.com/logo-dark.png' } },
      styling: { ...(await api('GET', `/sites/${site.id}/customization`)).styling, primaryColor: { light: '#0A7D32', dark: '#0A7D32' } },
      themes: { default: 'dark', toggeable: false },
    });
    const after = await get(url, { 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(after.body).toContain('<title>Styled page | Acme Handbook</title>');
    expect(after.body).toContain(
      '<img class="logo-light" src="https://cdn.example.com/logo.png" alt=""><img class="logo-dark" src="https://cdn.example.com/logo-dark.png" alt="">Acme Handbook</a>',
    );
    expect(after.body).toContain(':root{--accent:#0a7d32}');
    expect(after.body).toContain('data-theme="dark" data-theme-fixed');
    expect(after.body).not.toContain('data-theme-toggle');

    const published = await api('GET', `/sites/${site.id}/published`);
    expect(published.customizations.site).toMatchObject({ title: 'Acme Handbook', themes: { default: 'dark', toggeable: false }, styling: { primaryColor: { light: '#0A7D32' } } });
    expect(published.customizations.site).toEqual(await api('GET', `/sites/${site.id}/customization`));
  });
});

describe('structure: sections, groups and variants', () => {
  it('shows sections as tabs and site-spaces as variants, default ones at the root', async ({ orgId, get, api, spaceWith }) => {
    const api1 = await spaceWith('API v1', [page('Endpoints', 'Version one.')]);
    const api2 = await spaceWith('API v2', [page('Endpoints', 'Version two.')]);
    const guideSpace = await spaceWith('Guides', [page('Start', 'Guides start.')]);
    const site = await api('POST', '/sites', { title: 'Sectioned', spaces: [guideSpace] }, 201);
    const section = await api('POST', `/sites/${site.id}/sections`, { spaceId: api1, title: 'API' }, 201);
    await api('POST', `/sites/${site.id}/site-spaces`, { spaceId: api2, sectionId: section.id }, 201);
    await api('POST', `/sites/${site.id}/publish`);
    const base = `/${orgId}/${site.id}`;
    const root = await get(`${base}/`);
    expect(root.statusCode, root.body).toBe(200);
    expect(root.body).toContain('<h1>Start</h1>');
    expect(root.body).toMatch(/<nav class="tabs" aria-label="Sections">.*>API<\/a>/);
    const apiPage = await get(`${base}/${section.path}`);
    expect(apiPage.body).toContain('Version one.');
    expect(apiPage.body).toMatch(/<details class="variants"><summary>API v1/);
    const v2 = apiPage.body.match(/<a href="([^"]+)">API v2<\/a>/)![1]!;
    const second = await get(`${v2}/endpoints`);
    expect(second.body).toContain('Version two.');
    expect((await get(`${base}/${section.path}/api-v1/endpoints`)).body).toContain('Version one.');
  });
});
