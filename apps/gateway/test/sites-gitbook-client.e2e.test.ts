import type { AddressInfo } from 'node:net';
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@quire/service-kit';
import type { TestUser } from '@quire/orgs/testing';
import { startGateway } from './harness.ts';

// The official client of the release whose API matches the reference, unchanged, over real HTTP.

let g: Awaited<ReturnType<typeof startGateway>>;
let owner: TestUser;
let reader: TestUser;
let orgId: string;
let endpoint: string;

beforeAll(async () => {
  g = await startGateway();
  await g.app.listen({ host: '127.0.0.1', port: 0 });
  endpoint = `http://127.0.0.1:${(g.app.server.address() as AddressInfo).port}`;
  owner = await g.orgs.user('owner');
  reader = await g.orgs.user('reader');
  orgId = (await g.orgs.organization(owner, [[reader, Role.ROLE_READ]])).id;
});
afterAll(() => g?.stop());

describe('@gitbook/api 0.130.0 against Quire sites', () => {
  it('creates, publishes, fills and lists sites', async () => {
    const api = new GitBookAPI({ endpoint, authToken: owner.token });
    const { data: space } = await api.orgs.createSpace(orgId, { title: 'Guide' });
    const { data: site } = await api.orgs.createSite(orgId, { title: 'Docs site', spaces: [space.id] });
    expect(site).toMatchObject({ object: 'site', title: 'Docs site', type: 'basic', published: false, siteSpaces: 1 });
    const { data: published } = await api.orgs.publishSite(orgId, site.id);
    expect(published).toMatchObject({ id: site.id, published: true });
    const { data: other } = await api.orgs.createSpace(orgId, { title: 'API' });
    const { data: siteSpace } = await api.orgs.addSpaceToSite(orgId, site.id, { spaceId: other.id });
    expect(siteSpace).toMatchObject({ object: 'site-space', path: 'api', space: { id: other.id } });
    const { data: structure } = await api.orgs.getSiteStructure(orgId, site.id);
    expect(structure.type).toBe('siteSpaces');
    const { data: link } = await api.orgs.createSiteShareLink(orgId, site.id, { name: 'Partners' });
    expect(link).toMatchObject({ object: 'share-link', active: true });

    const { data: sites } = await new GitBookAPI({ endpoint, authToken: reader.token }).orgs.listSites(orgId, { published: true });
    expect(sites.items.map((s) => s.id)).toEqual([site.id]);
  });

  it('surfaces a reader creating a site as a 403 GitBookAPIError', async () => {
    const err = await new GitBookAPI({ endpoint, authToken: reader.token }).orgs.createSite(orgId, { title: 'Nope' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitBookAPIError);
    expect((err as GitBookAPIError).code).toBe(403);
  });
});
