import type { PutBlobsRequest, PutBlobsResponse } from '@quire/proto/space-content';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeLinkSigner } from '../src/signing.ts';
import { startGateway } from './harness.ts';

// Rotating QUIRE_LINK_SECRET as an operator does: a file link signed with the old secret downloads
// from a gateway that lists it in QUIRE_LINK_SECRET_PREVIOUS, and no longer once it is removed.

const OLD = 'link-rotation-old-secret';
const NEW = 'link-rotation-new-secret';

let rotating: Awaited<ReturnType<typeof startGateway>>;
let rotated: Awaited<ReturnType<typeof startGateway>>;
let blob: string;

beforeAll(async () => {
  rotating = await startGateway({ QUIRE_LINK_SECRET: NEW, QUIRE_LINK_SECRET_PREVIOUS: OLD });
  rotated = await startGateway({ QUIRE_LINK_SECRET: NEW });
  const owner = await rotating.orgs.user('owner');
  ({ blob } = (
    await rotating.content.callContent<PutBlobsRequest, PutBlobsResponse>(rotating.content.spaceContent.putBlobs, { data: [Buffer.from('bytes')] }, owner.id)
  ).blobs[0]!);
});
afterAll(async () => {
  await rotating?.stop();
  await rotated?.stop();
});

const download = (g: typeof rotating, url: string) => g.app.inject({ method: 'GET', url: url.replace(g.config.QUIRE_PUBLIC_URL, '') });

it('downloads a link the previous secret signed while it is configured, and answers 404 once it is removed', async () => {
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
