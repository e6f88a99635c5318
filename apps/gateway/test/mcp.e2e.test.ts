import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, onTestFinished } from 'vitest';
import { test as base } from './fixtures.ts';
import { ok, type Gateway } from './harness.ts';
import type { TestUser } from '@quire/orgs/testing';

// The organization's MCP server, driven by the official SDK's client over real HTTP.

const test = base.extend<{ url: URL; guides: string }>({
  url: [async ({ origin }, use) => use(new URL('/mcp', origin)), { scope: 'worker' }],
  // A space with two pages, written through the API as a member would (a change request, merged).
  guides: async ({ g, team }, use) => {
    const space = await ok(g.call(team.owner, 'POST', `/v1/orgs/${team.orgId}/spaces`, { title: 'Guides' }), 201);
    const cr = await ok(g.call(team.owner, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'First pages' }), 201);
    await ok(
      g.call(team.owner, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
        changes: [
          { operation: 'insert_page', title: 'Tokens', document: { markdown: 'How tokens work.\n\n## Rotating tokens\n\nRotate API tokens every month.\n' } },
          { operation: 'insert_page', title: 'Themes', document: { markdown: 'Colors and fonts.\n' } },
        ],
      }),
    );
    await ok(g.call(team.owner, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`));
    await use(space.id);
  },
});

async function connect(url: URL, token: string) {
  const client = new Client({ name: 'quire-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  onTestFinished(() => client.close());
  return client;
}

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

async function tokenOf(g: Gateway, user: TestUser, scope: 'read' | 'write') {
  return (await ok(g.call(user, 'POST', '/v1/user/tokens', { label: `mcp ${scope}`, scope }), 201)) as { id: string; token: string };
}

describe('the organization MCP server (/mcp)', () => {
  test('a read token lists, searches and reads the spaces its user sees, and has only read tools', async ({ g, team, url, guides }) => {
    const client = await connect(url, (await tokenOf(g, team.reader, 'read')).token);
    expect(client.getServerVersion()).toMatchObject({ name: 'quire' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['getPage', 'listPages', 'listSpaces', 'searchDocumentation']);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);

    expect(text(await client.callTool({ name: 'listSpaces', arguments: {} }))).toContain(`Guides (space id: ${guides}, organization: ${team.orgId}`);
    const found = text(await client.callTool({ name: 'searchDocumentation', arguments: { query: 'rotate tokens' } }));
    expect(found).toContain('## Tokens');
    expect(found).toContain('Rotating tokens: Rotate API tokens every month.');
    expect(found).not.toContain('Themes');
    expect(text(await client.callTool({ name: 'listPages', arguments: { spaceId: guides } }))).toMatch(/- Tokens \(document, path: tokens, id: \S+\)\n- Themes/);
    expect(text(await client.callTool({ name: 'getPage', arguments: { spaceId: guides, path: 'tokens' } }))).toBe(
      '# Tokens\n\nHow tokens work.\n\n## Rotating tokens\n\nRotate API tokens every month.',
    );

    // A write tool is not there for a read token: calling it is a protocol error.
    const refused = await client.callTool({ name: 'createChangeRequest', arguments: { spaceId: guides, subject: 'x' } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((refused as McpError).message).toMatch(/Unknown tool "createChangeRequest"/);
  });

  test('a write token opens a change request, writes a page in it and comments; the space itself is unchanged', async ({ g, team, url, guides }) => {
    const client = await connect(url, (await tokenOf(g, team.editor, 'write')).token);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['createChangeRequest', 'writePage', 'comment']));
    const opened = text(await client.callTool({ name: 'createChangeRequest', arguments: { spaceId: guides, subject: 'Explain expiry' } }));
    const changeRequestId = /changeRequestId: (\S+)\)/.exec(opened)![1]!;
    expect(opened).toMatch(/^Opened change request #\d+ "Explain expiry"/);

    expect(text(await client.callTool({ name: 'writePage', arguments: { spaceId: guides, changeRequestId, title: 'Expiry', markdown: 'Tokens expire after a year.\n' } }))).toMatch(
      /^Added the page/,
    );
    expect(text(await client.callTool({ name: 'comment', arguments: { spaceId: guides, changeRequestId, markdown: 'Please review the new page.' } }))).toMatch(/^Commented/);

    const inChange = await ok(g.call(team.owner, 'GET', `/v1/spaces/${guides}/change-requests/${changeRequestId}/content/path/expiry?format=markdown`));
    expect(inChange.markdown).toBe('Tokens expire after a year.\n');
    expect((await g.call(team.owner, 'GET', `/v1/spaces/${guides}/content/path/expiry`)).statusCode).toBe(404);
    const comments = await ok(g.call(team.owner, 'GET', `/v1/spaces/${guides}/change-requests/${changeRequestId}/comments`));
    expect(comments.items.map((c: { body: { markdown: string } }) => c.body.markdown)).toEqual(['Please review the new page.']);
    // The page as the assistant reads it back, in the change request.
    expect(text(await client.callTool({ name: 'getPage', arguments: { spaceId: guides, changeRequestId, path: 'expiry' } }))).toBe('# Expiry\n\nTokens expire after a year.');
  });

  test("answers another organization's space as not found, and a reader's write as refused", async ({ g, team, url, guides }) => {
    const outsider = await connect(url, team.outsider.token);
    const hidden = (await outsider.callTool({ name: 'getPage', arguments: { spaceId: guides, path: 'tokens' } })) as CallToolResult;
    expect(hidden.isError).toBe(true);
    expect(text(hidden)).toMatch(new RegExp(`^Space ${guides}: .*not found`, 'i'));
    expect(text(await outsider.callTool({ name: 'searchDocumentation', arguments: { query: 'rotate' } }))).toBe('Nothing found for "rotate".');

    const reader = await connect(url, team.reader.token);
    const refused = (await reader.callTool({ name: 'createChangeRequest', arguments: { spaceId: guides, subject: 'Nope' } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect((await ok(g.call(team.owner, 'GET', `/v1/spaces/${guides}/change-requests?status=open`))).items).toEqual([]);
  });

  test('bad arguments and oversized inputs are JSON-RPC errors naming the problem', async ({ team, url }) => {
    const client = await connect(url, team.owner.token);
    for (const [args, problem] of [
      [{}, /Invalid arguments for searchDocumentation: .*query/],
      [{ query: 'x'.repeat(513) }, /query: Expected string length less or equal to 512/],
      [{ query: 'x', spaceId: '../orgs' }, /spaceId: Expected string to match/],
      [{ query: 'x', extra: 1 }, /extra/],
    ] as const) {
      const err = await client.callTool({ name: 'searchDocumentation', arguments: args }).catch((e: unknown) => e);
      expect(err, JSON.stringify(args)).toBeInstanceOf(McpError);
      expect((err as McpError).code).toBe(ErrorCode.InvalidParams);
      expect((err as McpError).message).toMatch(problem);
    }
    const unknown = await client.callTool({ name: 'deleteEverything', arguments: {} }).catch((e: unknown) => e);
    expect((unknown as McpError).message).toMatch(/Unknown tool "deleteEverything": this server has listSpaces, searchDocumentation/);
  });

  test('a body too large, not JSON or of no method it knows is a JSON-RPC error naming the problem, never a 500', async ({ team, url }) => {
    const send = (body: string, type = 'application/json') =>
      fetch(url, { method: 'POST', headers: { 'content-type': type, accept: 'application/json, text/event-stream', authorization: `Bearer ${team.owner.token}` }, body });
    const rpc = (method: string, params: object) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
    // Past the gateway's body limit (1 MiB unless configured): refused before it is read.
    const huge = await send(rpc('tools/call', { name: 'listSpaces', arguments: { padding: 'x'.repeat(2 * 1024 * 1024) } }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: ErrorCode.InvalidRequest, message: 'Request body is too large: this server takes at most 1048576 bytes' },
    });
    for (const [body, type, status, error] of [
      ['{"jsonrpc":', 'application/json', 400, { code: ErrorCode.ParseError, message: 'Parse error: the body is not valid JSON' }],
      ['', 'application/json', 400, { code: ErrorCode.ParseError, message: 'Parse error: the body is empty; send a JSON-RPC message' }],
      ['<rpc/>', 'application/xml', 415, { code: ErrorCode.InvalidRequest, message: 'Unsupported Media Type: Content-Type must be application/json' }],
    ] as const) {
      const res = await send(body, type);
      expect(res.status, body).toBe(status);
      expect(await res.json()).toEqual({ jsonrpc: '2.0', id: null, error });
    }
    const unknown = await send(rpc('pages/delete', {}));
    expect(await unknown.json()).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: ErrorCode.MethodNotFound, message: expect.stringContaining('Method not found') } });
  });

  test('refuses a missing or revoked token at once, in a client connected before too, and GET has no stream', async ({ g, team, url }) => {
    const initialize = (headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      });
    const anonymous = await initialize({});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expect(await anonymous.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32001, message: expect.stringMatching(/^Authentication required: send Authorization: Bearer/) },
    });

    const { id, token } = await tokenOf(g, team.owner, 'read');
    const client = await connect(url, token);
    await client.callTool({ name: 'listSpaces', arguments: {} });
    await ok(g.call(team.owner, 'DELETE', `/v1/user/tokens/${id}`), 204);
    // The very next call, of the client connected before and of a new one, is refused: the gateway's cache of the token was dropped before the revocation answered.
    // The SDK's client rejects with the HTTP status as `code`, and the body it read.
    const refusal = { code: 401, message: expect.stringContaining('The access token is not valid') };
    await expect(client.callTool({ name: 'listSpaces', arguments: {} })).rejects.toMatchObject(refusal);
    await expect(connect(url, token)).rejects.toMatchObject(refusal);
    const revoked = await initialize({ authorization: `Bearer ${token}` });
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'The access token is not valid' } });
    expect((await fetch(url, { headers: { authorization: `Bearer ${team.owner.token}` } })).status).toBe(405);
  });

  test('every call is in the audit log of the organization it touched, with ids and the query but no page body', async ({ g, team, url, guides }) => {
    const client = await connect(url, team.editor.token);
    await client.callTool({ name: 'searchDocumentation', arguments: { query: 'rotate', spaceId: guides } });
    await client.callTool({ name: 'getPage', arguments: { spaceId: guides, path: 'tokens' } });
    const deadline = Date.now() + 10_000;
    let entries: { action: string; actor: string; target: { id: string } | null; details: Record<string, unknown> }[] = [];
    while (Date.now() < deadline && entries.length < 2) {
      entries = (await ok(g.call(team.owner, 'GET', `/v1/orgs/${team.orgId}/audit-log?limit=100&actor=${team.editor.id}`))).items.filter(
        (e: { action: string }) => e.action === 'mcp.called',
      );
      if (entries.length < 2) await new Promise((r) => setTimeout(r, 50));
    }
    expect(entries.map((e) => e.details.tool).sort()).toEqual(['getPage', 'searchDocumentation']);
    expect(entries.find((e) => e.details.tool === 'searchDocumentation')).toMatchObject({
      actor: team.editor.id,
      target: { id: guides },
      details: { query: 'rotate', spaceId: guides, succeeded: true },
    });
    expect(JSON.stringify(entries)).not.toContain('Rotate API tokens');
    // Nothing in the outsider's organization.
    const elsewhere = await ok(g.call(team.outsider, 'GET', `/v1/orgs/${team.otherOrgId}/audit-log?limit=100`));
    expect(elsewhere.items.filter((e: { action: string }) => e.action === 'mcp.called')).toEqual([]);
  });
});
