import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { secret } from './config.js';
import { KEY_ID_BYTES, keyById, makeKeyring, type Keyring, type NamedKey } from './keyring.js';

// Values kept or sent where they must not be readable (integration secrets, one job's repository
// credentials): AES-256-GCM, bound to a context string (additional data) so that a sealed value
// copied onto another row or job does not open there.
//   Layout: 0x01 | key id (4 bytes) | 12-byte nonce | 16-byte tag | ciphertext. The version byte
//   and key id are part of the additional data, so neither can be altered.
//   Before keys rotated: 12-byte nonce | 16-byte tag | ciphertext, with no key id. Such values
//   open by trying each configured key (their first byte is random, so 1 in 256 looks like a
//   version byte: those are tried both ways).
const VERSION = 1;
const HEADER = 1 + KEY_ID_BYTES;
const NONCE = 12;
const TAG = 16;

const KEY = '[A-Za-z0-9+/]{43}=';

/** The config field of the sealing key: 32 bytes, base64. */
const secretsKeyField = secret(Type.String({ pattern: `^${KEY}$`, description: '32 bytes, base64' }));

/** The sealing settings every service that seals spreads into its config schema. */
export const secretsKeyFields = {
  /** Seals new values, and opens them. */
  QUIRE_SECRETS_KEY: secretsKeyField,
  /** Keys in use before the current one, comma-separated: what they sealed still opens (until `quire secrets reseal`). */
  QUIRE_SECRETS_KEY_PREVIOUS: Type.Optional(Type.String({ pattern: `^${KEY}(,${KEY})*$`, description: 'comma-separated keys of 32 bytes, base64' })),
};

export interface SecretsKeySettings {
  QUIRE_SECRETS_KEY?: string;
  QUIRE_SECRETS_KEY_PREVIOUS?: string;
}

/**
 * A table column of sealed values, as its service declares it for `quire secrets reseal`: each row
 * is found by its primary key `key` and was sealed for `context(key)`, the context the service
 * itself seals and opens it with.
 */
export interface SealedColumn {
  table: string;
  column: string;
  key: string;
  context: (key: string) => string;
}

/** A key ring, or one key alone. */
export type SealingKeys = Keyring | Uint8Array;

const ringOf = (keys: SealingKeys): Keyring => (keys instanceof Uint8Array ? makeKeyring(keys) : keys);

/** The previous keys of the settings, decoded (their format is checked by `secretsKeyFields`). */
export const previousSecretsKeys = (settings: SecretsKeySettings): Buffer[] =>
  settings.QUIRE_SECRETS_KEY_PREVIOUS ? settings.QUIRE_SECRETS_KEY_PREVIOUS.split(',').map((k) => Buffer.from(k, 'base64')) : [];

/** The configured keys, or a per-process current key (with the warning what that costs) beside any previous ones. */
export function loadSecretsKeys(settings: SecretsKeySettings, warn: (msg: string) => void, without: string): Keyring {
  if (!settings.QUIRE_SECRETS_KEY) warn(`QUIRE_SECRETS_KEY is not set: ${without}`);
  const current = settings.QUIRE_SECRETS_KEY ? Buffer.from(settings.QUIRE_SECRETS_KEY, 'base64') : randomBytes(32);
  return makeKeyring(current, previousSecretsKeys(settings));
}

function sealBytes(plain: Buffer, context: string, { id, key }: NamedKey): Buffer {
  const header = Buffer.concat([Buffer.of(VERSION), id]);
  const nonce = randomBytes(NONCE);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.concat([header, Buffer.from(context, 'utf8')]));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([header, nonce, cipher.getAuthTag(), body]);
}

/** The plaintext of nonce | tag | ciphertext, or undefined when the key or the additional data do not match. */
function decrypt(key: Uint8Array, aad: Buffer, sealed: Buffer): Buffer | undefined {
  if (sealed.length < NONCE + TAG) return undefined;
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, NONCE));
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(NONCE, NONCE + TAG));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(NONCE + TAG)), decipher.final()]);
  } catch {
    return undefined;
  }
}

/** The plaintext, and whether the ring's current key sealed it in the current layout. */
function open(sealed: Uint8Array, context: string, ring: Keyring): { plain: Buffer; current: boolean } {
  const buf = Buffer.from(sealed);
  const ctx = Buffer.from(context, 'utf8');
  const id = buf[0] === VERSION && buf.length >= HEADER + NONCE + TAG ? buf.subarray(1, HEADER) : undefined;
  const named = id && keyById(ring, id);
  if (named) {
    const plain = decrypt(named.key, Buffer.concat([buf.subarray(0, HEADER), ctx]), buf.subarray(HEADER));
    if (plain) return { plain, current: named === ring.current };
  }
  for (const { key } of ring.keys) {
    const plain = decrypt(key, ctx, buf);
    if (plain) return { plain, current: false };
  }
  if (id && !named) throw new Error(`sealed value does not open: sealed with key ${id.toString('hex')}, which is neither QUIRE_SECRETS_KEY nor one of QUIRE_SECRETS_KEY_PREVIOUS`);
  throw new Error('sealed value does not open: sealed with another key or for another context, or altered');
}

export function seal(value: unknown, context: string, keys: SealingKeys): Buffer {
  return sealBytes(Buffer.from(JSON.stringify(value), 'utf8'), context, ringOf(keys).current);
}

/** The value back; throws when it was not sealed with a configured key for this context, or was altered. */
export function unseal<T>(sealed: Uint8Array, context: string, keys: SealingKeys): T {
  return JSON.parse(open(sealed, context, ringOf(keys)).plain.toString('utf8')) as T;
}

/** The value sealed again with the current key; undefined when it already is. Throws as `unseal` does. */
export function reseal(sealed: Uint8Array, context: string, keys: SealingKeys): Buffer | undefined {
  const ring = ringOf(keys);
  const { plain, current } = open(sealed, context, ring);
  return current ? undefined : sealBytes(plain, context, ring.current);
}
