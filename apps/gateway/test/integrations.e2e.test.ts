import type { AddressInfo } from 'node:net';
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { describe, expect, vi } from 'vitest';
import { Role } from '@quire/policy';
import type { TestUser } from '@quire/orgs/testing';
import { expectError, startGateway, type Gateway } from './harness.ts';
import { test as base, tenant, type Tenant } from './fixtures.ts';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]).toString('base64');

/**
 * A tenant with an editor, and helpers for its integrations. Integration names are one namespace
 * for every organization, and the list shows every public one: a test's names end in its
 * organization's id (`named`), and `names` answers the names of the test's own integrations.
 */
function integrationsOrg(g: Gateway, t: Tenant<'editor'>) {
  const { owner, orgId } = t;
  // Hex: no search for a word (such as "git") finds it.
  const suffix = `-${Buffer.from(orgId).toString('hex')}`;
  const named = (name: string) => `${name}${suffix}`;
  const mine = <T extends { name: string }>(items: T[]) => items.filter((i) => i.name.endsWith(suffix));
  const body = (over: Record<string, unknown> = {}) => ({
    organization: orgId,
    title: 'Video embeds',
    description: 'Embeds videos in pages',
    script: 'export default () => {}',
    ...over,
  });
  return {
    ...t,
    named,
    body,
    url: (name: string) => `/v1/integrations/${named(name)}`,
    publish: (name: string, over: Record<string, unknown> = {}, as: TestUser = owner) => g.call(as, 'POST', `/v1/integrations/${named(name)}`, body(over)),
    mine,
    names: async (query: string, as: TestUser = owner) => {
      const res = await g.call(as, 'GET', `/v1/integrations${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return mine(res.json().items as { name: string }[]).map((i) => i.name.slice(0, -suffix.length));
    },
  };
}

type Org = ReturnType<typeof integrationsOrg>;

const test = base.extend<{ org: Org; catalog: Org; endpoint: string }>({
  org: async ({ g }, use) => use(integrationsOrg(g, await tenant(g, { editor: Role.ROLE_EDIT }))),
  // What the list filters tell apart: a public integration with blocks, a private one, one with
  // content sources, and one of the outsider's organization.
  catalog: async ({ org }, use) => {
    const { publish, outsider, otherOrgId } = org;
    for (const res of [
      await publish('video', { blocks: [{ id: 'embed', title: 'Embed', urlUnfurl: ['https://www.youtube.com/watch*'], markdown: { codeblock: 'video', body: 'url' } }] }),
      await publish('private-one', { visibility: 'private' }),
      await publish('sourced', {
        title: 'Git sources',
        categories: ['gitsync'],
        target: 'site',
        contentSources: [{ id: 's', title: 'Source', configuration: { componentId: 'c' } }],
      }),
      await publish('outside-public', { organization: otherOrgId, title: 'Outside', target: 'space', scopes: ['site:views:read'] }, outsider),
    ])
      expect(res.statusCode, res.body).toBe(200);
    await use(org);
  },
  // Its own gateway: the official client needs one listening on a port, and the shared one may be already.
  endpoint: [
    async ({}, use) => {
      const g = await startGateway();
      await g.app.listen({ host: '127.0.0.1', port: 0 });
      await use(`http://127.0.0.1:${(g.app.server.address() as AddressInfo).port}`);
      await g.stop();
    },
    { scope: 'file' },
  ],
});

