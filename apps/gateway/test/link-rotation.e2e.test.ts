import type { PutBlobsRequest, PutBlobsResponse } from '@quire/proto/space-content';
import { expect } from 'vitest';
import { makeLinkSigner } from '../src/signing.ts';
import { ownGateway, test as base } from './fixtures.ts';
import type { Gateway } from './harness.ts';

// Rotating QUIRE_LINK_SECRET as an operator does: a file link signed with the old secret downloads
// from a gateway that lists it in QUIRE_LINK_SECRET_PREVIOUS, and no longer once it is removed.

const OLD = 'link-rotation-old-secret';
const NEW = 'link-rotation-new-secret';

const test = base.extend<{ rotating: Gateway; rotated: Gateway; blob: string }>({
  // Their own gateways: one with the previous secret still listed, one with it removed.
  rotating: ownGateway({ QUIRE_LINK_SECRET: NEW, QUIRE_LINK_SECRET_PREVIOUS: OLD }),
  rotated: ownGateway({ QUIRE_LINK_SECRET: NEW }),
  // A file of a new user's.
  blob: async ({ rotating }, use) => {
    const owner = await rotating.orgs.user('owner');
    const { blobs } = await rotating.content.callContent<PutBlobsRequest, PutBlobsResponse>(rotating.content.spaceContent.putBlobs, { data: [Buffer.from('bytes')] }, owner.id);
    await use(blobs[0]!.blob);
  },
});

const download = (g: Gateway, url: string) => g.app.inject({ method: 'GET', url: url.replace(g.config.QUIRE_PUBLIC_URL, '') });

test('downloads a link the previous secret signed while it is configured, and answers 404 once it is removed', async ({ rotating, rotated, blob }) => {
  const before = makeLinkSigner(rotating.config.QUIRE_PUBLIC_URL, { current: OLD }).sign(`/files/${blob}`, { name: 'a.txt' });
  const res = await download(rotating, before);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.body).toBe('bytes');
  expect((await download(rotated, before)).statusCode).toBe(404);
  // What the new secret signs downloads from both.
  const after = makeLinkSigner(rotating.config.QUIRE_PUBLIC_URL, { current: NEW }).sign(`/files/${blob}`, { name: 'a.txt' });
  expect((await download(rotating, after)).statusCode).toBe(200);
  expect((await download(rotated, after)).statusCode).toBe(200);
});
