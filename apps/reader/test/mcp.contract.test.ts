import { ErrorCode, type McpError } from '@modelcontextprotocol/sdk/types.js';
import { SignJWT } from 'jose';
import { describe, expect } from 'vitest';
import { page, setPages } from './harness.ts';
import { call, connect, GUIDE, mcpOf, refused, test } from './mcp-client.ts';

// A published site's MCP server (`<site>/~gitbook/mcp`), driven by the official SDK's client over
// real HTTP, with the reader's access rules: public, share link, visitor token with claims.

/** The raw answer to an `initialize`, as a client without the SDK sees a refusal. */
const initialize = (url: URL, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
  });

describe("a published site's MCP server", () => {
  test('on a public site: lists, searches and reads the pages visitors find, never a hidden one', async ({ h, listening, orgId, spaceWith, publishedSite }) => {
    const mcp = mcpOf(listening, orgId, await publishedSite([await spaceWith('Guide', GUIDE)]));
    const client = await connect(mcp);
    expect(client.getServerVersion()).toMatchObject({ name: 'Acme Docs' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['searchDocumentation', 'getPage', 'listPages']);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);

    const site = `${new URL(listening).origin.replace(/:\d+$/, ':8090')}/${orgId}`;
    const listed = await call(client, 'listPages');
    expect(listed).toMatch(new RegExp(`^## Guide\\n- Introduction: ${site}/[^/]+/introduction\\n- Setup: \\S+/setup \\(Getting ready\\)\\n- Advanced: \\S+/setup/advanced$`));
    expect(listed).not.toContain('Hidden');

    const found = await call(client, 'searchDocumentation', { query: 'installer' });
    expect(found).toMatch(/^## Introduction\nURL: \S+\/introduction#install\nInstall: Run the installer, then restart the service\.$/);
    expect(await call(client, 'searchDocumentation', { query: 'tuning' })).not.toContain('Hidden');
    expect(await call(client, 'searchDocumentation', { query: 'zebra' })).toBe('No page of Acme Docs matches "zebra".');

    const url = /Advanced: (\S+)/.exec(listed)![1]!;
    expect(await call(client, 'getPage', { url })).toBe('# Advanced\n\nDeep dive into tuning.');
    expect(await call(client, 'getPage', { url: 'setup.md' })).toBe('# Setup\n\nSet things up.');
    const hidden = await client.callTool({ name: 'getPage', arguments: { url: 'hidden' } });
    expect(hidden).toMatchObject({ isError: true, content: [{ text: 'No page of Acme Docs at "hidden": listPages names every page.' }] });
    const elsewhere = await client.callTool({ name: 'getPage', arguments: { url: 'https://elsewhere.example/introduction' } });
    expect(elsewhere.isError).toBe(true);

    // Where assistants and their users find it: llms.txt and every page's head.
    const path = mcp.pathname;
    expect((await h.reader.app.inject({ url: path.replace('/~gitbook/mcp', '/llms.txt') })).body).toMatch(
      new RegExp(`^# Acme Docs\n\n> MCP server: http://127\.0\.0\.1:8090${path}\n`),
    );
    expect((await h.reader.app.inject({ url: path.replace('/~gitbook/mcp', '/introduction') })).body).toContain(`<link rel="mcp" href="${path}">`);
  });

  test('searches and reads a new revision anew once it is published: answers are kept by revision', async ({ h, owner, listening, orgId, spaceWith, publishedSite }) => {
    const space = await spaceWith('Guide', GUIDE);
    const client = await connect(mcpOf(listening, orgId, await publishedSite([space])));
    expect(await call(client, 'searchDocumentation', { query: 'installer' })).toMatch(/^## Introduction\n/);
    expect(await call(client, 'getPage', { url: 'setup' })).toBe('# Setup\n\nSet things up.');
    await setPages(h.g, owner, space, [page('Introduction', 'Start here.\n\n## Bootstrap\n\nRun the bootstrapper, then reboot.\n'), page('Setup', 'Set things up with care.')]);
    expect(await call(client, 'searchDocumentation', { query: 'installer' })).toBe('No page of Acme Docs matches "installer".');
    expect(await call(client, 'searchDocumentation', { query: 'bootstrapper' })).toMatch(
      /^## Introduction\nURL: \S+\/introduction#bootstrap\nBootstrap: Run the bootstrapper, then reboot\.$/,
    );
    expect(await call(client, 'getPage', { url: 'setup' })).toBe('# Setup\n\nSet things up with care.');
  });

  test('answers bad calls with JSON-RPC errors naming the problem, and GET with 405', async ({ listening, orgId, spaceWith, publishedSite }) => {
    const mcp = mcpOf(listening, orgId, await publishedSite([await spaceWith('Guide', GUIDE)]));
    const client = await connect(mcp);
    const unknown = await refused<McpError>(client.callTool({ name: 'writePage', arguments: {} }));
    expect(unknown).toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('Unknown tool "writePage": this server has searchDocumentation, getPage, listPages'),
    });
    const long = await refused<McpError>(client.callTool({ name: 'searchDocumentation', arguments: { query: 'x'.repeat(257) } }));
    expect(long).toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('Invalid arguments for searchDocumentation: query: Expected string length less or equal to 256'),
    });
    const extra = await refused<McpError>(client.callTool({ name: 'getPage', arguments: { url: 'setup', spaceId: 'x' } }));
    expect(extra).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('Invalid arguments for getPage') });
    expect((await fetch(mcp)).status).toBe(405);
    const post = (body: string) => fetch(mcp, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
    const tooLarge = { jsonrpc: '2.0', error: { code: ErrorCode.InvalidRequest, message: 'Request body is too large: this server takes at most 65536 bytes' }, id: null };
    // Past the MCP server's limit, and past the larger one of the reader's other route that takes a body.
    for (const size of [70_000, 300_000]) {
      const big = await post(JSON.stringify({ padding: 'x'.repeat(size) }));
      expect(big.status, String(size)).toBe(413);
      expect(await big.json()).toEqual(tooLarge);
    }
    const broken = await post('{"jsonrpc":');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ jsonrpc: '2.0', error: { code: ErrorCode.ParseError, message: 'Parse error: the body is not valid JSON' }, id: null });
    const noMethod = await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'pages/delete', params: {} }));
    expect(await noMethod.json()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: ErrorCode.MethodNotFound, message: expect.stringContaining('Method not found') } });
  });

  test('on a share-link site: only with a live share key', async ({ listening, orgId, api, spaceWith, publishedSite }) => {
    const site = (await publishedSite([await spaceWith('Shared', [page('Partner notes', 'For partners.')])], { visibility: 'share-link' })).id;
    const mcp = mcpOf(listening, orgId, { id: site });
    const without = await initialize(mcp);
    expect(without.status).toBe(401);
    expect(await without.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32001, message: 'This site is shared by link. Open it with the share link you were given.' },
      id: null,
    });
    await expect(connect(mcp)).rejects.toThrow();

    const link = await api('POST', `/sites/${site}/share-links`, { name: 'Partners' }, 201);
    const keyed = new URL(mcp);
    keyed.searchParams.set('shareKey', new URL(link.urls.published).searchParams.get('shareKey')!);
    expect(await call(await connect(keyed), 'listPages')).toContain('- Partner notes: ');
    await api('PATCH', `/sites/${site}/share-links/${link.id}`, { active: false });
    expect((await initialize(keyed)).status).toBe(403);
  });

  test('on a visitor-auth site: the visitor token as a bearer, its claims choosing what is found', async ({ listening, orgId, api, spaceWith, publishedSite }) => {
    const open = await spaceWith('Everyone', [page('Open page', 'Shared knowledge about widgets.')]);
    const beta = await spaceWith('Beta', [page('Beta page', 'Early widgets for testers.')]);
    const site = (await publishedSite([open], { visibility: 'visitor-auth' })).id;
    const mcp = mcpOf(listening, orgId, { id: site });
    const added = await api('POST', `/sites/${site}/site-spaces`, { spaceId: beta }, 201);
    await api('PATCH', `/sites/${site}/site-spaces/${added.id}`, { condition: 'visitor.claims.beta === true' });
    await api('POST', `/sites/${site}/publish`);
    const key = (await api('GET', `/sites/${site}/publishing/auth`)).privateKey as string;
    const sign = (claims: Record<string, unknown>, secret = key) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(secret));

    const without = await initialize(mcp);
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toBe('Bearer');
    expect((await initialize(mcp, { authorization: `Bearer ${await sign({ beta: true }, 'f'.repeat(64))}` })).status).toBe(403);

    const plain = await connect(mcp, { authorization: `Bearer ${await sign({})}` });
    expect(await call(plain, 'listPages')).not.toContain('Beta page');
    expect(await call(plain, 'searchDocumentation', { query: 'widgets' })).not.toContain('Beta page');
    const tester = await connect(mcp, { authorization: `Bearer ${await sign({ beta: true })}` });
    expect(await call(tester, 'listPages')).toContain('- Beta page: ');
    expect(await call(tester, 'searchDocumentation', { query: 'widgets' })).toMatch(/## Beta page\nURL: \S+\/beta-page/);
  });
});
