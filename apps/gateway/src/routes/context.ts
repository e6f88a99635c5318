import type { Services } from '../clients.ts';
import type { Authenticator } from '../credentials.ts';
import type { Urls } from '../presenters/urls.ts';
import type { Sessions } from '../sessions.ts';
import type { LinkSigner } from '../signing.ts';

/** What every route group is given. */
export interface RouteDeps {
  services: Services;
  urls: Urls;
  /** Signs download links (files, PDFs) served without a token. */
  links: LinkSigner;
  /** The session cookie: issue one at sign-in (`sessions.issue`), read it, check CSRF. */
  sessions: Sessions;
  /** Resolves tokens and sessions (cached, revocations honoured at once). */
  authenticator: Authenticator;
  /** Failed sign-ins allowed per account and per address within the window. */
  signInThrottle: { perAccount: number; perAddress: number; windowMs: number };
}
