import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isServiceName, SERVICE_IDENTITIES, type ServiceName } from './callers.js';
import { ConfigError } from './config.js';

/** This app's service identity: its name, its private key and the public keys of the services it trusts. */
export interface ServiceKeys {
  name: ServiceName;
  privateKey: KeyObject;
  trust: ReadonlyMap<ServiceName, KeyObject>;
}

type IdentitySettings = { QUIRE_SERVICE_KEY?: string; QUIRE_SERVICE_KEY_FILE?: string; QUIRE_SERVICE_TRUST?: string; QUIRE_SERVICE_TRUST_FILE?: string };

/**
 * The identity `name` runs as, from its settings; every problem is a ConfigError naming the
 * variable. There is no fallback: without keys a service refuses to start (`pnpm dev` points each
 * app at the keys `infra` generated into `.quire/service-keys`).
 */
export function loadServiceKeys(name: ServiceName, settings: IdentitySettings): ServiceKeys {
  const problems: string[] = [];
  const privateKey = attempt(problems, 'QUIRE_SERVICE_KEY', settings.QUIRE_SERVICE_KEY, settings.QUIRE_SERVICE_KEY_FILE, (pem) => {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`an Ed25519 key is required, got ${key.asymmetricKeyType}`);
    return key;
  });
  const trust = attempt(problems, 'QUIRE_SERVICE_TRUST', settings.QUIRE_SERVICE_TRUST, settings.QUIRE_SERVICE_TRUST_FILE, parseTrust);
  if (problems.length > 0 || !privateKey || !trust) throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return { name, privateKey, trust };
}

/** A setting given inline or as `<name>_FILE`: exactly one of the two, parsed; a problem is recorded, naming the variable. */
function attempt<T>(problems: string[], variable: string, inline: string | undefined, file: string | undefined, parse: (text: string) => T): T | undefined {
  if (inline && file) {
    problems.push(`${variable}: set either ${variable} or ${variable}_FILE, not both`);
    return undefined;
  }
  const source = file ? `${variable}_FILE` : variable;
  let text = inline;
  if (file) {
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      problems.push(`${source}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
      return undefined;
    }
  }
  if (!text) {
    problems.push(`${variable}: required (or ${variable}_FILE), the service identity cannot be made without it; \`quire init\` makes every app's key (not set)`);
    return undefined;
  }
  try {
    return parse(text);
  } catch (err) {
    problems.push(`${source}: ${(err as Error).message}`);
    return undefined;
  }
}

function parseTrust(text: string): Map<ServiceName, KeyObject> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('must be a JSON object of service name → public key (SPKI PEM)');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('must be a JSON object of service name → public key (SPKI PEM)');
  const trust = new Map<ServiceName, KeyObject>();
  for (const [service, pem] of Object.entries(parsed)) {
    if (!isServiceName(service)) throw new Error(`unknown service "${service}" (known: ${SERVICE_IDENTITIES.join(', ')})`);
    let key: KeyObject;
    try {
      key = createPublicKey(String(pem));
    } catch {
      throw new Error(`the key of "${service}" is not a public key in PEM`);
    }
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`the key of "${service}" must be Ed25519, got ${key.asymmetricKeyType}`);
    trust.set(service, key);
  }
  return trust;
}

/** Fresh key pairs for the given services: each one's private key (PKCS8 PEM) and the trust document (JSON) naming every public key. */
export function generateServiceKeys(names: readonly ServiceName[] = SERVICE_IDENTITIES): { privateKeys: Record<string, string>; trust: string } {
  const privateKeys: Record<string, string> = {};
  const publicKeys: Record<string, string> = {};
  for (const name of names) {
    const pair = generateKeyPairSync('ed25519');
    privateKeys[name] = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    publicKeys[name] = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  }
  return { privateKeys, trust: JSON.stringify(publicKeys, null, 2) };
}
