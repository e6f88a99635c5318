import { randomUUID } from 'node:crypto';
import type { Metadata } from '@grpc/grpc-js';
import type { Principal, ServiceName } from './callers.js';
import { UnauthenticatedError } from './errors.js';
import type { Logger } from './logger.js';

export const REQUEST_ID_KEY = 'x-request-id';
/** The end client's address and user agent, as the gateway saw them: for the audit log. */
export const CLIENT_IP_KEY = 'x-quire-client-ip';
export const USER_AGENT_KEY = 'x-quire-user-agent';

/** Who calls and on behalf of which request: what every handler gets beside its message. */
export interface CallContext {
  /** The user the verified service assertion names (the gateway's after `orgs.Authenticate`); absent for anonymous calls. */
  userId?: string;
  /** The services the call came through, the original caller first and the calling service last. */
  chain: readonly ServiceName[];
  requestId: string;
  ip?: string;
  userAgent?: string;
  /** When the caller stops waiting (ms since the epoch); the calls this one makes end by then too. */
  deadline?: number;
  log: Logger;
}

/** Who an outgoing call is for: a service passes its own `CallContext` on, so the callee sees the original caller and every service between. */
export interface Caller {
  userId?: string;
  /** The services the call being served came through; absent when this service originates the call. */
  chain?: readonly ServiceName[];
  requestId?: string;
  ip?: string;
  userAgent?: string;
  /** The deadline of the call being served: calls made for it are answered by then. */
  deadline?: number;
  /** Where the client middleware logs a failure it keeps from the caller (with the request id when it is a `CallContext`). */
  log?: Logger;
}

function first(md: Metadata, key: string): string | undefined {
  const v = md.get(key)[0];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** The handler's context: the caller from the verified assertion, the request id from the metadata, the call's deadline. */
export function contextFromCall(md: Metadata, principal: Principal, log: Logger, deadline?: number): CallContext {
  const requestId = first(md, REQUEST_ID_KEY) ?? randomUUID();
  let child: Logger | undefined;
  return {
    userId: principal.userId,
    chain: principal.chain,
    requestId,
    ip: first(md, CLIENT_IP_KEY),
    userAgent: first(md, USER_AGENT_KEY),
    deadline,
    // Made on first use: most calls log nothing, and a child logger per call showed in profiles.
    get log() {
      return (child ??= log.child({ requestId }));
    },
  };
}

/** The calling user; UNAUTHENTICATED when the call came without one. */
export function callerOf(ctx: CallContext): string {
  if (!ctx.userId) throw new UnauthenticatedError();
  return ctx.userId;
}

/** True when `service` itself originated the call, for no user (the reader serving published sites). */
export function callsAsItself(ctx: CallContext, service: ServiceName): boolean {
  return !ctx.userId && ctx.chain[0] === service;
}
