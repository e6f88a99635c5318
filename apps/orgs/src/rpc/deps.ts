import { decodeCursor, pageLimit, UnauthenticatedError, type CallContext } from '@quire/service-kit';
import type { PageRequest } from '@quire/proto/common';
import type { Page, Store } from '../store/index.ts';

export interface Deps {
  store: Store;
  /** Signs the visitor claims that `Ping` returns. */
  visitorClaimsKey: Uint8Array;
}

export function callerOf(ctx: CallContext): string {
  if (!ctx.userId) throw new UnauthenticatedError();
  return ctx.userId;
}

/** The page request as the store wants it, with the limit kept to cut the answer. */
export function pageArgs(page: PageRequest | undefined): { limit: number; page: Page } {
  const limit = pageLimit(page?.limit);
  return { limit, page: { after: decodeCursor(page?.page), take: limit + 1 } };
}
