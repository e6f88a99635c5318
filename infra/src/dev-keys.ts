import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SECRETS } from './secrets.ts';
import { ensureServiceKeys } from './service-keys.ts';

// Keys a process would otherwise draw at random when it starts: made once and kept, so links,
// sealed Git credentials of queued jobs and visitor claims survive a restart under `pnpm dev`.
// Each app's dev script reads them with <NAME>_FILE (`../../.quire/keys/<NAME>`).
const DEV_KEYS = ['QUIRE_LINK_SECRET', 'QUIRE_SECRETS_KEY', 'QUIRE_VISITOR_CLAIMS_SECRET'];

/**
 * Every key `pnpm dev` runs with, made once under `stateDir` (`.quire`): the secrets in `keys/`
 * and the service identities in `service-keys/`; kept ones are never replaced. Answers what it did.
 */
export function ensureDevKeys(stateDir: string): string {
  const dir = join(stateDir, 'keys');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const made = DEV_KEYS.filter((name) => !existsSync(join(dir, name)));
  for (const name of made) writeFileSync(join(dir, name), SECRETS[name]!() + '\n', { mode: 0o600 });
  const identities = ensureServiceKeys(join(stateDir, 'service-keys')).made;
  const said = (what: string, names: string[], where: string) => (names.length > 0 ? `${what} made for ${names.join(', ')} (in ${where})` : `${what} kept (in ${where})`);
  return `${said('keys', made, dir)}; ${said('service keys', identities, join(stateDir, 'service-keys'))}`;
}
