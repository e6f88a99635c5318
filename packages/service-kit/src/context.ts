import { randomUUID } from 'node:crypto';
import { Metadata } from '@grpc/grpc-js';
import { UnauthenticatedError } from './errors.js';
import type { Logger } from './logger.js';

export const USER_ID_KEY = 'x-quire-user-id';
export const REQUEST_ID_KEY = 'x-request-id';

/** Who calls and on behalf of which request: what every handler gets beside its message. */
export interface CallContext {
  /** The authenticated user, set by the gateway after `orgs.Authenticate`; absent for anonymous calls. */
  userId?: string;
  requestId: string;
  log: Logger;
}

export interface Caller {
  userId?: string;
  requestId?: string;
}

export function metadataFor(caller: Caller): Metadata {
  const md = new Metadata();
  if (caller.userId) md.set(USER_ID_KEY, caller.userId);
  if (caller.requestId) md.set(REQUEST_ID_KEY, caller.requestId);
  return md;
}

function first(md: Metadata, key: string): string | undefined {
  const v = md.get(key)[0];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

export function contextFromMetadata(md: Metadata, log: Logger): CallContext {
  const requestId = first(md, REQUEST_ID_KEY) ?? randomUUID();
  const userId = first(md, USER_ID_KEY);
  let child: Logger | undefined;
  return {
    userId,
    requestId,
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