describe('publish', () => {
  test('publishes with the defaults and embeds the owner organization', async ({ org: { orgId, named, url, publish } }) => {
    const res = await publish('video', {
      icon: PNG,
      previewImages: [PNG],
      summary: '## Videos',
      categories: ['content'],
      scopes: ['space:content:read'],
      blocks: [{ id: 'embed', title: 'Embed', urlUnfurl: ['https://www.youtube.com/watch*'], markdown: { codeblock: 'video', body: 'url' } }],
      externalLinks: [{ url: 'https://video.example/docs', label: 'Docs' }],
      configurations: { space: { properties: { channel: { type: 'string', title: 'Channel' } }, required: ['channel'] } },
      contentSecurityPolicy: { 'script-src': "'self'" },
      secrets: { API_KEY: 'very-secret-value' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const integration = res.json();
    expect(integration).toMatchObject({
      object: 'integration',
      name: named('video'),
      version: 1,
      title: 'Video embeds',
      summary: '## Videos',
      target: 'all',
      visibility: 'public',
      verified: false,
      scopes: ['space:content:read'],
      categories: ['content'],
      previewImages: [`data:image/png;base64,${PNG}`],
      blocks: [{ id: 'embed', title: 'Embed', urlUnfurl: ['https://www.youtube.com/watch*'], markdown: { codeblock: 'video', body: 'url' } }],
      externalLinks: [{ url: 'https://video.example/docs', label: 'Docs' }],
      configurations: { space: { properties: { channel: { type: 'string', title: 'Channel' } }, required: ['channel'] } },
      contentSecurityPolicy: { 'script-src': "'self'" },
      owner: { object: 'organization', id: orgId, permissions: { admin: true } },
      permissions: { admin: true, install: true },
      urls: {
        location: `http://127.0.0.1:8080${url('video')}`,
        icon: `data:image/png;base64,${PNG}`,
        app: `http://127.0.0.1:8080/integrations/${named('video')}`,
        assets: expect.any(String),
        publicEndpoint: expect.any(String),
      },
    });
    expect(res.body).not.toContain('very-secret-value');
    expect(integration).not.toHaveProperty('secrets');
    expect(integration).not.toHaveProperty('script');
  });

  test('bumps the version when the owner republishes, and keeps a string content security policy', async ({ org: { publish } }) => {
    await publish('bump');
    const res = await publish('bump', { title: 'Bumped', runtime: 'v2', contentSecurityPolicy: "default-src 'self'" });
    expect(res.json()).toMatchObject({ version: 2, title: 'Bumped', contentSecurityPolicy: "default-src 'self'" });
  });

  test('answers 409 for a name another organization owns, and changes nothing', async ({ g, org: { owner, outsider, orgId, otherOrgId, named, url, publish } }) => {
    await publish('owned');
    expectError(await publish('owned', { organization: otherOrgId, title: 'Hijacked' }, outsider), 409, new RegExp(`name: "${named('owned')}"`));
    expect((await g.call(owner, 'GET', url('owned'))).json()).toMatchObject({ version: 1, title: 'Video embeds', owner: { id: orgId } });
  });

  test('answers 403 to a non-admin member, 404 to an outsider and 401 without a token, publishing nothing', async ({
    g,
    org: { owner, editor, outsider, orgId, body, url, publish },
  }) => {
    expectError(await publish('by-editor', {}, editor), 403, /organization/);
    expectError(await publish('by-outsider', {}, outsider), 404, new RegExp(`organization: "${orgId}" not found`));
    expectError(await publish('by-nobody', { organization: 'no-such-org' }), 404, /organization: "no-such-org" not found/);
    expectError(await g.call(null, 'POST', url('anonymous'), body()), 401);
    for (const name of ['by-editor', 'by-outsider', 'by-nobody', 'anonymous']) expectError(await g.call(owner, 'GET', url(name)), 404);
  });

  test('refuses every bound and malformed value with 400 naming the field, and changes nothing', async ({ g, org: { owner, url, publish } }) => {
    await publish('bounded');
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ title: 'x' }, /title/],
      [{ title: 'x'.repeat(31) }, /title/],
      [{ description: 'x'.repeat(101) }, /description/],
      [{ summary: 'x'.repeat(2049) }, /summary/],
      [{ previewImages: [PNG, PNG, PNG, PNG] }, /previewImages/],
      [{ previewImages: [PNG, 'not*base64'] }, /^previewImages\[1\]: must be base64/],
      [{ icon: 'abc' }, /^icon: must be base64/],
      [{ script: '' }, /script/],
      [{ script: undefined }, /script/],
      [{ organization: undefined }, /organization/],
      [{ runtime: 'v9' }, /runtime/],
      [{ visibility: 'secret' }, /visibility/],
      [{ target: 'page' }, /target/],
      [{ scopes: ['space:everything'] }, /scopes/],
      [{ categories: ['games'] }, /categories/],
      [{ blocks: [{ id: 'b', title: 'B' }] }, /blocks/],
      [{ externalLinks: Array.from({ length: 6 }, () => ({ url: 'https://x.example', label: 'x' })) }, /externalLinks/],
      [{ configurations: { page: { properties: {} } } }, /configurations/],
      [{ configurations: { space: { title: 'no schema' } } }, /configurations\.space/],
      [{ secrets: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`K${i}`, 'v'])) }, /secrets/],
      [{ title: 12 }, /title/],
    ];
    for (const [over, message] of cases) expectError(await publish('bounded', { ...over, description: over.description ?? 'changed' }), 400, message);
    expectError(await publish('x'.repeat(101)), 400, /integrationName/);
    expectError(await publish('bad%20name'), 400, /integrationName/);
    expectError(await publish('bad*name'), 400, /integrationName/);
    expect((await g.call(owner, 'GET', url('bounded'))).json()).toMatchObject({ version: 1, description: 'Embeds videos in pages' });
  });
});

