import {
  Server,
  ServerCredentials,
  status as GrpcStatus,
  type ServerUnaryCall,
  type ServiceDefinition,
  type UntypedServiceImplementation,
  type sendUnaryData,
} from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { BatchServiceService } from '@quire/proto/rpc';
import { deadlineOf, serveBatches, type Route, type RunCall } from './batch.js';
import { verifiedCaller, type ServiceIdentity } from './assertion.js';
import { DomainError, toServiceError, UnauthenticatedError } from './errors.js';
import { contextFromCall, type CallContext } from './context.js';
import { monitorHealth, type HealthChecks } from './health.js';
import type { Logger } from './logger.js';
import { observeRpc } from './metrics.js';
import { traceServerCall } from './tracing.js';

/** A handler of one unary RPC: plain async function from request and context to response. */
export type UnaryHandler<Req, Res> = (request: Req, ctx: CallContext) => Promise<Res>;

/** The typed implementation of a generated service: every RPC as a `UnaryHandler`. */
export type Handlers<S> = {
  // Generated server interfaces carry grpc-js's string index signature: keep only the named RPCs.
  [K in keyof S as string extends K ? never : K]: S[K] extends (call: ServerUnaryCall<infer Req, infer Res>, cb: sendUnaryData<infer _R>) => void ? UnaryHandler<Req, Res> : never;
};

/**
 * Adapts async handlers to grpc-js: builds the call context from the caller the server's identity
 * verified (a server without one answers UNAUTHENTICATED to everything), maps domain errors to
 * status codes and logs what is not a domain error (with the request id) before answering INTERNAL.
 */
// Handlers still running: shutdown waits for them before the service closes its pools, even
// when their callers have gone and grpc-js already reports the server as shut down.
const inFlight = new Set<Promise<unknown>>();
/** Each implementation's calls by RPC name, for the batches the server serves (`serveBatches`). */
const runs = new WeakMap<UntypedServiceImplementation, ReadonlyMap<string, RunCall>>();

export function implement<S>(handlers: Handlers<S>, log: Logger): UntypedServiceImplementation {
  const impl: UntypedServiceImplementation = {};
  const byName = new Map<string, RunCall>();
  for (const [name, handler] of Object.entries(handlers) as [string, UnaryHandler<unknown, unknown>][]) {
    const run: RunCall = (request, metadata, answer, deadline) => {
      const started = performance.now();
      const principal = verifiedCaller(metadata);
      if (!principal) {
        observeRpc(name, GrpcStatus.UNAUTHENTICATED, started);
        return answer(toServiceError(new UnauthenticatedError('The call carries no verified service assertion')));
      }
      const ctx = contextFromCall(metadata, principal, log, deadline);
      const done = traceServerCall(name, metadata, () => handler(request, ctx)).then(
        (response) => {
          observeRpc(name, GrpcStatus.OK, started);
          answer(null, response);
        },
        (err: unknown) => {
          if (!(err instanceof DomainError)) ctx.log.error({ err, rpc: name }, 'rpc failed');
          const error = toServiceError(err);
          observeRpc(name, error.code ?? GrpcStatus.UNKNOWN, started);
          answer(error);
        },
      );
      inFlight.add(done);
      void done.finally(() => inFlight.delete(done));
    };
    byName.set(name, run);
    impl[name] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => run(call.request, call.metadata, callback, deadlineOf(call.getDeadline()));
  }
  runs.set(impl, byName);
  return impl;
}

export interface ServiceBinding {
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
  /** Full service name for the health check, e.g. `quire.orgs.v1.OrgsService`. */
  name: string;
}

export interface RunningGrpcServer {
  server: Server;
  port: number;
  health: HealthImplementation;
  /** True while every dependency of `checks` answered at the last look (always, without checks). */
  ready(): boolean;
  /** Asks the dependencies now and updates the health status (tests; the monitor asks on its own). */
  checkHealth(): Promise<boolean>;
  /** Stops taking calls, lets in-flight ones finish (up to `graceMs`), then closes. */
  shutdown(graceMs?: number): Promise<void>;
}

/** The largest message a service or client takes (a call's request, or an answer): 16 MiB. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** The largest file a space holds: its bytes travel in one message (`PutBlobs`), with room left for the rest. */
export const MAX_BLOB_BYTES = 15 * 1024 * 1024;
/** The most files one `PutBlobs` call stores (their bytes also within MAX_MESSAGE_BYTES). */
export const MAX_BLOBS_PER_CALL = 256;

export async function startGrpcServer(opts: {
  host: string;
  port: number;
  services: ServiceBinding[];
  /** Verifies every call's service assertion (health checks excepted) before a handler runs. */
  identity: ServiceIdentity;
  log: Logger;
  /** The stores the service needs: SERVING only while each answers. */
  checks?: HealthChecks;
  checkIntervalMs?: number;
}): Promise<RunningGrpcServer> {
  const server = new Server({ 'grpc.max_receive_message_length': MAX_MESSAGE_BYTES, ...LEAN, interceptors: [opts.identity.interceptor()] });
  const health = new HealthImplementation({ '': 'SERVING', ...Object.fromEntries(opts.services.map((s) => [s.name, 'SERVING' as const])) });
  health.addToServer(server);
  const routes = new Map<string, Route>();
  for (const s of opts.services) {
    server.addService(s.definition, s.implementation);
    for (const [name, method] of Object.entries(s.definition)) {
      const run = runs.get(s.implementation)?.get(name);
      if (run) routes.set(method.path, { method, run });
    }
  }
  server.addService(BatchServiceService, { call: serveBatches(routes, opts.identity) });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${opts.host}:${opts.port}`, ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  opts.log.info({ port }, 'gRPC server listening');
  const names = ['', ...opts.services.map((x) => x.name)];
  const monitor = monitorHealth(health, names, opts.checks ?? {}, opts.log, opts.checkIntervalMs);
  return {
    server,
    port,
    health,
    ready: monitor.ready,
    checkHealth: monitor.checkNow,
    async shutdown(graceMs = 10_000) {
      monitor.stop();
      for (const s of names) health.setStatus(s, 'NOT_SERVING');
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      const drained = new Promise<void>((resolve) => server.tryShutdown(() => resolve())).then(() => Promise.allSettled([...inFlight]));
      await Promise.race([drained, deadline]);
      clearTimeout(timer);
      server.forceShutdown();
    },
  };
}

// Channelz bookkeeping and the retry wrapper cost CPU on every call and serve nothing here:
// calls carry deadlines and the gateway answers 503 rather than retrying (bench/README.md, org-read).
export const LEAN = { 'grpc.enable_channelz': 0 } as const;

export { GrpcStatus };
