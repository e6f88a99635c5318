// Signed links: a URL that grants one thing (a file's bytes, a PDF) to whoever holds it until it
// expires, without a token. HMAC-SHA256 over the path and its parameters; the secret comes from
// `QUIRE_LINK_SECRET`, or is drawn at start (links then die with the process, which is safe).
// While the secret is rotated, `QUIRE_LINK_SECRET_PREVIOUS` still verifies what the old one signed.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { keyById, makeKeyring, type Keyring } from '@quire/service-kit';

/** The secret that signs, and older ones that still verify. */
export interface LinkSecrets {
  current?: string;
  previous?: readonly string[];
}

/** The link secrets the configuration names. */
export const linkSecrets = (config: { QUIRE_LINK_SECRET?: string; QUIRE_LINK_SECRET_PREVIOUS?: string }): LinkSecrets => ({
  current: config.QUIRE_LINK_SECRET,
  previous: config.QUIRE_LINK_SECRET_PREVIOUS?.split(',') ?? [],
});

// A signature: the id of the key that made it (8 hex), then the HMAC (64 hex). Those made before
// keys had ids are the HMAC alone: they are checked against every configured secret.
const SIGNATURE = /^([0-9a-f]{8})?([0-9a-f]{64})$/;

/** HMAC-SHA256 signatures under the secrets (each turned into its key by `derive`). */
function macs(secrets: LinkSecrets, derive: (secret: Buffer) => Buffer) {
  const keyOf = (secret: string | undefined) => derive(secret ? Buffer.from(secret, 'utf8') : randomBytes(32));
  const ring: Keyring = makeKeyring(keyOf(secrets.current), (secrets.previous ?? []).map(keyOf));
  const mac = (key: Buffer, data: string) => createHmac('sha256', key).update(data).digest();
  return {
    sign: (data: string) => ring.current.id.toString('hex') + mac(ring.current.key, data).toString('hex'),
    verify(data: string, signature: string): boolean {
      const [, id, hex] = SIGNATURE.exec(signature) ?? [];
      if (!hex) return false;
      const named = id === undefined ? ring.keys : [keyById(ring, Buffer.from(id, 'hex'))].filter((k) => k !== undefined);
      return named.some(({ key }) => timingSafeEqual(mac(key, data), Buffer.from(hex, 'hex')));
    },
  };
}

export interface LinkSigner {
  /** `path?<params>&exp=<unix seconds>&sig=<key id><hex>` under the public address, valid for exactly `ttlSeconds`. */
  sign(path: string, params: Record<string, string>, ttlSeconds?: number): string;
  /** Whether `sig` signs `path` with these params and `exp` under a configured secret, and `exp` is not past. */
  verify(path: string, params: Record<string, string>, exp: number, sig: string): boolean;
}

const HOUR = 3600;

export function makeLinkSigner(publicUrl: string, secrets: LinkSecrets, now: () => number = Date.now): LinkSigner {
  const signatures = macs(secrets, (secret) => secret);
  const base = publicUrl.replace(/\/$/, '');
  const signed = (path: string, params: Record<string, string>, exp: number) => JSON.stringify([path, Object.entries(params).sort(([a], [b]) => a.localeCompare(b)), exp]);
  return {
    sign(path, params, ttlSeconds = HOUR) {
      // Exact to the second: a link lives as long as the code asks, never more.
      const exp = Math.floor(now() / 1000) + ttlSeconds;
      const query = new URLSearchParams({ ...params, exp: String(exp), sig: signatures.sign(signed(path, params, exp)) });
      return `${base}${path}?${query}`;
    },
    verify(path, params, exp, sig) {
      if (!Number.isInteger(exp) || exp * 1000 < now()) return false;
      return signatures.verify(signed(path, params, exp), sig);
    },
  };
}

export interface ValueSigner {
  /** `<base64url JSON>.<exp>.<key id><hex HMAC>`, valid for `ttlSeconds`. */
  sign(value: unknown, ttlSeconds: number): string;
  /** The value, when the signature is good and not expired; else undefined. */
  verify<T>(signed: string): T | undefined;
}

/**
 * Short-lived values a browser carries for us (the OIDC sign-in state cookie). The keys are the
 * link secrets', derived per purpose so that a link's signature never passes for a value's.
 */
export function makeValueSigner(secrets: LinkSecrets, purpose: string, now: () => number = Date.now): ValueSigner {
  const signatures = macs(secrets, (secret) => createHmac('sha256', secret).update(purpose).digest());
  return {
    sign(value, ttlSeconds) {
      const body = Buffer.from(JSON.stringify(value)).toString('base64url');
      const exp = Math.floor(now() / 1000) + ttlSeconds;
      return `${body}.${exp}.${signatures.sign(`${body}.${exp}`)}`;
    },
    verify<T>(signed: string) {
      const [body, expText, sig] = signed.split('.');
      const exp = Number(expText);
      if (!body || !sig || !Number.isInteger(exp) || exp * 1000 < now()) return undefined;
      if (!signatures.verify(`${body}.${exp}`, sig)) return undefined;
      try {
        return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
      } catch {
        return undefined;
      }
    },
  };
}
