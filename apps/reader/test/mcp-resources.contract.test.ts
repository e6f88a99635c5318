import { ErrorCode, type McpError } from '@modelcontextprotocol/sdk/types.js';
import { SignJWT } from 'jose';
import { describe, expect } from 'vitest';
import { page } from './harness.ts';
import { call, connect, GUIDE, mcpOf, readText, refused, test } from './mcp-client.ts';

// A published site's pages as MCP resources (one each, at its `.md` URL), with the same access
// rules as the tools; and an assistant's calls counted apart from visitors' in the site's insights.

const RESOURCE_NOT_FOUND = -32002;

describe("a published site's pages as MCP resources", () => {
  test('lists every page a visitor finds and reads each as its .md serves it; a hidden page or a URI elsewhere is not found', async ({
    listening,
    orgId,
    spaceWith,
    publishedSite,
  }) => {
    const client = await connect(mcpOf(listening, orgId, await publishedSite([await spaceWith('Guide', GUIDE)])));
    expect(client.getServerCapabilities()?.resources).toBeDefined();
    const { resources } = await client.listResources();
    expect(resources.map(({ name, title, description, mimeType }) => ({ name, title, description, mimeType }))).toEqual([
      { name: 'introduction', title: 'Introduction', description: undefined, mimeType: 'text/markdown' },
      { name: 'setup', title: 'Setup', description: 'Getting ready', mimeType: 'text/markdown' },
      { name: 'setup/advanced', title: 'Advanced', description: undefined, mimeType: 'text/markdown' },
    ]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ name: 'page', mimeType: 'text/markdown', uriTemplate: expect.stringMatching(/\/\{\+path\}\.md$/) })]);

    // The URI is the page's `.md` URL, and reading it answers what that URL serves.
    for (const { uri } of resources) {
      const served = await fetch(uri.replace(/^http:\/\/127\.0\.0\.1:8090/, new URL(listening).origin));
      expect(served.status).toBe(200);
      expect(await client.readResource({ uri })).toEqual({ contents: [{ uri, mimeType: 'text/markdown', text: await served.text() }] });
    }
    expect(await readText(client, resources[2]!.uri)).toBe('# Advanced\n\nDeep dive into tuning.');

    const hiddenUri = resources[0]!.uri.replace(/introduction\.md$/, 'hidden.md');
    const hidden = await refused<McpError>(client.readResource({ uri: hiddenUri }));
    expect(hidden).toMatchObject({ code: RESOURCE_NOT_FOUND, message: expect.stringContaining(`Resource not found: ${hiddenUri} (resources/list names every one)`) });
    const elsewhere = await refused<McpError>(client.readResource({ uri: 'https://elsewhere.example/introduction.md' }));
    expect(elsewhere).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('not found') });
  });

  test('on share-link and visitor-auth sites: the key and the token decide what is listed and read', async ({ listening, orgId, api, spaceWith, publishedSite }) => {
    const shared = (await publishedSite([await spaceWith('Shared', [page('Partner notes', 'For partners.')])], { visibility: 'share-link' })).id;
    const link = await api('POST', `/sites/${shared}/share-links`, { name: 'Partners' }, 201);
    const keyed = mcpOf(listening, orgId, { id: shared });
    keyed.searchParams.set('shareKey', new URL(link.urls.published).searchParams.get('shareKey')!);
    const partner = await connect(keyed);
    const [notes] = (await partner.listResources()).resources;
    expect(notes).toMatchObject({ title: 'Partner notes' });
    expect(await readText(partner, notes!.uri)).toBe('# Partner notes\n\nFor partners.');
    await expect(connect(mcpOf(listening, orgId, { id: shared }))).rejects.toThrow();

    const open = await spaceWith('Everyone', [page('Open page', 'Shared knowledge.')]);
    const beta = await spaceWith('Beta', [page('Beta page', 'Early widgets for testers.')]);
    const site = (await publishedSite([open], { visibility: 'visitor-auth' })).id;
    const added = await api('POST', `/sites/${site}/site-spaces`, { spaceId: beta }, 201);
    await api('PATCH', `/sites/${site}/site-spaces/${added.id}`, { condition: 'visitor.claims.beta === true' });
    await api('POST', `/sites/${site}/publish`);
    const key = new TextEncoder().encode((await api('GET', `/sites/${site}/publishing/auth`)).privateKey as string);
    const bearer = async (claims: Record<string, unknown>) => ({
      authorization: `Bearer ${await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(key)}`,
    });
    const mcp = mcpOf(listening, orgId, { id: site });
    const tester = await connect(mcp, await bearer({ beta: true }));
    const betaUri = (await tester.listResources()).resources.find((r) => r.title === 'Beta page')!.uri;
    expect(await readText(tester, betaUri)).toBe('# Beta page\n\nEarly widgets for testers.');
    // A visitor whose claims do not show the Beta space neither lists nor reads its page, even by its URI.
    const plain = await connect(mcp, await bearer({}));
    expect((await plain.listResources()).resources.map((r) => r.title)).toEqual(['Open page']);
    expect(await refused<McpError>(plain.readResource({ uri: betaUri }))).toMatchObject({ code: RESOURCE_NOT_FOUND });
  });
});

