import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestUser } from '@quire/orgs/testing';
import { tenant } from '@quire/gateway/testing/fixtures';
import { chromiumFor, describeInChromium, startApp } from './app-server.ts';

// An AI assistant opens a change request through the organization's MCP server (the gateway's
// `/mcp`, with the official client and a write token); the member finds it in the web app, in
// Debian's Chromium, among the space's change requests. Another member's token sees nothing of it.

describeInChromium("change requests opened through the organization's MCP server, in Chromium", () => {
  const browser = chromiumFor('mcp');
  let app: Awaited<ReturnType<typeof startApp>>, owner: TestUser, outsider: TestUser, orgId: string;

  beforeAll(async () => {
    app = await startApp();
    await browser.launch();
    ({ owner, outsider, orgId } = await tenant(app.g));
  });
  afterAll(async () => {
    await browser.close();
    await app?.g.stop();
  });

  async function call(user: TestUser, method: 'GET' | 'POST', url: string, body: unknown, status: number) {
    const res = await app.g.call(user, method, url, body);
    expect(res.statusCode, res.body).toBe(status);
    return res.json();
  }

  async function assistant(user: TestUser) {
    const { token } = await call(user, 'POST', '/v1/user/tokens', { label: 'assistant', scope: 'write' }, 201);
    const client = new Client({ name: 'quire-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', app.origin), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return client;
  }

  it("shows the change request an assistant opened in the space's list, and keeps it from another organization's assistant", async () => {
    const spaceId = (await call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Runbook' }, 201)).id as string;
    const client = await assistant(owner);
    const opened = (await client.callTool({ name: 'createChangeRequest', arguments: { spaceId, subject: 'Proposed by the assistant' } })) as CallToolResult;
    expect(opened.isError).toBeFalsy();
    const number = /#(\d+) "Proposed by the assistant"/.exec((opened.content[0] as { text: string }).text)![1]!;
    await client.close();

    const listPath = `/o/${orgId}/s/${spaceId}/~/changes`;
    const page = await browser.signedIn(app.origin, owner, listPath);
    const list = page.getByRole('table', { name: 'Change requests of Runbook' });
    const link = list.getByRole('link', { name: 'Proposed by the assistant' });
    await link.waitFor();
    // Its row: the number the assistant was told, the subject, its author, open.
    await list.getByRole('row', { name: new RegExp(`^${number} Proposed by the assistant owner open`) }).waitFor();
    await link.click();
    await page.getByRole('heading', { name: /Proposed by the assistant/ }).waitFor();

    // An assistant of someone outside the organization can open nothing on its space.
    const stranger = await assistant(outsider);
    const refused = (await stranger.callTool({ name: 'createChangeRequest', arguments: { spaceId, subject: 'Intrusion' } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    await stranger.close();
    await page.goto(app.origin + listPath);
    await link.waitFor();
    expect(await list.getByRole('link', { name: 'Intrusion' }).count()).toBe(0);
  });
});
