// The client middleware every call to another service goes through, composed as nice-grpc's
// client middleware is: each step gets the call and the next step, and may change the call or its
// outcome. They run above the transport, not as grpc-js interceptors, because calls made together
// travel in one batch (batch.ts): an interceptor would see the batch, not the calls inside it.
import type { Metadata, MethodDefinition } from '@grpc/grpc-js';
import type { ServiceIdentity } from './assertion.js';
import type { ServiceName } from './callers.js';
import type { Caller } from './context.js';
import { isServiceError, relayedStatus, serviceError } from './errors.js';
import type { Logger } from './logger.js';
import { traceClientCall } from './tracing.js';

/** One unary call on its way out. */
export interface ClientCall {
  method: MethodDefinition<unknown, unknown>;
  request: unknown;
  /** Whom the call is for: the context of the call being served, passed on. */
  caller: Caller;
  /** Headers sent with the call: the identity step puts the assertion in. */
  metadata: Metadata;
  /** The time bound of this RPC, from now. */
  timeoutMs: number;
  /** When set, the call must be answered by then (ms since the epoch): the caller's own deadline, sooner than `timeoutMs`. */
  deadline?: number;
  /** Sent at once, never batched. */
  alone: boolean;
}

export type CallNext = (call: ClientCall) => Promise<unknown>;
export type ClientMiddleware = (call: ClientCall, next: CallNext) => Promise<unknown>;

/** The steps in order, the first outermost, ending with `transport`. */
export const composeClientMiddleware = (middleware: readonly ClientMiddleware[], transport: CallNext): CallNext =>
  middleware.reduceRight<CallNext>((next, step) => (call) => step(call, next), transport);

/** Signs the call for `audience` on behalf of its caller (the user and the chain of services), with the request id and client details. */
export const identityMiddleware =
  (identity: ServiceIdentity, audience: ServiceName): ClientMiddleware =>
  async (call, next) =>
    next({ ...call, metadata: await identity.metadata(audience, call.caller) });

/** A client span around the call, its context in the metadata (nothing when tracing is off). */
export const tracingMiddleware: ClientMiddleware = async (call, next) => {
  const end = traceClientCall(call.method.path, call.metadata);
  if (!end) return next(call);
  try {
    const response = await next(call);
    end(null);
    return response;
  } catch (err) {
    end(err);
    throw err;
  }
};

/** The RPC's own time bound, or what is left of the caller's deadline when that is sooner: a call never outlives the request it serves. */
export const deadlineMiddleware: ClientMiddleware = (call, next) => {
  const callerDeadline = call.caller.deadline;
  return next(callerDeadline !== undefined && callerDeadline < Date.now() + call.timeoutMs ? { ...call, deadline: callerDeadline } : call);
};

/**
 * Another service's failure as `relayedStatus` rules: a refusal unchanged, anything else with its
 * details logged here and kept out of the error the caller sees (and may answer with).
 */
export const errorRelayMiddleware =
  (log: Logger): ClientMiddleware =>
  async (call, next) => {
    try {
      return await next(call);
    } catch (err) {
      if (!isServiceError(err)) throw err;
      const { code, details, hidden } = relayedStatus(err);
      if (!hidden) throw err;
      (call.caller.log ?? log).warn({ rpc: call.method.path, code: err.code, details: err.details }, 'call to another service failed');
      throw serviceError(code, details);
    }
  };

/** Every client's chain: relay outermost (it sees every failure), then identity, tracing and deadline. */
export const defaultClientMiddleware = (identity: ServiceIdentity, audience: ServiceName, log: Logger): ClientMiddleware[] => [
  errorRelayMiddleware(log),
  identityMiddleware(identity, audience),
  tracingMiddleware,
  deadlineMiddleware,
];
