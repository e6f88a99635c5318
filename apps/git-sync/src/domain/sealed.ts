import { seal, unseal } from '@quire/service-kit/sealed';

// Repository credentials travel on the job message sealed to the job id, so a sealed value copied
// onto another job does not open.
export interface Credentials {
  username: string;
  password: string;
}

export const sealCredentials = (credentials: Credentials, jobId: string, key: Uint8Array): string => seal(credentials, jobId, key).toString('base64');

/** The credentials back; throws when the key, the job id or the bytes are not those they were sealed with. */
export const openCredentials = (sealed: string, jobId: string, key: Uint8Array) => unseal<Credentials>(Buffer.from(sealed, 'base64'), jobId, key);
