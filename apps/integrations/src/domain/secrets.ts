import { seal, unseal, type SealingKeys } from '@quire/service-kit/sealed';

/** Sealed to the integration's name, so a value copied onto another integration's row does not open. */
export const secretsContext = (name: string) => name;

export const sealSecrets = (secrets: Record<string, string>, name: string, keys: SealingKeys): Uint8Array<ArrayBuffer> => new Uint8Array(seal(secrets, secretsContext(name), keys));

/** The secrets back; throws unless a configured key, the name and the bytes are those they were sealed with. */
export const openSecrets = (sealed: Uint8Array, name: string, keys: SealingKeys) => unseal<Record<string, string>>(sealed, secretsContext(name), keys);
