import { createLogger, makeKeyring } from '@quire/service-kit';
import { seal, unseal } from '@quire/service-kit/sealed';
import { cloneTemplate } from '@quire/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookCredentialsContext, webhookSecretContext } from '../src/domain/sealed.ts';
import { openStore, type Store } from '../src/store/index.ts';

// A key rotation: webhooks sealed with the old key move to the new one when git-sync starts.

const OLD = Buffer.alloc(32, 1);
const NEW = Buffer.alloc(32, 2);

let database: Awaited<ReturnType<typeof cloneTemplate>>;
let opened: ReturnType<typeof openStore>;
let store: Store;

beforeAll(async () => {
  database = await cloneTemplate('git-sync');
  opened = openStore(database.url, 2, createLogger('t', 'silent'));
  store = opened.store;
});
afterAll(async () => {
  await opened.close();
  await database.drop();
});

const webhook = (spaceId: string, key: Buffer, credentials?: { username: string; password: string }) =>
  store.setWebhook({
    spaceId,
    secretSealed: new Uint8Array(seal('s3cret', webhookSecretContext(spaceId), key)),
    credentialsSealed: credentials ? new Uint8Array(seal(credentials, webhookCredentialsContext(spaceId), key)) : null,
    userId: 'u1',
    url: 'https://example.com/r.git',
    ref: 'refs/heads/main',
    repoTreeUrl: null,
    repoCommitUrl: null,
    repoProjectDirectory: null,
    pollSeconds: null,
  });

describe('webhook secrets across a key rotation', () => {
  it('reseals what the previous key sealed, leaves current values, names the rows no key opens', async () => {
    const creds = { username: 'bob', password: 'token' };
    await webhook('old', OLD, creds);
    await webhook('current', NEW);
    await webhook('lost', Buffer.alloc(32, 3));
    const ring = makeKeyring(NEW, [OLD]);
    expect(await store.resealWebhooks(ring)).toEqual({ resealed: 1, unreadable: ['lost'] });
    const old = (await store.getWebhook('old'))!;
    // Now opened by the new key alone, the values unchanged.
    expect(unseal(old.secretSealed, webhookSecretContext('old'), NEW)).toBe('s3cret');
    expect(unseal(old.credentialsSealed!, webhookCredentialsContext('old'), NEW)).toEqual(creds);
    // A value sealed for one space does not open as another's.
    expect(() => unseal(old.secretSealed, webhookSecretContext('current'), NEW)).toThrow();
    expect(await store.resealWebhooks(ring)).toEqual({ resealed: 0, unreadable: ['lost'] });
  });
});
