import { createPrivateKey, createPublicKey } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateServiceKeys, SERVICE_IDENTITIES } from '@quire/service-kit';

/**
 * Every app's service key, made once into `dir/<name>.key`, and `dir/trust.json` naming every
 * public key: what compose mounts, what Kubernetes' identity Secret holds, and what each app's
 * `dev` script points QUIRE_SERVICE_KEY_FILE and QUIRE_SERVICE_TRUST_FILE at. A service added
 * later gets its key beside the kept ones.
 */
export function ensureServiceKeys(dir: string): { made: string[]; kept: string[] } {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const made = SERVICE_IDENTITIES.filter((name) => !existsSync(join(dir, `${name}.key`)));
  const { privateKeys } = generateServiceKeys(made);
  for (const [name, pem] of Object.entries(privateKeys)) writeFileSync(join(dir, `${name}.key`), pem, { mode: 0o600 });
  const trust = Object.fromEntries(
    SERVICE_IDENTITIES.map((name) => [name, createPublicKey(createPrivateKey(readFileSync(join(dir, `${name}.key`), 'utf8'))).export({ type: 'spki', format: 'pem' })]),
  );
  writeFileSync(join(dir, 'trust.json'), JSON.stringify(trust, null, 2) + '\n');
  return { made, kept: SERVICE_IDENTITIES.filter((name) => !made.includes(name)) };
}
