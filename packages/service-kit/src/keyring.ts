import { createHash } from 'node:crypto';

// Keys in rotation: the current key makes new values (seals, signs); previous keys still open or
// verify what they made, until those values are rewritten or expire. Values name the key that made
// them by a short id, so an opener tries that key rather than each in turn.

export const KEY_ID_BYTES = 4;

export interface NamedKey {
  /** The first 4 bytes of the key's SHA-256: tells keys apart without telling anything of them. */
  readonly id: Buffer;
  readonly key: Buffer;
}

export interface Keyring {
  readonly current: NamedKey;
  /** The current key first, then the previous ones, each once. */
  readonly keys: readonly NamedKey[];
}

export const keyId = (key: Uint8Array): Buffer => createHash('sha256').update(key).digest().subarray(0, KEY_ID_BYTES);

export function makeKeyring(current: Uint8Array, previous: readonly Uint8Array[] = []): Keyring {
  const keys: NamedKey[] = [];
  for (const key of [current, ...previous]) {
    const id = keyId(key);
    if (!keys.some((k) => k.id.equals(id))) keys.push({ id, key: Buffer.from(key) });
  }
  return { current: keys[0]!, keys };
}

/** The key of the ring that `id` names, if any. */
export const keyById = (ring: Keyring, id: Uint8Array): NamedKey | undefined => ring.keys.find((k) => k.id.equals(id));
