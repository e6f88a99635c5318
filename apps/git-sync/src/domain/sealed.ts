import { seal, unseal, type SealingKeys } from '@quire/service-kit/sealed';

// Repository credentials travel on the job message sealed to the job id, so a sealed value copied
// onto another job does not open. Jobs are short-lived: one queued before a key rotation opens
// with the previous key while it stays configured, so nothing of theirs needs resealing.
export interface Credentials {
  username: string;
  password: string;
}

export const sealCredentials = (credentials: Credentials, jobId: string, keys: SealingKeys): string => seal(credentials, jobId, keys).toString('base64');

/** The credentials back; throws unless a configured key, the job id and the bytes are those they were sealed with. */
export const openCredentials = (sealed: string, jobId: string, keys: SealingKeys) => unseal<Credentials>(Buffer.from(sealed, 'base64'), jobId, keys);

// A space's webhook keeps its secret and the repository's credentials in the database, each sealed
// to the space (and to what it is), so that neither opens when copied onto another row or column.
export const webhookSecretContext = (spaceId: string) => `git-webhook-secret:${spaceId}`;
export const webhookCredentialsContext = (spaceId: string) => `git-webhook-credentials:${spaceId}`;
