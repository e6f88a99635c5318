import type { CreateRevisionRequest, PageContent, PutBlobsRequest, PutBlobsResponse, Revision } from '@quire/proto/space-content';
import { describe, expect } from 'vitest';
import { expectError, ok, type Gateway } from './harness.ts';
import { ownGateway, test as base } from './fixtures.ts';

const page = (id: string, title: string, markdown: string): PageContent => ({ id, type: 'document', fields: { title }, markdown, href: '', pages: [] });

// Each test in an organization of its own, on a gateway of this file's.
const it = base.extend<{
  appUrlGateway: Gateway;
  /** A space of the team's: a page linking to a page, a missing page, the web and the app; both pages show a file. */
  spaceId: string;
}>({
  // Its own gateway: links into QUIRE_APP_URL are in-app.
  appUrlGateway: ownGateway({ QUIRE_APP_URL: 'https://app.quire.test' }),
  spaceId: async ({ appUrlGateway: g, team: { owner, orgId } }, use) => {
    const spaceId = (await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Docs' }), 201)).id;
    const { blob } = (await g.content.callContent<PutBlobsRequest, PutBlobsResponse>(g.content.spaceContent.putBlobs, { data: [Buffer.from('bytes')] }, owner.id)).blobs[0]!;
    await g.content.callContent<CreateRevisionRequest, Revision>(
      g.content.spaceContent.createRevision,
      {
        spaceId,
        parentRevisionId: '',
        pages: [
          page(
            'home',
            'Home',
            'Go to [setup](/pages/setup#install), [nowhere](/pages/gone), [example](https://example.com) and [the app](https://app.quire.test/o/x).\n\n![Diagram](/files/diagram)\n',
          ),
          page('setup', 'Setup', '## Install\n\n![Diagram](/files/diagram)\n'),
        ],
        files: [{ id: 'diagram', name: 'diagram.png', contentType: 'image/png', blob }],
        setActive: true,
        type: '',
      },
      owner.id,
    );
    await use(spaceId);
  },
});

type Location = { kind: string; organization?: { id: string }; space?: { id: string }; page?: { id: string }; file?: { id: string }; [k: string]: unknown };
/** A ContentLocation with its organization, space, page and file objects written as their ids. */
const ids = ({ organization, space, page, file, ...rest }: Location) => ({
  ...rest,
  ...(organization ? { organization: organization.id } : {}),
  ...(space ? { space: space.id } : {}),
  ...(page ? { page: page.id } : {}),
  ...(file ? { file: file.id } : {}),
});
const usageIds = (u: { targetReference: Location; locationReferences: Location[] }) => ({
  ...u,
  targetReference: ids(u.targetReference),
  locationReferences: u.locationReferences.map(ids),
});

describe('GET /v1/spaces/{spaceId}/links', () => {
  it('lists each target with its status, where it is linked from, and the stats', async ({ appUrlGateway: g, team: { owner, orgId }, spaceId }) => {
    const res = await g.call(owner, 'GET', `/v1/spaces/${spaceId}/links`);
    expect(res.statusCode, res.body).toBe(200);
    const here = { organization: orgId, space: spaceId };
    const body = res.json();
    // The objects themselves, as GitBook answers them (their whole shape is checked by the harness).
    expect(body.items[0].targetReference).toMatchObject({
      organization: { object: 'organization', id: orgId },
      space: { object: 'space', id: spaceId },
      page: { id: 'setup', title: 'Setup' },
    });
    expect(body.items[4].targetReference.file).toMatchObject({ id: 'diagram', name: 'diagram.png', contentType: 'image/png' });
    expect({ ...body, items: body.items.map(usageIds) }).toEqual({
      count: 5,
      items: [
        {
          status: 'ok',
          relation: 'reference',
          targetReference: { kind: 'page', ...here, page: 'setup', internalLocation: { type: 'anchor', anchor: 'install' } },
          locationReferences: [{ kind: 'page', ...here, page: 'home' }],
        },
        // No such page: the target is the link as written.
        { status: 'broken', relation: 'reference', targetReference: { kind: 'url', url: '/pages/gone' }, locationReferences: [{ kind: 'page', ...here, page: 'home' }] },
        { status: 'ok', relation: 'reference', targetReference: { kind: 'url', url: 'https://example.com' }, locationReferences: [{ kind: 'page', ...here, page: 'home' }] },
        {
          status: 'in-app',
          relation: 'reference',
          targetReference: { kind: 'url', url: 'https://app.quire.test/o/x' },
          locationReferences: [{ kind: 'page', ...here, page: 'home' }],
        },
        {
          status: 'ok',
          relation: 'dependsOn',
          targetReference: { kind: 'file', ...here, file: 'diagram' },
          locationReferences: [
            { kind: 'page', ...here, page: 'home' },
            { kind: 'page', ...here, page: 'setup' },
          ],
        },
      ],
      stats: { total: 5, broken: { total: 1 } },
    });
  });

  it('filters by status and pages', async ({ appUrlGateway: g, team: { owner, outsider }, spaceId }) => {
    const broken = (await g.call(owner, 'GET', `/v1/spaces/${spaceId}/links?status=broken`)).json();
    expect(broken.items.map((u: { targetReference: { url: string } }) => u.targetReference.url)).toEqual(['/pages/gone']);
    const first = (await g.call(owner, 'GET', `/v1/spaces/${spaceId}/links?limit=3`)).json();
    expect(first.items).toHaveLength(3);
    const rest = (await g.call(owner, 'GET', `/v1/spaces/${spaceId}/links?limit=3&page=${first.next.page}`)).json();
    expect(rest.items).toHaveLength(2);
    expectError(await g.call(owner, 'GET', `/v1/spaces/${spaceId}/links?status=dead`), 400, /status/);
    expectError(await g.call(outsider, 'GET', `/v1/spaces/${spaceId}/links`), 404, /Space/);
  });
});

describe('GET /v1/spaces/{spaceId}/content/page/{pageId}/links', () => {
  it("lists one page's links", async ({ appUrlGateway: g, team: { owner }, spaceId }) => {
    const res = (await g.call(owner, 'GET', `/v1/spaces/${spaceId}/content/page/setup/links`)).json();
    expect(res).toMatchObject({
      count: 1,
      items: [{ status: 'ok', relation: 'dependsOn', targetReference: { kind: 'file', file: { id: 'diagram' } } }],
      stats: { total: 1, broken: { total: 0 } },
    });
    expectError(await g.call(owner, 'GET', `/v1/spaces/${spaceId}/content/page/nope/links`), 404, /Page "nope" not found/);
  });
});

describe('GET /v1/spaces/{spaceId}/content/files/{fileId}/backlinks', () => {
  it('lists the pages using the file', async ({ appUrlGateway: g, team: { owner, orgId }, spaceId }) => {
    const res = await g.call(owner, 'GET', `/v1/spaces/${spaceId}/content/files/diagram/backlinks`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect({ ...body, items: body.items.map(ids) }).toEqual({
      count: 2,
      items: [
        { kind: 'page', organization: orgId, space: spaceId, page: 'home' },
        { kind: 'page', organization: orgId, space: spaceId, page: 'setup' },
      ],
    });
    expectError(await g.call(owner, 'GET', `/v1/spaces/${spaceId}/content/files/nope/backlinks`), 404, /File "nope" not found/);
  });
});
