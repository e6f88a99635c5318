import type { SealingKeys } from '@quire/service-kit/sealed';
import type { Events } from '../domain/events.ts';
import type { Store } from '../store/index.ts';

export { callerOf, pageArgs } from '@quire/service-kit';

export interface Deps {
  store: Store;
  /** Signs the visitor claims that `Ping` returns. */
  visitorClaimsKey: Uint8Array;
  /** Seals OIDC client secrets (QUIRE_SECRETS_KEY, and opens with the previous keys). */
  secretsKey: SealingKeys;
  events: Events;
  /** Browser sessions end when unused for `idleMs` and at the latest `maxAgeMs` after sign-in. */
  sessions: { idleMs: number; maxAgeMs: number };
}
