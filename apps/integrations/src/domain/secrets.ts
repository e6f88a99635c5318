import { seal, unseal } from '@quire/service-kit/sealed';

// Sealed to the integration's name, so a value copied onto another integration's row does not open.
export const sealSecrets = (secrets: Record<string, string>, name: string, key: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(seal(secrets, name, key));

/** The secrets back; throws when the key, the name or the bytes are not those they were sealed with. */
export const openSecrets = (sealed: Uint8Array, name: string, key: Uint8Array) => unseal<Record<string, string>>(sealed, name, key);
