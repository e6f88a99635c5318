import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, onTestFinished } from 'vitest';
import { page } from './harness.ts';
import { test as base } from './published.ts';

// What the tests of a published site's MCP server share: the reader listening on loopback (the
// SDK's client speaks HTTP), a guide with a hidden page, and the official client connected.

export const test = base.extend<{ listening: string }>({
  listening: [async ({ reader: { h } }, use) => use(await h.reader.app.listen({ port: 0, host: '127.0.0.1' })), { scope: 'file' }],
});

export const GUIDE = [
  page('Introduction', 'Start here.\n\n## Install\n\nRun the installer, then restart the service.\n'),
  page('Setup', 'Set things up.', [page('Advanced', 'Deep dive into tuning.')], { fields: { title: 'Setup', description: 'Getting ready' } }),
  page('Hidden', 'Not in the menu: tuning secrets.', [], { fields: { title: 'Hidden', hidden: true } }),
];

/** The MCP URL of a published site on the listening reader. */
export const mcpOf = (listening: string, orgId: string, site: { id: string }) => new URL(`/${orgId}/${site.id}/~gitbook/mcp`, listening);

export async function connect(url: URL, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'quire-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  onTestFinished(() => client.close());
  return client;
}

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;
export const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => text(await client.callTool({ name, arguments: args }));

/** The error a refused request rejects with. */
export const refused = <E = Error>(p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable('accepted'),
    (err: E) => err,
  );

/** The text of a resource the client reads. */
export const readText = async (client: Client, uri: string) => ((await client.readResource({ uri })).contents[0] as { text: string }).text;
