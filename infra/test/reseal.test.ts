import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyId } from '@quire/service-kit';
import { seal, unseal } from '@quire/service-kit/sealed';
import { cloneTemplate, connectDb, migrateTemplate, sealWithoutKeyId, type TestDatabase } from '@quire/service-kit/testing';
import { SEALED_COLUMNS } from '../src/reseal.ts';
import { quire } from './quire.ts';

// `pnpm quire secrets reseal` after a key rotation, on fresh orgs, sites and integrations
// databases holding values sealed as the services seal them: with the old key, with no key id
// (written before values had one), and already with the new key.

const OLD = randomBytes(32);
const NEW = randomBytes(32);
const b64 = (k: Buffer) => k.toString('base64');

const SERVICES = ['orgs', 'sites', 'integrations'] as const;
const dbs = {} as Record<(typeof SERVICES)[number], TestDatabase>;
const clients = {} as Record<(typeof SERVICES)[number], pg.Client>;
let env: NodeJS.ProcessEnv;

// The contexts the services have sealed with all along: stored values open only with these.
const OIDC = (id: string) => `oidc-client-secret:${id}`;
const VISITOR = (id: string) => `sites:visitor-key:${id}`;

beforeAll(async () => {
  for (const service of SERVICES) {
    await migrateTemplate(service, fileURLToPath(new URL(`../../apps/${service}`, import.meta.url)));
    dbs[service] = await cloneTemplate(service);
    clients[service] = await connectDb(dbs[service].url);
  }
  env = { ORGS_DATABASE_URL: dbs.orgs.url, SITES_DATABASE_URL: dbs.sites.url, INTEGRATIONS_DATABASE_URL: dbs.integrations.url };
  await clients.orgs.query(`INSERT INTO "Organization" (id, title) VALUES ('o1', 'Org')`);
  const provider = (id: string, sealed: Buffer) =>
    clients.orgs.query(`INSERT INTO "OidcProvider" (id, "organizationId", label, issuer, "clientId", "clientSecret") VALUES ($1, 'o1', 'SSO', 'https://idp.test', 'quire', $2)`, [
      id,
      sealed,
    ]);
  await provider('p-legacy', sealWithoutKeyId('secret-legacy', OIDC('p-legacy'), OLD));
  await provider('p-old', seal('secret-old', OIDC('p-old'), OLD));
  await provider('p-new', seal('secret-new', OIDC('p-new'), NEW));
  const site = (id: string, sealed: Buffer | null) =>
    clients.sites.query(
      `INSERT INTO "Site" (id, "organizationId", type, title, visibility, "agentsContext", "updatedAt", "visitorKeySealed") VALUES ($1, 'o1', 'basic', 'Docs', 'public', '', now(), $2)`,
      [id, sealed],
    );
  await site('s-legacy', sealWithoutKeyId('key-legacy', VISITOR('s-legacy'), OLD));
  await site('s-old', seal('key-old', VISITOR('s-old'), OLD));
  await site('s-none', null);
  await clients.integrations.query(
    `INSERT INTO "Integration" (name, "ownerOrganizationId", title, description, runtime, visibility, target, blocks, "contentSources", "externalLinks", "hasBlocks", "hasContentSources", script, "publishedBy", "updatedAt", secrets)
     VALUES ('slack', 'o1', 'Slack', '', 'v2', 'public', 'all', '[]', '[]', '[]', false, false, '', 'u1', now(), $1)`,
    [seal({ API_KEY: 'k' }, 'slack', OLD)],
  );
});
afterAll(async () => {
  for (const service of SERVICES) {
    await clients[service]?.end();
    await dbs[service]?.drop();
  }
});

/** Every sealed value of the three databases, by row key. */
async function sealedValues(): Promise<Record<string, Buffer>> {
  const all: Record<string, Buffer> = {};
  for (const service of SERVICES) {
    for (const { table, column, key } of SEALED_COLUMNS[service]!) {
      const { rows } = await clients[service].query(`SELECT "${key}" AS key, "${column}" AS sealed FROM "${table}" WHERE "${column}" IS NOT NULL`);
      for (const row of rows) all[row.key] = row.sealed;
    }
  }
  return all;
}

