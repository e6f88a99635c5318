import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { secret } from './config.js';

// Values kept or sent where they must not be readable (integration secrets, one job's repository
// credentials): AES-256-GCM, bound to a context string (additional data) so that a sealed value
// copied onto another row or job does not open there. Layout: 12-byte nonce | 16-byte tag | ciphertext.
const NONCE = 12;
const TAG = 16;

/** The config field of the sealing key: 32 bytes, base64. */
export const secretsKeyField = secret(Type.String({ pattern: '^[A-Za-z0-9+/]{43}=$', description: '32 bytes, base64' }));

/** The configured key, or a per-process one (with the warning what that costs). */
export function loadSecretsKey(configured: string | undefined, warn: (msg: string) => void, without: string): Buffer {
  if (configured) return Buffer.from(configured, 'base64');
  warn(`QUIRE_SECRETS_KEY is not set: ${without}`);
  return randomBytes(32);
}

export function seal(value: unknown, context: string, key: Uint8Array): Buffer {
  const nonce = randomBytes(NONCE);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), body]);
}

/** The value back; throws when the key, the context or the bytes are not those it was sealed with. */
export function unseal<T>(sealed: Uint8Array, context: string, key: Uint8Array): T {
  const buf = Buffer.from(sealed);
  const decipher = createDecipheriv('aes-256-gcm', key, buf.subarray(0, NONCE));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(buf.subarray(NONCE, NONCE + TAG));
  return JSON.parse(Buffer.concat([decipher.update(buf.subarray(NONCE + TAG)), decipher.final()]).toString('utf8')) as T;
}
