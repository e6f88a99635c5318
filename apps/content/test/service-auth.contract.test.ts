import { generateKeyPairSync } from 'node:crypto';
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import type { ContentServiceClient, Space } from '@quire/proto/content';
import type { OrgsHarness, TestUser } from '@quire/orgs/testing';
import { ServiceIdentity } from '@quire/service-kit';
import { stopAll, testIdentity } from '@quire/service-kit/testing';
import { rejects } from '@quire/service-kit/testing/expect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithTeam, type ContentHarness } from './harness.ts';

// What a process that reaches content's port can do without the keys of a trusted service:
// nothing. And what the services that hold them may do, as the callers table says.
let orgs: OrgsHarness;
let h: ContentHarness;
let owner: TestUser;
let space: Space;

beforeAll(async () => {
  let orgId: string;
  ({ orgs, h, owner, orgId } = await startWithTeam());
  space = await h.createSpace(owner.id, { organizationId: orgId, title: 'Private plans', visibility: 'private' });
});
afterAll(() => stopAll(h, orgs));

/** A ContentService RPC sent with exactly this metadata, as any process on the network could. */
function raw<Req, Res>(method: keyof ContentServiceClient, request: Req, metadata: Metadata): Promise<Res> {
  const client = h.client as unknown as Record<string, (r: Req, m: Metadata, cb: (e: ServiceError | null, r: Res) => void) => void>;
  return new Promise((resolve, reject) => client[method]!.call(h.client, request, metadata, (err, res) => (err ? reject(err) : resolve(res))));
}

const userIdOnly = (userId: string) => {
  const md = new Metadata();
  md.set('x-quire-user-id', userId);
  return md;
};

describe('content refuses calls without a valid service assertion', () => {
  it('refuses reads and writes that name the user only by x-quire-user-id', async () => {
    await rejects(raw('getSpace', { spaceId: space.id }, userIdOnly(owner.id)), status.UNAUTHENTICATED);
    await rejects(raw('updateSpace', { spaceId: space.id, title: 'Pwned' }, userIdOnly(owner.id)), status.UNAUTHENTICATED);
    await rejects(raw('getSpace', { spaceId: space.id }, new Metadata()), status.UNAUTHENTICATED);
    const read = await h.call<{ spaceId: string }, Space>(h.client.getSpace, { spaceId: space.id }, owner.id);
    expect(read.title).toBe('Private plans');
  });

  it('refuses blob reads with no identity at all', async () => {
    const blobs = h.spaceContent as unknown as { readBlob: (r: object, m: Metadata, cb: (e: ServiceError | null) => void) => void };
    const err = await new Promise<ServiceError | null>((resolve) => blobs.readBlob.call(h.spaceContent, { blob: 'a'.repeat(64) }, new Metadata(), resolve));
    expect(err?.code).toBe(status.UNAUTHENTICATED);
  });

  it('serves review acting for the user behind the gateway, and content asks orgs as its delegate', async () => {
    const md = await testIdentity('review').metadata('content', { userId: owner.id, chain: ['gateway'] });
    expect(await raw<object, Space>('getSpace', { spaceId: space.id }, md)).toMatchObject({ id: space.id, title: 'Private plans' });
  });

  it('refuses services that may not act for a user here, and serves the reader only as itself', async () => {
    await rejects(raw('getSpace', { spaceId: space.id }, await testIdentity('insights').metadata('content', { userId: owner.id })), status.PERMISSION_DENIED);
    await rejects(raw('getSpace', { spaceId: space.id }, await testIdentity('reader').metadata('content', { userId: owner.id })), status.PERMISSION_DENIED);
  });
});

describe('the reader, calling as itself', () => {
  it('reads any space (it serves the published ones sites let a visitor into) and writes none', async () => {
    const reader = await testIdentity('reader').metadata('content', {});
    expect(await raw<object, Space>('getSpace', { spaceId: space.id }, reader)).toMatchObject({ id: space.id, title: 'Private plans' });
    // A write needs a user, and the reader never names one.
    await rejects(raw('updateSpace', { spaceId: space.id, title: 'Pwned' }, reader), status.UNAUTHENTICATED);
  });

  it("reads an organization's OpenAPI spec (a published page shows its operations) and changes none", async () => {
    const spec = { organizationId: space.organizationId, slug: 'billing' };
    const text = '{"openapi":"3.1.0","info":{"title":"Billing","version":"1"},"paths":{}}';
    await h.call(h.client.saveOpenApiSpec, { spec, source: { text }, createOnly: false }, owner.id);
    const reader = await testIdentity('reader').metadata('content', {});
    const content = await raw<object, { json: string }>('getOpenApiSpecVersionContent', { spec, versionId: '' }, reader);
    expect(JSON.parse(content.json).info.title).toBe('Billing');
    await rejects(raw('saveOpenApiSpec', { spec, source: { text } }, reader), status.PERMISSION_DENIED);
    await rejects(raw('deleteOpenApiSpec', { spec }, reader), status.PERMISSION_DENIED);
    // Anonymous calls of any other service find none.
    await rejects(raw('getOpenApiSpecVersionContent', { spec, versionId: '' }, await testIdentity('gateway').metadata('content', {})), status.UNAUTHENTICATED);
  });

  it('is refused when the call claims the name without the key, or another service claims to serve it', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const impostor = new ServiceIdentity({ name: 'reader', privateKey, trust: new Map() });
    await rejects(raw('getSpace', { spaceId: space.id }, await impostor.metadata('content', {})), status.UNAUTHENTICATED);
    await rejects(raw('getSpace', { spaceId: space.id }, await testIdentity('gateway').metadata('content', { chain: ['reader'] })), status.PERMISSION_DENIED);
    // An anonymous gateway call is not the reader's: the private space stays hidden.
    await rejects(raw('getSpace', { spaceId: space.id }, await testIdentity('gateway').metadata('content', {})), status.NOT_FOUND);
    const read = await h.call<{ spaceId: string }, Space>(h.client.getSpace, { spaceId: space.id }, owner.id);
    expect(read.title).toBe('Private plans');
  });
});
