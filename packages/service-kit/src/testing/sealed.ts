import { createCipheriv, randomBytes } from 'node:crypto';

/**
 * A value sealed as before sealed values carried a key id (nonce | tag | ciphertext, the context
 * alone as additional data): what databases written then hold.
 */
export function sealWithoutKeyId(value: unknown, context: string, key: Uint8Array): Buffer {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), body]);
}
