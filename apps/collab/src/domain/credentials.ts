import { parse as parseCookies } from 'cookie';

/** What a connection authenticates with: an API token sent by the provider, else the session cookie. */
export type Credential = { kind: 'token'; secret: string } | { kind: 'session'; secret: string };

/** Why a connection is refused before anyone is asked. */
export class Refusal extends Error {
  /** Sent to the provider (its `onAuthenticationFailed` reason). */
  readonly reason: string;
  constructor(reason: string) {
    super(reason);
    this.reason = reason;
  }
}

const MAX_SECRET = 1024;

/**
 * The credential of a WebSocket: the provider's token when it sends one, else the gateway's session
 * cookie. A browser sends the cookie on any site's WebSocket, so a cookie counts only with an
 * `Origin` among the web app's; a token is the client's own and needs none, but a browser's
 * (which always names its page's origin) must still come from there.
 */
export function credentialOf(token: string, headers: Headers, cookieName: string, origins: Set<string>): Credential {
  const origin = headers.get('origin');
  if (origin !== null && !origins.has(origin)) throw new Refusal(`origin ${origin.slice(0, 200)} is not the web app's`);
  if (token) {
    if (token.length > MAX_SECRET) throw new Refusal('the token is too long');
    return { kind: 'token', secret: token };
  }
  const session = parseCookies(headers.get('cookie') ?? '')[cookieName];
  if (!session || session.length > 256) throw new Refusal('authentication required: sign in, or send an API token');
  if (origin === null) throw new Refusal('a session needs the Origin header of the web app');
  return { kind: 'session', secret: session };
}
