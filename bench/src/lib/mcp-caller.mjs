import { parentPort, workerData } from 'node:worker_threads';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// The MCP benchmark's client (and its fetches of the baselines), in a thread of its own and timed
// here: a call's time is the client's and the reader's, never the wait for the main thread's
// event loop, which the services beside it hold (their work, their heap's collections).

const client = new Client({ name: 'quire-bench', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(workerData.url)));

async function text({ tool, args, url }) {
  if (tool) return (await client.callTool({ name: tool, arguments: args })).content[0].text;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return res.text();
}

parentPort.on('message', async ({ id, ...asked }) => {
  const t0 = performance.now();
  try {
    const answer = await text(asked);
    parentPort.postMessage({ id, ms: performance.now() - t0, text: answer });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err) });
  }
});
parentPort.postMessage({ ready: true });
