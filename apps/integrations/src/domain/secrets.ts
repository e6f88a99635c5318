import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// AES-256-GCM, bound to the integration's name (additional data), so that a sealed value copied
// onto another row does not open there. Layout: 12-byte nonce | 16-byte tag | ciphertext.
const NONCE = 12;
const TAG = 16;

export function sealSecrets(secrets: Record<string, string>, name: string, key: Uint8Array): Uint8Array<ArrayBuffer> {
  const nonce = randomBytes(NONCE);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(name, 'utf8'));
  const body = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return new Uint8Array(Buffer.concat([nonce, cipher.getAuthTag(), body]));
}

/** The secrets back; throws when the key, the name or the bytes are not those they were sealed with. */
export function openSecrets(sealed: Uint8Array, name: string, key: Uint8Array): Record<string, string> {
  const buf = Buffer.from(sealed);
  const decipher = createDecipheriv('aes-256-gcm', key, buf.subarray(0, NONCE));
  decipher.setAAD(Buffer.from(name, 'utf8'));
  decipher.setAuthTag(buf.subarray(NONCE, NONCE + TAG));
  return JSON.parse(Buffer.concat([decipher.update(buf.subarray(NONCE + TAG)), decipher.final()]).toString('utf8')) as Record<string, string>;
}
