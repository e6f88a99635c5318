import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureServiceKeys } from './service-keys.ts';

// Keys a process would otherwise draw at random when it starts: made once and kept, so links,
// sealed Git credentials of queued jobs and visitor claims survive a restart under `pnpm dev`.
// Each app's dev script reads them with <NAME>_FILE (`../../.quire/keys/<NAME>`).
const DEV_KEYS: Record<string, () => string> = {
  QUIRE_LINK_SECRET: () => randomBytes(32).toString('base64url'),
  QUIRE_SECRETS_KEY: () => randomBytes(32).toString('base64'),
  QUIRE_VISITOR_CLAIMS_SECRET: () => randomBytes(48).toString('base64url'),
};

/**
 * Every key `pnpm dev` runs with, made once under `stateDir` (`.quire`): the secrets in `keys/`
 * and the service identities in `service-keys/`; kept ones are never replaced. Answers what it did.
 */
export function ensureDevKeys(stateDir: string): string {
  const dir = join(stateDir, 'keys');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const made = Object.entries(DEV_KEYS).filter(([name]) => !existsSync(join(dir, name)));
  for (const [name, make] of made) writeFileSync(join(dir, name), make() + '\n', { mode: 0o600 });
  const secrets = made.length > 0 ? `keys made for ${made.map(([n]) => n).join(', ')} (in ${dir})` : `keys kept (in ${dir})`;
  return `${secrets}; ${ensureServiceKeys(join(stateDir, 'service-keys'))}`;
}
