import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { CreateSpaceRequest, Space } from '@quire/proto/content';
import type { CreateRevisionRequest, PageContent, Revision, SearchOrganizationRequest, SearchResponse, SearchSpaceRequest } from '@quire/proto/space-content';
import { stopAll } from '@quire/service-kit/testing';
import { rejects } from '@quire/service-kit/testing/expect';
import { startOrgs, team, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContent, type ContentHarness } from './harness.ts';

// Search finds the operations of API reference pages by their path, summary and parameter names:
// one of the organization's specs (ReadMe's OpenAPI 3.0 petstore) and a file of the space (its
// Swagger 2.0 petstore), read from their npm package.

const require = createRequire(import.meta.url);
const example = (name: string) => readFileSync(require.resolve(`@readme/oas-examples/${name}`), 'utf8');

let orgs: OrgsHarness;
let h: ContentHarness;
let owner: TestUser, outsider: TestUser;
let orgId: string, otherOrgId: string;
let api: Space;

const page = (title: string, markdown: string): PageContent => ({ id: '', type: 'document', fields: { title }, markdown, href: '', pages: [] });
const searchSpace = (query: string, as: TestUser = owner) => h.callContent<SearchSpaceRequest, SearchResponse>(h.spaceContent.searchSpace, { spaceId: api.id, query }, as.id);
const searchOrg = (query: string, as: TestUser = owner) =>
  h.callContent<SearchOrganizationRequest, SearchResponse>(h.spaceContent.searchOrganization, { organizationId: orgId, query }, as.id);

beforeAll(async () => {
  orgs = await startOrgs();
  h = await startContent(orgs.address);
  ({ owner, outsider, orgId, otherOrgId } = await team(orgs, {}));
  // Another organization's spec, which a page of this one names by its slug.
  const secret = {
    openapi: '3.0.3',
    info: { title: 'Secret', version: '1' },
    paths: { '/secret': { get: { summary: 'Hidden operation', responses: { '200': { description: 'ok' } } } } },
  };
  await h.call(h.client.saveOpenApiSpec, { spec: { organizationId: otherOrgId, slug: 'secret-api' }, source: { text: JSON.stringify(secret) }, createOnly: false }, outsider.id);
  await h.call(h.client.saveOpenApiSpec, { spec: { organizationId: orgId, slug: 'petstore' }, source: { text: example('3.0/json/petstore.json') }, createOnly: false }, owner.id);
  api = await h.call<CreateSpaceRequest, Space>(h.client.createSpace, { organizationId: orgId, title: 'API', emoji: '', editMode: '', visibility: '' }, owner.id);
  const { blob } = (await h.putBlobs(owner.id, [Buffer.from(example('2.0/json/petstore.json'))]))[0]!;
  await h.callContent<CreateRevisionRequest, Revision>(
    h.spaceContent.createRevision,
    {
      spaceId: api.id,
      parentRevisionId: '',
      pages: [
        page('Pets', '{% openapi-operation spec="petstore" path="/pet/{petId}" method="get" %}\n{% endopenapi-operation %}'),
        page('Orders', 'How orders work.\n\n{% openapi src="petstore2.json" path="/store/order" method="post" %}\n[petstore2.json](petstore2.json)\n{% endopenapi %}'),
        page('Sign-in', '{% openapi src="petstore2.json" path="/user/login" method="get" %}\n[petstore2.json](petstore2.json)\n{% endopenapi %}'),
        page('Guide', 'Pets are animals; the store sells them.'),
        page('Borrowed', '{% openapi-operation spec="secret-api" path="/secret" method="get" %}\n{% endopenapi-operation %}'),
      ],
      files: [{ id: 'pets2', name: 'petstore2.json', contentType: 'application/json', blob }],
      setActive: true,
      type: '',
    },
    owner.id,
  );
});
afterAll(() => stopAll(h, orgs));

describe('API operations found by search', () => {
  it('by parameter name, in one of the organization’s specs: the page, its operation as the section', async () => {
    // First, before Guide (whose text matches "pet").
    const res = await searchSpace('petId');
    expect(res.items[0]!.title).toBe('Pets');
    expect(res.items[0]!.sections[0]).toEqual({ id: '', title: 'GET /pet/{petId}', body: 'Find pet by ID\nParameters: petId' });
    // The organization's spec may get a new version with the same revision: the answer is not for keeping.
    expect(res.complete).toBe(false);
  });

  it('by summary and by path, in a file of the space (Swagger 2.0)', async () => {
    const bySummary = await searchSpace('place an order');
    expect(bySummary.items[0]).toMatchObject({ title: 'Orders', sections: [{ title: 'POST /store/order', body: 'Place an order for a pet' }] });
    expect((await searchSpace('/user/login')).items.map((p) => p.title)).toEqual(['Sign-in']);
    expect((await searchSpace('password')).items[0]).toMatchObject({
      title: 'Sign-in',
      sections: [{ title: 'GET /user/login', body: expect.stringContaining('username, password') }],
    });
  });

  it('before the pages whose text matches; no operation for words that name none', async () => {
    const res = await searchSpace('store order');
    expect(res.items[0]!.title).toBe('Orders');
    expect((await searchSpace('animals')).items.map((p) => p.title)).toEqual(['Guide']);
  });

  it('across the organization for its members; another organization’s member finds no such organization', async () => {
    expect((await searchOrg('petId')).items[0]).toMatchObject({ title: 'Pets', sections: [{ title: 'GET /pet/{petId}' }] });
    await rejects(searchOrg('petId', outsider), status.NOT_FOUND);
  });

  it('never from another organization’s spec that a page names by its slug', async () => {
    expect((await searchSpace('hidden operation')).items).toEqual([]);
    expect((await searchOrg('hidden')).items).toEqual([]);
  });
});
