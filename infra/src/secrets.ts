import { randomBytes } from 'node:crypto';

const token = (bytes: number) => randomBytes(bytes).toString('base64url');

/** A deployment's settings that are secrets, as compose reads them from `.env`; each made once. */
export const SECRETS: Record<string, () => string> = {
  // Not a secret: the name compose gives the deployment's containers and volumes.
  COMPOSE_PROJECT_NAME: () => 'quire',
  POSTGRES_PASSWORD: () => token(24),
  QUIRE_SECRETS_KEY: () => randomBytes(32).toString('base64'),
  QUIRE_VISITOR_CLAIMS_SECRET: () => token(48),
  QUIRE_LINK_SECRET: () => token(32),
  QUIRE_BOOTSTRAP_TOKEN: () => `quire_${token(32)}`,
  QUIRE_BOOTSTRAP_PASSWORD: () => token(18),
};