describe('get', () => {
  test('shows public integrations to anyone, private ones to members of the owner only', async ({ g, org: { editor, outsider, orgId, named, url, publish } }) => {
    await publish('video');
    await publish('private-one', { visibility: 'private' });
    const asOutsider = await g.call(outsider, 'GET', url('video'));
    expect(asOutsider.statusCode).toBe(200);
    expect(asOutsider.json()).toMatchObject({ permissions: { admin: false, install: true }, owner: { id: orgId, permissions: { admin: false } } });
    expect((await g.call(editor, 'GET', url('private-one'))).json()).toMatchObject({ visibility: 'private', permissions: { admin: false } });
    expectError(await g.call(outsider, 'GET', url('private-one')), 404, new RegExp(`Integration "${named('private-one')}" not found`));
  });

  test('answers 404 for unknown names, 400 for names off the pattern, 401 without a token', async ({ g, org: { owner } }) => {
    expectError(await g.call(owner, 'GET', '/v1/integrations/missing'), 404, /missing/);
    expectError(await g.call(owner, 'GET', '/v1/integrations/bad%20name'), 400, /integrationName/);
    expectError(await g.call(owner, 'GET', `/v1/integrations/${'x'.repeat(101)}`), 400, /integrationName/);
    expectError(await g.call(null, 'GET', '/v1/integrations/video'), 401);
  });
});

