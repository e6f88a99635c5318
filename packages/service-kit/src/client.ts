import {
  credentials,
  Metadata,
  type CallOptions,
  type ChannelOptions,
  type Client,
  type ClientUnaryCall,
  type MethodDefinition,
  type ServiceDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import type { ServiceIdentity } from './assertion.js';
import { CallBatcher } from './batch.js';
import type { ServiceName } from './callers.js';
import { composeClientMiddleware, defaultClientMiddleware, type CallNext } from './client-middleware.js';
import type { Caller } from './context.js';
import { LEAN, MAX_MESSAGE_BYTES } from './grpc.js';
import { createLogger, type Logger } from './logger.js';

/** An RPC's time bound unless its client says otherwise. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The grpc-js target of an address setting: `host:port`, a `dns:` name (every address it resolves
 * to), or a static list `10.0.0.1:50051,10.0.0.2:50051` of IP addresses (names in a list are not
 * resolved by grpc-js: use one name that resolves to all of them instead).
 */
export function grpcTarget(address: string): string {
  if (!address.includes(',')) return address;
  const entries = address.split(',');
  if (entries.every((e) => /^\d+\.\d+\.\d+\.\d+:\d+$/.test(e))) return `ipv4:${address}`;
  if (entries.every((e) => e.startsWith('['))) return `ipv6:${address}`;
  throw new Error(`${address}: a list of addresses takes IP addresses only (one DNS name resolving to several works too)`);
}

export type ClientConstructor<C extends Client> = new (address: string, creds: ReturnType<typeof credentials.createInsecure>, options?: ChannelOptions) => C;

/**
 * One long-lived channel per service: clients are created once per process and reused. Calls are
 * spread over every address the target resolves to (round_robin), so replicas share the load and
 * one that goes away is skipped.
 */
export function createClient<C extends Client>(Ctor: ClientConstructor<C>, address: string): C {
  return new Ctor(grpcTarget(address), credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.keepalive_timeout_ms': 10_000,
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.enable_retries': 0,
    'grpc.service_config': ROUND_ROBIN,
    ...LEAN,
  });
}

const ROUND_ROBIN = JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] });

type UnaryMethod<Req, Res> = (request: Req, metadata: Metadata, options: Partial<CallOptions>, callback: (error: ServiceError | null, response: Res) => void) => ClientUnaryCall;

/** Whom a client calls and as whom: the calling service's identity signs for the `audience` service; `log` takes the failures kept from callers. */
export interface Callee {
  identity: ServiceIdentity;
  audience: ServiceName;
  log?: Logger;
}

let fallbackLog: Logger | undefined;

/** A channel's calls through the client middleware chain, batched at its end. */
function middlewareChain(client: Client, callee: Callee): CallNext {
  const log = callee.log ?? (fallbackLog ??= createLogger('grpc-client'));
  return composeClientMiddleware(defaultClientMiddleware(callee.identity, callee.audience, log), new CallBatcher(client, callee.identity, callee.audience).send);
}

/** Calls a unary RPC as a promise through the middleware chain: alone, never batched (tests, benchmarks). */
export function unaryCall<Req, Res>(client: Client, method: UnaryMethod<Req, Res>, request: Req, caller: Caller, callee: Callee, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Res> {
  // A generated client's method carries its definition (path, serializers) as properties.
  const definition = method as unknown as MethodDefinition<unknown, unknown>;
  return middlewareChain(client, callee)({ method: definition, request, caller, metadata: new Metadata(), timeoutMs, alone: true }) as Promise<Res>;
}

/** A generated client as promise-returning methods, each taking the request and the caller. */
export type PromiseClient<C> = {
  [K in keyof C as C[K] extends UnaryMethod<infer _Req, infer _Res> ? K : never]: C[K] extends UnaryMethod<infer Req, infer Res>
    ? (request: Req, caller: Caller) => Promise<Res>
    : never;
};

/** RPCs that do long work (an import that fetches a website), each with its own time bound. */
export type SlowRpcs<C> = Partial<Record<keyof PromiseClient<C>, number>>;

/**
 * Wraps a generated client once, at start: one bound function per RPC of the service definition,
 * so a call costs no lookup or proxy on the hot path. Every call goes through the client
 * middleware (identity, tracing, deadline, error relay), and calls made in the same turn of the
 * event loop travel as one batch (`CallBatcher`).
 */
export function promiseClient<C extends Client>(
  client: C,
  definition: ServiceDefinition,
  callee: Callee,
  timeoutMs = DEFAULT_TIMEOUT_MS,
  slow: SlowRpcs<C> = {},
): PromiseClient<C> {
  const send = middlewareChain(client, callee);
  const out: Record<string, (request: unknown, caller: Caller) => Promise<unknown>> = {};
  for (const [name, method] of Object.entries(definition)) {
    const bound = (slow as Record<string, number | undefined>)[name] ?? timeoutMs;
    out[name] = (request, caller) => send({ method, request, caller, metadata: new Metadata(), timeoutMs: bound, alone: false });
  }
  return out as PromiseClient<C>;
}

/** A service this process calls: its generated client and definition, where it runs, and its time bounds when not the default. */
export interface Upstream<C extends Client> {
  client: ClientConstructor<C>;
  definition: ServiceDefinition;
  address: string;
  audience: ServiceName;
  timeoutMs?: number;
  slow?: SlowRpcs<C>;
}

/** A channel with the full name of the service it reaches, as its health check knows it (readiness, shutdown). */
export interface Channel {
  name: string;
  client: Client;
}

/** The promise clients by name, with their channels and one close for all. */
export interface Upstreams<T extends Record<string, Client>> {
  clients: { [K in keyof T]: PromiseClient<T[K]> };
  channels: Channel[];
  close(): void;
}

/**
 * Every client of a process, made the one way: a channel per service, its calls signed by
 * `identity` and through the client middleware. Used by the gateway, the reader and every service.
 */
export function connectUpstreams<T extends Record<string, Client>>(
  identity: ServiceIdentity,
  upstreams: { [K in keyof T]: Upstream<T[K]> },
  options: { timeoutMs?: number; log?: Logger } = {},
): Upstreams<T> {
  const clients = {} as Upstreams<T>['clients'];
  const channels: Upstreams<T>['channels'] = [];
  for (const key of Object.keys(upstreams) as (keyof T & string)[]) {
    const u = upstreams[key];
    const client = createClient(u.client, u.address);
    clients[key] = promiseClient(client, u.definition, { identity, audience: u.audience, log: options.log }, u.timeoutMs ?? options.timeoutMs, u.slow);
    // The service's full name, as its health check knows it: `/quire.orgs.v1.OrgsService/GetUser` → `quire.orgs.v1.OrgsService`.
    channels.push({ name: Object.values(u.definition)[0]!.path.split('/')[1]!, client });
  }
  return {
    clients,
    channels,
    close() {
      for (const c of channels) c.client.close();
    },
  };
}
