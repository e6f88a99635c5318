import { GitBookAPI, GitBookAPIError, MemberRole } from '@gitbook/api';
import { describe, expect } from 'vitest';
import { Role } from '@quire/policy';
import { tenant, test as base, type Tenant } from './fixtures.ts';

// The official client of the release whose API matches the reference, unchanged, over real HTTP.

// Each test in an organization of its own: its owner and a reader, no one else.
const it = base.extend<{ acme: Tenant<'reader'> }>({
  acme: async ({ g }, use) => use(await tenant(g, { reader: Role.ROLE_READ })),
});

describe('@gitbook/api 0.130.0 against Quire', () => {
  it('reads the user, organizations and members', async ({ acme: { owner, reader, orgId }, origin }) => {
    const api = new GitBookAPI({ endpoint: origin, authToken: owner.token });
    const { data: me } = await api.user.getAuthenticatedUser();
    expect(me).toMatchObject({ object: 'user', id: owner.id });
    const { data: orgs } = await api.orgs.listOrganizationsForAuthenticatedUser();
    expect(orgs.items.map((o) => o.id)).toEqual([orgId]);
    const { data: org } = await api.orgs.getOrganizationById(orgId);
    expect(org).toMatchObject({ object: 'organization', id: orgId, title: 'Acme Docs', permissions: { admin: true } });
    const { data: members } = await api.orgs.listMembersInOrganizationById(orgId, { order: 'asc' });
    expect(members.items.map((m) => m.user.id)).toEqual([owner.id, reader.id]);
    const { data: updated } = await api.orgs.updateMemberInOrganizationById(orgId, reader.id, { role: MemberRole.Comment });
    expect(updated.role).toBe('comment');
    const { data: ping } = await api.orgs.updateOrganizationMemberLastSeenAt(orgId);
    expect(ping).toHaveProperty('serviceVisitorClaims');
  });

  it('creates, lists and deletes teams', async ({ acme: { owner, reader, orgId }, origin }) => {
    const api = new GitBookAPI({ endpoint: origin, authToken: owner.token });
    const { data: team } = await api.orgs.createOrganizationTeam(orgId, { title: 'Docs team', members: [reader.id] });
    expect(team).toMatchObject({ object: 'team', title: 'Docs team', members: 1 });
    const { data: teams } = await api.orgs.listTeamsInOrganizationById(orgId, { title: 'docs' });
    expect(teams.items.map((t) => t.id)).toEqual([team.id]);
    await api.orgs.removeTeamFromOrganizationById(orgId, team.id);
    const { data: after } = await api.orgs.listTeamsInOrganizationById(orgId);
    expect(after.items).toEqual([]);
  });

  it('surfaces errors as GitBookAPIError with our message', async ({ acme: { reader, orgId }, origin }) => {
    const api = new GitBookAPI({ endpoint: origin, authToken: reader.token });
    const err = await api.orgs.updateOrganizationById(orgId, { title: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitBookAPIError);
    expect((err as GitBookAPIError).code).toBe(400);
    expect((err as GitBookAPIError).errorMessage).toMatch(/title/);
    const denied = await new GitBookAPI({ endpoint: origin, authToken: 'qt_bad' }).orgs.listOrganizationsForAuthenticatedUser().catch((e: unknown) => e);
    expect((denied as GitBookAPIError).code).toBe(401);
  });
});

describe('@gitbook/api 0.130.0 against Quire sites', () => {
  it('creates, publishes, fills and lists sites', async ({ acme: { owner, reader, orgId }, origin }) => {
    const api = new GitBookAPI({ endpoint: origin, authToken: owner.token });
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

    const { data: sites } = await new GitBookAPI({ endpoint: origin, authToken: reader.token }).orgs.listSites(orgId, { published: true });
    expect(sites.items.map((s) => s.id)).toEqual([site.id]);
  });

  it('surfaces a reader creating a site as a 403 GitBookAPIError', async ({ acme: { reader, orgId }, origin }) => {
    const err = await new GitBookAPI({ endpoint: origin, authToken: reader.token }).orgs.createSite(orgId, { title: 'Nope' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitBookAPIError);
    expect((err as GitBookAPIError).code).toBe(403);
  });
});
