// Signed links: a URL that grants one thing (a file's bytes, a PDF) to whoever holds it until it
// expires, without a token. HMAC-SHA256 over the path and its parameters; the secret comes from
// `QUIRE_LINK_SECRET`, or is drawn at start (links then die with the process, which is safe).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface LinkSigner {
  /** `path?<params>&exp=<unix seconds>&sig=<hex>` under the public address, valid for exactly `ttlSeconds`. */
  sign(path: string, params: Record<string, string>, ttlSeconds?: number): string;
  /** Whether `sig` signs `path` with these params and `exp`, and `exp` is not past. */
  verify(path: string, params: Record<string, string>, exp: number, sig: string): boolean;
}

const HOUR = 3600;

export function makeLinkSigner(publicUrl: string, secret: string | undefined, now: () => number = Date.now): LinkSigner {
  const key = secret ? Buffer.from(secret, 'utf8') : randomBytes(32);
  const base = publicUrl.replace(/\/$/, '');
  const mac = (path: string, params: Record<string, string>, exp: number) =>
    createHmac('sha256', key)
      .update(JSON.stringify([path, Object.entries(params).sort(([a], [b]) => a.localeCompare(b)), exp]))
      .digest('hex');
  return {
    sign(path, params, ttlSeconds = HOUR) {
      // Exact to the second: a link lives as long as the code asks, never more.
      const exp = Math.floor(now() / 1000) + ttlSeconds;
      const query = new URLSearchParams({ ...params, exp: String(exp), sig: mac(path, params, exp) });
      return `${base}${path}?${query}`;
    },
    verify(path, params, exp, sig) {
      if (!Number.isInteger(exp) || exp * 1000 < now() || !/^[0-9a-f]{64}$/.test(sig)) return false;
      return timingSafeEqual(Buffer.from(mac(path, params, exp), 'hex'), Buffer.from(sig, 'hex'));
    },
  };
}

export interface ValueSigner {
  /** `<base64url JSON>.<exp>.<hex HMAC>`, valid for `ttlSeconds`. */
  sign(value: unknown, ttlSeconds: number): string;
  /** The value, when the signature is good and not expired; else undefined. */
  verify<T>(signed: string): T | undefined;
}

/**
 * Short-lived values a browser carries for us (the OIDC sign-in state cookie). The key is the
 * link secret's, derived per purpose so that a link's signature never passes for a value's.
 */
export function makeValueSigner(secret: string | undefined, purpose: string, now: () => number = Date.now): ValueSigner {
  const key = createHmac('sha256', secret ? Buffer.from(secret, 'utf8') : randomBytes(32))
    .update(purpose)
    .digest();
  const mac = (body: string, exp: number) => createHmac('sha256', key).update(`${body}.${exp}`).digest('hex');
  return {
    sign(value, ttlSeconds) {
      const body = Buffer.from(JSON.stringify(value)).toString('base64url');
      const exp = Math.floor(now() / 1000) + ttlSeconds;
      return `${body}.${exp}.${mac(body, exp)}`;
    },
    verify<T>(signed: string) {
      const [body, expText, sig] = signed.split('.');
      const exp = Number(expText);
      if (!body || !sig || !/^[0-9a-f]{64}$/.test(sig) || !Number.isInteger(exp) || exp * 1000 < now()) return undefined;
      if (!timingSafeEqual(Buffer.from(mac(body, exp), 'hex'), Buffer.from(sig, 'hex'))) return undefined;
      try {
        return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
      } catch {
        return undefined;
      }
    },
  };
}
