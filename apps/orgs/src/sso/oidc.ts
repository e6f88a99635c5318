import * as client from 'openid-client';
import { PermissionDeniedError, InvalidArgumentError } from '@quire/service-kit';
import { checkPublicUrl, fetchPublic } from '@quire/service-kit/outbound';

// The OpenID Connect relying party (openid-client): discovery, the authorization request with
// state, nonce and PKCE, and the code exchange with the ID token's checks.

const LIMITS = { maxBytes: 1 << 20, timeoutMs: 10_000 };

/**
 * Every request to a provider goes through the outbound filter: plain GETs (discovery, JWKS)
 * through the filtering agent, the others (token, userinfo) after checking the address.
 */
const filteredFetch: client.CustomFetch = async (url, options) => {
  const headers = new Headers(options.headers);
  if (options.method === 'GET' && !headers.has('authorization')) {
    const res = await fetchPublic(url, LIMITS, { field: 'issuer' });
    return new Response(res.status === 204 ? null : new Uint8Array(res.body), { status: res.status, headers: { 'content-type': res.contentType } });
  }
  await checkPublicUrl(url, { field: 'issuer' });
  return fetch(url, { ...(options as RequestInit), redirect: 'manual', signal: AbortSignal.timeout(LIMITS.timeoutMs) });
};

export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** The library's message with its cause's (which says what did not match). */
function reason(err: unknown): string {
  const e = err as Error & { cause?: unknown };
  return e.cause instanceof Error ? `${e.message}: ${e.cause.message}` : e.message;
}

async function configure({ issuer, clientId, clientSecret }: OidcClientSettings): Promise<client.Configuration> {
  const { privateAddress } = await checkPublicUrl(issuer, { field: 'issuer' });
  try {
    return await client.discovery(new URL(issuer), clientId, undefined, client.ClientSecretPost(clientSecret), {
      [client.customFetch]: filteredFetch,
      // Plain http only for a provider on a private address the settings let through (a closed
      // network, tests): a provider on the internet is reached over https.
      execute: privateAddress ? [client.allowInsecureRequests] : [],
      timeout: LIMITS.timeoutMs / 1000,
    });
  } catch (err) {
    if (err instanceof InvalidArgumentError) throw err;
    throw new PermissionDeniedError(`issuer: the provider's discovery failed (${reason(err)})`);
  }
}

export async function oidcAuthorizationRequest(settings: OidcClientSettings, redirectUri: string) {
  const config = await configure(settings);
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { authorizationUrl: url.href, state, nonce, codeVerifier };
}

/**
 * The claims of the user the callback proves, after the checks of state, PKCE, the ID token's
 * signature, issuer, audience and nonce; userinfo fills in an email the ID token lacks.
 */
export async function oidcCallbackClaims(
  settings: OidcClientSettings,
  callback: { redirectUri: string; callbackUrl: string; state: string; nonce: string; codeVerifier: string },
): Promise<Record<string, unknown>> {
  const config = await configure(settings);
  const url = new URL(callback.callbackUrl);
  if (url.origin + url.pathname !== callback.redirectUri) throw new InvalidArgumentError('callbackUrl: not the redirect URI');
  try {
    const tokens = await client.authorizationCodeGrant(config, url, {
      expectedState: callback.state,
      expectedNonce: callback.nonce,
      pkceCodeVerifier: callback.codeVerifier,
      idTokenExpected: true,
    });
    const claims = tokens.claims()! as Record<string, unknown>;
    if (claims.email !== undefined) return claims;
    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub as string);
    return { ...info, ...claims };
  } catch (err) {
    if (err instanceof InvalidArgumentError) throw err;
    throw new PermissionDeniedError(`the OpenID Connect sign-in was refused: ${reason(err)}`);
  }
}
