import type { CreateRevisionRequest, PageContent, Revision } from '@quire/proto/space-content';
import type { TestUser } from '@quire/orgs/testing';
import { describe, expect } from 'vitest';
import { expectError, ok, type Gateway } from './harness.ts';
import { ownGateway, test as base } from './fixtures.ts';

const page = (title: string, markdown: string): PageContent => ({ id: '', type: 'document', fields: { title }, markdown, href: '', pages: [] });

/** A new space of `orgId` titled `title`, its content these pages. */
async function space(g: Gateway, { owner, orgId }: { owner: TestUser; orgId: string }, title: string, pages: PageContent[]) {
  const id = (await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title }), 201)).id as string;
  await g.content.callContent<CreateRevisionRequest, Revision>(
    g.content.spaceContent.createRevision,
    { spaceId: id, parentRevisionId: '', pages, files: [], setActive: true, type: '' },
    owner.id,
  );
  return id;
}

// Each test in an organization of its own, on a gateway of this file's.
const it = base.extend<{ searchGateway: Gateway; guideSpace: string; apiSpace: string }>({
  // Its own gateway: results link into QUIRE_APP_URL.
  searchGateway: ownGateway({ QUIRE_APP_URL: 'https://app.quire.test' }),
  guideSpace: async ({ searchGateway: g, team }, use) =>
    use(await space(g, team, 'Guides', [page('Tokens', 'How tokens work.\n\n## Rotating tokens\n\nRotate API tokens every month.\n'), page('Themes', 'Colors and fonts.\n')])),
  apiSpace: async ({ searchGateway: g, team }, use) =>
    use(await space(g, team, 'API', [page('Authentication', '## Bearer tokens\n\nSend API tokens in the Authorization header.\n')])),
});

describe('GET /v1/spaces/{spaceId}/search', () => {
  it('answers the pages found with their sections and app links', async ({ searchGateway: g, team: { reader }, guideSpace }) => {
    const res = await g.call(reader, 'GET', `/v1/spaces/${guideSpace}/search?query=api%20tokens`);
    expect(res.statusCode, res.body).toBe(200);
    const app = `https://app.quire.test/s/${guideSpace}/tokens`;
    expect(res.json()).toEqual({
      count: 1,
      items: [
        {
          id: expect.any(String),
          title: 'Tokens',
          path: 'tokens',
          sections: [{ id: 'rotating-tokens', title: 'Rotating tokens', path: 'tokens', body: 'Rotate API tokens every month.', urls: { app: `${app}#rotating-tokens` } }],
          urls: { app },
        },
      ],
    });
  });

  it('pages through the results', async ({ searchGateway: g, team: { reader }, guideSpace }) => {
    const first = (await g.call(reader, 'GET', `/v1/spaces/${guideSpace}/search?query=tokens%20or%20colors&limit=1`)).json();
    expect(first.items).toHaveLength(1);
    const second = (await g.call(reader, 'GET', `/v1/spaces/${guideSpace}/search?query=tokens%20or%20colors&limit=1&page=${first.next.page}`)).json();
    expect(second).toMatchObject({ count: 1 });
    expect(second.next).toBeUndefined();
    expect(second.items[0].id).not.toBe(first.items[0].id);
  });

  it('requires a query of at most 512 characters, and hides the space from outsiders', async ({ searchGateway: g, team: { reader, outsider }, guideSpace }) => {
    expectError(await g.call(reader, 'GET', `/v1/spaces/${guideSpace}/search`), 400, /query/);
    expectError(await g.call(reader, 'GET', `/v1/spaces/${guideSpace}/search?query=${'a'.repeat(513)}`), 400, /query/);
    expectError(await g.call(reader, 'GET', `/v1/spaces/${guideSpace}/search?query=a&limit=1001`), 400, /limit/);
    expectError(await g.call(outsider, 'GET', `/v1/spaces/${guideSpace}/search?query=tokens`), 404, /Space/);
    expectError(await g.call(null, 'GET', `/v1/spaces/${guideSpace}/search?query=tokens`), 401);
  });
});

describe('GET /v1/orgs/{organizationId}/search', () => {
  it('groups the pages found by space, with the space titles', async ({ searchGateway: g, team: { reader, orgId }, guideSpace, apiSpace }) => {
    const res = await g.call(reader, 'GET', `/v1/orgs/${orgId}/search?query=api%20tokens`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.count).toBe(2);
    expect(body.items.map((s: { id: string; title: string; pages: { title: string }[] }) => [s.id, s.title, s.pages.map((p) => p.title)]).sort()).toEqual(
      [
        [apiSpace, 'API', ['Authentication']],
        [guideSpace, 'Guides', ['Tokens']],
      ].sort(),
    );
  });

  it('is for members of the organization', async ({ searchGateway: g, team: { reader, outsider, orgId } }) => {
    expectError(await g.call(outsider, 'GET', `/v1/orgs/${orgId}/search?query=tokens`), 404, /organization/);
    expectError(await g.call(reader, 'GET', `/v1/orgs/${orgId}/search?query=`), 400, /query/);
  });
});
