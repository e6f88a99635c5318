import { createPrivateKey, createPublicKey } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateServiceKeys, SERVICE_IDENTITIES } from '@quire/service-kit';

/**
 * Every app's service key, made once into `dir/<name>.pem`, and `dir/trust.json` naming every
 * public key: each app's `dev` script points QUIRE_SERVICE_KEY_FILE and QUIRE_SERVICE_TRUST_FILE
 * at them. A service added later gets its key beside the kept ones. Answers what it did.
 */
export function ensureServiceKeys(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const missing = SERVICE_IDENTITIES.filter((name) => !existsSync(join(dir, `${name}.pem`)));
  const { privateKeys } = generateServiceKeys(missing);
  for (const [name, pem] of Object.entries(privateKeys)) writeFileSync(join(dir, `${name}.pem`), pem, { mode: 0o600 });
  const trust = Object.fromEntries(
    SERVICE_IDENTITIES.map((name) => [name, createPublicKey(createPrivateKey(readFileSync(join(dir, `${name}.pem`), 'utf8'))).export({ type: 'spki', format: 'pem' })]),
  );
  writeFileSync(join(dir, 'trust.json'), JSON.stringify(trust, null, 2) + '\n');
  return missing.length > 0 ? `service keys made for ${missing.join(', ')} (in ${dir})` : `service keys kept (in ${dir})`;
}