describe("an assistant's calls in the site's insights", () => {
  test("count as the site's page views and searches, told apart from a visitor's by eventOrigin, each saying its tool and whether it found anything", async ({
    h,
    owner,
    listening,
    orgId,
    api,
    spaceWith,
    publishedSite,
  }) => {
    const site = await publishedSite([await spaceWith('Guide', GUIDE)]);
    const client = await connect(mcpOf(listening, orgId, site));
    const setup = (await client.listResources()).resources[1]!;
    await client.readResource({ uri: setup.uri });
    await call(client, 'getPage', { url: 'setup' });
    await call(client, 'searchDocumentation', { query: 'installer' });
    // Calls that find nothing count too, saying so.
    expect(await call(client, 'searchDocumentation', { query: 'zebra' })).toBe('No page of Acme Docs matches "zebra".');
    expect((await client.callTool({ name: 'getPage', arguments: { url: 'nowhere' } })).isError).toBe(true);
    await call(client, 'listPages');
    // A visitor's page view, even one that tries to pass for an assistant's.
    const visitor = await fetch(new URL(`/${orgId}/${site.id}/setup?origin=mcp&utm_source=mcp`, listening), { headers: { 'user-agent': 'Claude-User MCP' } });
    expect(visitor.status).toBe(200);
    await h.reader.flushInsights();

    const byType = async (origin?: string) => {
      const { columns } = await api('POST', `/sites/${site.id}/insights/events/aggregate`, {
        select: [{ column: 'eventType' }, { column: 'eventsCount' }, { column: 'visitorsCount' }],
        groupBy: [{ column: 'eventType' }],
        where: origin ? [{ column: 'eventOrigin', operator: 'in', values: [origin] }] : [],
        range: 'last24Hours',
      });
      const [types, events, visitors] = columns as { values: unknown[] }[];
      return Object.fromEntries(types!.values.map((t, i) => [t, [events!.values[i], visitors!.values[i]]]));
    };
    let all: Record<string, unknown> = {};
    const expected = { page_view: [5, 2], search_type_query: [2, 1] };
    for (let i = 0; i < 100 && JSON.stringify(all) !== JSON.stringify(expected); i++) {
      all = await byType();
      await new Promise((r) => setTimeout(r, 100));
    }
    // GitBook's event types, all of them counted; the assistant's six calls are one visitor.
    expect(all).toEqual(expected);
    expect(await byType('mcp')).toEqual({ page_view: [4, 1], search_type_query: [2, 1] });
    expect(await byType('web')).toEqual({ page_view: [1, 1] });

    // The assistant's page views are of the page read, not of the MCP endpoint.
    const { columns } = await api('POST', `/sites/${site.id}/insights/events/aggregate`, {
      select: [{ column: 'url' }, { column: 'eventsCount' }],
      groupBy: [{ column: 'url' }],
      where: [
        { column: 'eventOrigin', values: ['mcp'] },
        { column: 'eventType', values: ['page_view'] },
        { column: 'page', operator: 'notIn', values: [null] },
      ],
      range: 'last24Hours',
    });
    expect(columns).toEqual([
      { column: 'url', values: [setup.uri.replace(/\.md$/, '')] },
      { column: 'eventsCount', values: [2] },
    ]);

    // What each tool was asked, by whether it found anything: the searches that found nothing show.
    const asked = async (found: boolean) => {
      const { columns: c } = await api('POST', `/sites/${site.id}/insights/events/aggregate`, {
        select: [{ column: 'eventSearchQuery' }, { column: 'eventsCount' }],
        groupBy: [{ column: 'eventSearchQuery' }],
        where: [
          { column: 'eventOrigin', values: ['mcp'] },
          { column: 'eventFound', values: [found] },
        ],
        order: { by: { column: 'eventSearchQuery' }, direction: 'asc' },
        range: 'last24Hours',
      });
      return (c as { values: unknown[] }[])[0]!.values;
    };
    expect(await asked(false)).toEqual(['nowhere', 'zebra']);
    // listPages asks nothing; a resource is asked for by its URI.
    expect(await asked(true)).toEqual(['', setup.uri, 'installer', 'setup']);
    const byTool = await api('POST', `/sites/${site.id}/insights/events/aggregate`, {
      select: [{ column: 'eventsCount' }],
      where: [{ column: 'eventMcpTool', values: ['getPage'] }],
      range: 'last24Hours',
    });
    expect(byTool.columns).toEqual([{ column: 'eventsCount', values: [2] }]);

    // Asked for in an answer, the column is refused by name (answers carry GitBook's columns alone).
    const grouped = await h.g.call(owner, 'POST', `/v1/orgs/${orgId}/sites/${site.id}/insights/events/aggregate`, {
      select: [{ column: 'eventOrigin' }, { column: 'eventsCount' }],
      groupBy: [{ column: 'eventOrigin' }],
      range: 'last24Hours',
    });
    expect(grouped.statusCode).toBe(400);
    expect(grouped.json()).toMatchObject({ error: { code: 400, message: expect.stringContaining('select[0].column: "eventOrigin" can only filter (where)') } });
  });
});
