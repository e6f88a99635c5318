import type { Store } from '../store/index.ts';

export { callerOf, pageArgs } from '@quire/service-kit';

export interface Deps {
  store: Store;
  /** Signs the visitor claims that `Ping` returns. */
  visitorClaimsKey: Uint8Array;
}
