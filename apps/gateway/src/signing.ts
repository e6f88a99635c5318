// Signed links: a URL that grants one thing (a file's bytes, a PDF) to whoever holds it until it
// expires, without a token. HMAC-SHA256 over the path and its parameters; the secret comes from
// `QUIRE_LINK_SECRET`, or is drawn at start (links then die with the process, which is safe).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface LinkSigner {
  /** `path?<params>&exp=<unix seconds>&sig=<hex>` under the public address, valid for about `ttlSeconds`. */
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
      // Rounded up to the hour: the same file read twice within the hour gets the same URL, which caches.
      const exp = Math.ceil((now() / 1000 + ttlSeconds) / HOUR) * HOUR;
      const query = new URLSearchParams({ ...params, exp: String(exp), sig: mac(path, params, exp) });
      return `${base}${path}?${query}`;
    },
    verify(path, params, exp, sig) {
      if (!Number.isInteger(exp) || exp * 1000 < now() || !/^[0-9a-f]{64}$/.test(sig)) return false;
      return timingSafeEqual(Buffer.from(mac(path, params, exp), 'hex'), Buffer.from(sig, 'hex'));
    },
  };
}
