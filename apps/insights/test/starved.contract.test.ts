import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { eventRows } from '../src/domain/events.ts';
import { toMessages } from '../src/ingest/publisher.ts';
import { event } from './fixtures.ts';
import { insightsWithOwner } from './suite.ts';

// A writer whose process is starved while messages reach it: with the default ack wait (60 s), a
// message the writer was sent but dropped would show only a minute later.
const s = insightsWithOwner('Starved');

// Publishes `body` from another thread `afterMs` after being told to, while this thread is blocked.
const PUBLISHER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { connect } = await import(workerData.nats);
  const nc = await connect({ servers: workerData.url });
  const js = nc.jetstream();
  parentPort.postMessage('ready');
  parentPort.once('message', async () => {
    await new Promise((r) => setTimeout(r, workerData.afterMs));
    for (const m of workerData.messages) await js.publish(workerData.subject, m.body, { msgID: m.id });
    await nc.close();
    parentPort.postMessage('sent');
  });
})();
`;

describe('a writer starved while messages reach it', () => {
  it('stores them within seconds once it runs again, not after the ack wait', async () => {
    const site = 'site-starved';
    const rows = eventRows(
      Array.from({ length: 5 }, (_, i) => event({ visitorId: `starved-${i}` })),
      { organizationId: s.orgId, siteId: site, clientIp: '203.0.113.7', now: new Date(), fromReader: false },
    );
    const messages = toMessages(rows, `starved-${Date.now()}`, 512 * 1024);
    const worker = new Worker(PUBLISHER, {
      eval: true,
      workerData: {
        nats: pathToFileURL(createRequire(import.meta.url).resolve('nats')).href,
        url: s.h.config.NATS_URL,
        subject: `${s.h.config.INSIGHTS_SUBJECT_PREFIX}.events`,
        messages,
        afterMs: 300,
      },
    });
    await new Promise((r) => worker.once('message', r));
    const sent = new Promise((r) => worker.once('message', r));
    worker.postMessage('go');
    // This thread, the writer's, does nothing for 2 s while the messages are stored and sent to it.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2000);
    await sent;
    await worker.terminate();
    expect(await s.h.stored(s.orgId, site, 5, 10_000)).toBe(5);
  }, 30_000);
});