/** The command with these keys only (none this process's environment may name). */
const reseal = (keys: { QUIRE_SECRETS_KEY?: string; QUIRE_SECRETS_KEY_PREVIOUS?: string }) =>
  quire(['secrets', 'reseal'], undefined, {
    ...env,
    QUIRE_SECRETS_KEY: '',
    QUIRE_SECRETS_KEY_FILE: '',
    QUIRE_SECRETS_KEY_PREVIOUS: '',
    QUIRE_SECRETS_KEY_PREVIOUS_FILE: '',
    ...keys,
  });

// Each run starts pnpm and tsx: seconds on a busy machine.
describe('pnpm quire secrets reseal', { timeout: 180_000 }, () => {
  it('refuses to start without QUIRE_SECRETS_KEY, changing nothing', async () => {
    const before = await sealedValues();
    const res = await reseal({ QUIRE_SECRETS_KEY_PREVIOUS: b64(OLD) });
    expect(res).toMatchObject({ code: 1, stderr: expect.stringMatching(/^quire: QUIRE_SECRETS_KEY is not set/) });
    expect(await sealedValues()).toEqual(before);
  });

  it('seals every stored value again with the new key, so that it alone opens them, and reports each table', async () => {
    const res = await reseal({ QUIRE_SECRETS_KEY: b64(NEW), QUIRE_SECRETS_KEY_PREVIOUS: `${b64(randomBytes(32))},${b64(OLD)}` });
    expect(res, res.stderr).toMatchObject({ code: 0 });
    expect(res.stdout).toBe(
      [
        'orgs OidcProvider.clientSecret: 2 resealed, 1 already current',
        'sites Site.visitorKeySealed: 2 resealed, 0 already current',
        'integrations Integration.secrets: 1 resealed, 0 already current',
        '',
      ].join('\n'),
    );
    const after = await sealedValues();
    for (const value of Object.values(after)) expect(value.subarray(0, 5)).toEqual(Buffer.concat([Buffer.of(1), keyId(NEW)]));
    expect(unseal(after['p-legacy']!, OIDC('p-legacy'), NEW)).toBe('secret-legacy');
    expect(unseal(after['p-old']!, OIDC('p-old'), NEW)).toBe('secret-old');
    expect(unseal(after['p-new']!, OIDC('p-new'), NEW)).toBe('secret-new');
    expect(unseal(after['s-legacy']!, VISITOR('s-legacy'), NEW)).toBe('key-legacy');
    expect(unseal(after['s-old']!, VISITOR('s-old'), NEW)).toBe('key-old');
    expect(unseal(after.slack!, 'slack', NEW)).toEqual({ API_KEY: 'k' });
    expect(() => unseal(after['p-old']!, OIDC('p-old'), OLD)).toThrow(/does not open/);
  });

  it('changes nothing when run again', async () => {
    const before = await sealedValues();
    const res = await reseal({ QUIRE_SECRETS_KEY: b64(NEW), QUIRE_SECRETS_KEY_PREVIOUS: b64(OLD) });
    expect(res, res.stderr).toMatchObject({ code: 0 });
    expect(res.stdout).toContain('orgs OidcProvider.clientSecret: 0 resealed, 3 already current');
    expect(await sealedValues()).toEqual(before);
  });

  it("leaves a value sealed under another deployment's key as it is, naming its row, and fails", async () => {
    const foreign = seal('theirs', OIDC('p-foreign'), randomBytes(32));
    await clients.orgs.query(
      `INSERT INTO "OidcProvider" (id, "organizationId", label, issuer, "clientId", "clientSecret") VALUES ('p-foreign', 'o1', 'SSO', 'https://idp.test', 'quire', $1)`,
      [foreign],
    );
    const res = await reseal({ QUIRE_SECRETS_KEY: b64(NEW), QUIRE_SECRETS_KEY_PREVIOUS: b64(OLD) });
    expect(res).toMatchObject({ code: 1, stderr: 'quire: 1 sealed values open with none of the configured keys and were left as they are\n' });
    expect(res.stdout).toContain('orgs OidcProvider.clientSecret: 0 resealed, 3 already current, 1 opened by no configured key (p-foreign)');
    expect((await sealedValues())['p-foreign']).toEqual(foreign);
  });
});