describe('list', () => {
  test('applies each filter', async ({ catalog: { editor, orgId, otherOrgId, names } }) => {
    expect(await names('?search=GIT')).toEqual(['sourced']);
    expect(await names('?category=gitsync')).toEqual(['sourced']);
    expect(await names('?blockDomain=youtube.com')).toEqual(['video']);
    expect(await names('?blocks=true')).toEqual(['video']);
    expect(await names('?blocks=false')).not.toContain('video');
    expect(await names('?contentSources=true')).toEqual(['sourced']);
    expect(await names(`?owner=${otherOrgId}`)).toEqual(['outside-public']);
    expect(await names('?scope=site:views:read')).toEqual(['outside-public']);
    const site = await names('?target=site');
    expect(site).toContain('sourced');
    expect(site).toContain('video');
    expect(site).not.toContain('outside-public');
    expect(await names('')).not.toContain('private-one');
    expect(await names(`?owner=${orgId}`, editor)).toContain('private-one');
  });

  test('fetches the owners with one orgs call per request, and pages', async ({ g, catalog: { owner, orgId, otherOrgId, mine } }) => {
    const spy = vi.spyOn(g.services.orgs, 'batchGetOrganizations');
    const res = await g.call(owner, 'GET', '/v1/integrations');
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    const all = res.json();
    expect(new Set(mine(all.items as { name: string; owner: { id: string } }[]).map((i) => i.owner.id))).toEqual(new Set([orgId, otherOrgId]));
    expect(all.count).toBe(all.items.length);
    const page1 = (await g.call(owner, 'GET', '/v1/integrations?limit=2')).json();
    expect(page1.count).toBe(2);
    const page2 = (await g.call(owner, 'GET', `/v1/integrations?limit=2&page=${page1.next.page}`)).json();
    expect(page2.items[0].name > page1.items[1].name).toBe(true);
  });

  test('refuses bad queries with 400 and no token with 401', async ({ g, org: { owner } }) => {
    expectError(await g.call(owner, 'GET', '/v1/integrations?limit=1001'), 400, /limit/);
    expectError(await g.call(owner, 'GET', '/v1/integrations?page=garbage!'), 400, /page/);
    expectError(await g.call(owner, 'GET', '/v1/integrations?category=games'), 400, /category/);
    expectError(await g.call(owner, 'GET', '/v1/integrations?scope=nope'), 400, /scope/);
    expectError(await g.call(owner, 'GET', '/v1/integrations?target=page'), 400, /target/);
    expectError(await g.call(owner, 'GET', '/v1/integrations?blockDomain=a/b'), 400, /blockDomain/);
    expectError(await g.call(owner, 'GET', `/v1/integrations?blockDomain=${'a'.repeat(101)}`), 400, /blockDomain/);
    expectError(await g.call(owner, 'GET', '/v1/integrations?blocks=maybe'), 400, /blocks/);
    expectError(await g.call(null, 'GET', '/v1/integrations'), 401);
  });
});

describe('unpublish', () => {
  test('lets only admins of the owner unpublish: 403 for others, 404 where private or unknown, 401 without a token', async ({
    g,
    org: { owner, editor, outsider, url, publish },
  }) => {
    await publish('doomed');
    await publish('private-one', { visibility: 'private' });
    expectError(await g.call(editor, 'DELETE', url('doomed')), 403);
    expectError(await g.call(outsider, 'DELETE', url('doomed')), 403);
    expectError(await g.call(outsider, 'DELETE', url('private-one')), 404);
    expectError(await g.call(null, 'DELETE', url('doomed')), 401);
    expectError(await g.call(owner, 'DELETE', '/v1/integrations/bad%20name'), 400, /integrationName/);
    expect((await g.call(owner, 'GET', url('doomed'))).statusCode).toBe(200);
    const res = await g.call(owner, 'DELETE', url('doomed'));
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expectError(await g.call(owner, 'GET', url('doomed')), 404);
    expectError(await g.call(owner, 'DELETE', url('doomed')), 404);
  });
});

describe('@gitbook/api 0.130.0', () => {
  test('publishes, reads, lists and unpublishes through the official client', async ({ endpoint, org: { owner, orgId, named } }) => {
    const api = new GitBookAPI({ endpoint, authToken: owner.token });
    const { data: published } = await api.integrations.publishIntegration(named('via-client'), {
      organization: orgId,
      title: 'Via client',
      description: 'Published by @gitbook/api',
      script: 'export default {}',
      scopes: [],
    });
    expect(published).toMatchObject({ object: 'integration', name: named('via-client'), version: 1 });
    const { data: read } = await api.integrations.getIntegrationByName(named('via-client'));
    expect(read.owner.id).toBe(orgId);
    const { data: listed } = await api.integrations.listIntegrations({ search: named('via-client') });
    expect(listed.items.map((i) => i.name)).toEqual([named('via-client')]);
    await api.integrations.unpublishIntegration(named('via-client'));
    const err = await api.integrations.getIntegrationByName(named('via-client')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitBookAPIError);
    expect((err as GitBookAPIError).code).toBe(404);
  });
});
