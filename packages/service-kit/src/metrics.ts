import { createServer, type Server } from 'node:http';
import { status as GrpcStatus } from '@grpc/grpc-js';
import type { NatsConnection } from 'nats';
import type pg from 'pg';
import { Histogram, Registry, collectDefaultMetrics, Gauge } from 'prom-client';

/**
 * The process's Prometheus metrics (text format on `/metrics` of its side HTTP port). Tests run
 * several services in one process; they then share this registry, which is what they measure.
 */
export const metrics = new Registry();
collectDefaultMetrics({ register: metrics });

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const rpcSeconds = new Histogram({
  name: 'quire_rpc_server_duration_seconds',
  help: 'gRPC calls served, by method and status code, and their duration',
  labelNames: ['method', 'code'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metrics],
});

const httpSeconds = new Histogram({
  name: 'quire_http_request_duration_seconds',
  help: 'HTTP requests answered by the gateway, by method, route pattern and status, and their duration',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metrics],
});

const jobSeconds = new Histogram({
  name: 'quire_job_duration_seconds',
  help: 'Background jobs (Git import/export, space exports, insights batch writes), by kind and outcome, and their duration',
  labelNames: ['kind', 'outcome'] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 600],
  registers: [metrics],
});

// Children by label values, found once: prom-client hashes the labels on every `labels()` call.
type Child = { observe(v: number): void };
function cachedChildren<L extends string>(h: Histogram<L>) {
  const children = new Map<string, Child>();
  return (...values: string[]): Child => {
    const key = values.join('\u0000');
    let c = children.get(key);
    if (!c) children.set(key, (c = h.labels(...values)));
    return c;
  };
}
const rpcChild = cachedChildren(rpcSeconds);
const httpChild = cachedChildren(httpSeconds);

const CODE_NAMES = Object.fromEntries(
  Object.entries(GrpcStatus)
    .filter(([, v]) => typeof v === 'number')
    .map(([k, v]) => [v, k]),
) as Record<number, string>;

/** Records one served RPC that started at `startMs` (performance.now()). */
export function observeRpc(method: string, code: number, startMs: number): void {
  rpcChild(method, CODE_NAMES[code] ?? String(code)).observe((performance.now() - startMs) / 1000);
}

/** Records one HTTP request of the gateway. */
export function observeHttp(method: string, route: string, status: number, seconds: number): void {
  httpChild(method, route, String(status)).observe(seconds);
}

/** Times a background job: `done(outcome)` records it. */
export function timeJob(kind: string): (outcome: string) => void {
  const end = jobSeconds.startTimer({ kind });
  return (outcome) => end({ outcome });
}

const pools = new Map<string, pg.Pool>();
new Gauge({
  name: 'quire_db_pool_connections',
  help: 'Database pool connections by state (total, idle, waiting = callers queued for one)',
  labelNames: ['database', 'state'] as const,
  registers: [metrics],
  collect() {
    this.reset();
    for (const [database, p] of pools) {
      this.set({ database, state: 'total' }, p.totalCount);
      this.set({ database, state: 'idle' }, p.idleCount);
      this.set({ database, state: 'waiting' }, p.waitingCount);
    }
  },
});

/** Reports a pool's usage on every scrape, until the returned function forgets it. */
export function watchPool(database: string, pool: pg.Pool): () => void {
  pools.set(database, pool);
  return () => pools.delete(database);
}

const consumers = new Map<string, { nc: NatsConnection; stream: string; consumer: string }>();
new Gauge({
  name: 'quire_jetstream_consumer_pending',
  help: 'JetStream consumer lag: messages not yet delivered (pending) and delivered but not acked (ack_pending)',
  labelNames: ['stream', 'consumer', 'state'] as const,
  registers: [metrics],
  async collect() {
    this.reset();
    await Promise.all(
      [...consumers.values()].map(async ({ nc, stream, consumer }) => {
        try {
          const info = await (await nc.jetstreamManager()).consumers.info(stream, consumer);
          this.set({ stream, consumer, state: 'pending' }, info.num_pending);
          this.set({ stream, consumer, state: 'ack_pending' }, info.num_ack_pending);
        } catch {
          // NATS away: the series is absent for this scrape, and health reports the outage.
        }
      }),
    );
  },
});

/** Reports a durable consumer's lag on every scrape, until the returned function forgets it. */
export function watchConsumer(nc: NatsConnection, stream: string, consumer: string): () => void {
  const key = `${stream}/${consumer}`;
  consumers.set(key, { nc, stream, consumer });
  return () => consumers.delete(key);
}

/**
 * The side HTTP port of a process: `/metrics` (Prometheus text) and, given `ready`, `/readyz` (200
 * while it says so), kept off the API port so neither is public.
 */
export async function startMetricsServer(host: string, port: number, ready?: () => boolean): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/metrics') {
      metrics.metrics().then(
        (text) => res.writeHead(200, { 'content-type': metrics.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
    } else if (ready && req.method === 'GET' && req.url === '/readyz') {
      const ok = ready();
      res.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain' }).end(ok ? 'ready\n' : 'not ready\n');
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
