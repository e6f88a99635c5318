import type { Metadata } from '@grpc/grpc-js';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type pg from 'pg';

// OpenTelemetry traces, by hand at the few places a call crosses a process or reaches a store:
// the gateway's requests, gRPC calls (both sides, context in the metadata), pool queries and NATS
// jobs (context in the message headers). Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set, and then
// each of those places costs one boolean test.

let enabled = false;
const tracer = () => trace.getTracer('quire');

/**
 * Starts the OpenTelemetry SDK when `OTEL_EXPORTER_OTLP_ENDPOINT` names a collector (OTLP over
 * HTTP, protobuf), or when a test hands its own span processors. Returns the shutdown step.
 */
export async function startTracing(serviceName: string, options: { env?: NodeJS.ProcessEnv; spanProcessors?: SpanProcessor[] } = {}): Promise<(() => Promise<void>) | undefined> {
  const env = options.env ?? process.env;
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !options.spanProcessors) return undefined;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const spanProcessors = options.spanProcessors ?? [await otlpProcessor()];
  const sdk = new NodeSDK({ serviceName, spanProcessors, instrumentations: [] });
  sdk.start();
  enabled = true;
  return async () => {
    enabled = false;
    await sdk.shutdown();
  };
}

async function otlpProcessor(): Promise<SpanProcessor> {
  const [{ OTLPTraceExporter }, { BatchSpanProcessor }] = await Promise.all([import('@opentelemetry/exporter-trace-otlp-proto'), import('@opentelemetry/sdk-trace-base')]);
  return new BatchSpanProcessor(new OTLPTraceExporter());
}

/** Runs `run` inside a new span, child of `parent`, ended with its outcome. */
function inSpan<T>(name: string, kind: SpanKind, parent: Context, attributes: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const span = tracer().startSpan(name, { kind, attributes }, parent);
  return context.with(trace.setSpan(parent, span), run).then(
    (result) => {
      span.end();
      return result;
    },
    (err: unknown) => {
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      span.end();
      throw err;
    },
  );
}

const metadataGetter: TextMapGetter<Metadata> = {
  keys: (md) => Object.keys(md.getMap()),
  get: (md, key) => {
    const v = md.get(key)[0];
    return typeof v === 'string' ? v : undefined;
  },
};
const metadataSetter: TextMapSetter<Metadata> = { set: (md, key, value) => md.set(key, value) };

/** A served RPC, continuing the caller's trace from the metadata. */
export function traceServerCall<T>(method: string, md: Metadata, run: () => Promise<T>): Promise<T> {
  if (!enabled) return run();
  return inSpan(method, SpanKind.SERVER, propagation.extract(ROOT_CONTEXT, md, metadataGetter), { 'rpc.system': 'grpc', 'rpc.method': method }, run);
}

/** An outgoing RPC: a client span whose context travels in `md`. Call the result when it is answered. */
export function traceClientCall(path: string, md: Metadata): ((err: unknown) => void) | undefined {
  if (!enabled) return undefined;
  const parent = context.active();
  const span = tracer().startSpan(path, { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'grpc', 'rpc.method': path } }, parent);
  propagation.inject(trace.setSpan(parent, span), md, metadataSetter);
  return (err) => {
    if (err) span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
    span.end();
  };
}

/** An HTTP request of the gateway, continuing a `traceparent` the client sent: `next` runs inside it. */
export function traceHttpRequest(method: string, headers: Record<string, string | string[] | undefined>, next: () => void): ((route: string, status: number) => void) | undefined {
  if (!enabled) {
    next();
    return undefined;
  }
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  const span = tracer().startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } }, parent);
  context.with(trace.setSpan(parent, span), next);
  return (route, status) => {
    span.updateName(`${method} ${route}`);
    span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
}

/** Writes the active trace context into a carrier (message headers); false when tracing is off. */
export function injectTrace<C>(carrier: C, setter: TextMapSetter<C>): boolean {
  if (!enabled) return false;
  propagation.inject(context.active(), carrier, setter);
  return true;
}

/** A job taken from a queue, continuing the trace its message carries. */
export function traceJob<C, T>(name: string, carrier: C | undefined, getter: TextMapGetter<C>, run: () => Promise<T>): Promise<T> {
  if (!enabled) return run();
  const parent = carrier ? propagation.extract(ROOT_CONTEXT, carrier, getter) : ROOT_CONTEXT;
  return inSpan(name, SpanKind.CONSUMER, parent, { 'messaging.system': 'nats' }, run);
}

/**
 * Spans for the promise-form queries of a pool (Prisma's and the prepared reads) and of the
 * connections it hands out (Prisma's transactions hold one); tracing on only. The pool's own
 * query runs its connection's query with a callback, which is left alone: one span per query.
 */
export function tracePool(pool: pg.Pool, database: string): void {
  if (!enabled) return;
  traceQueries(pool, database);
  pool.on('connect', (client) => traceQueries(client, database));
}

function traceQueries(target: pg.Pool | pg.PoolClient, database: string): void {
  const query = target.query.bind(target) as (...args: unknown[]) => unknown;
  (target as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    if (typeof args[args.length - 1] === 'function') return query(...args);
    const first = args[0] as string | { text?: string; name?: string };
    const statement = typeof first === 'string' ? first : (first?.name ?? first?.text ?? '');
    return inSpan(
      'pg.query',
      SpanKind.CLIENT,
      context.active(),
      { 'db.system': 'postgresql', 'db.namespace': database, 'db.query.text': statement.slice(0, 500) },
      () => query(...args) as Promise<unknown>,
    );
  };
}
