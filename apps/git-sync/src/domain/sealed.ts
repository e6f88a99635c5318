import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Repository credentials travel on the job message sealed with AES-256-GCM (the scheme
// apps/integrations uses for secrets), bound to the job id as additional data so a sealed value
// copied onto another job does not open. Layout: 12-byte nonce | 16-byte tag | ciphertext.
const NONCE = 12;
const TAG = 16;

export interface Credentials {
  username: string;
  password: string;
}

export function sealCredentials(credentials: Credentials, jobId: string, key: Uint8Array): string {
  const nonce = randomBytes(NONCE);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(jobId, 'utf8'));
  const body = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64');
}

/** The credentials back; throws when the key, the job id or the bytes are not those they were sealed with. */
export function openCredentials(sealed: string, jobId: string, key: Uint8Array): Credentials {
  const buf = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, buf.subarray(0, NONCE));
  decipher.setAAD(Buffer.from(jobId, 'utf8'));
  decipher.setAuthTag(buf.subarray(NONCE, NONCE + TAG));
  return JSON.parse(Buffer.concat([decipher.update(buf.subarray(NONCE + TAG)), decipher.final()]).toString('utf8')) as Credentials;
}
