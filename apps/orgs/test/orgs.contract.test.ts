import { status } from '@grpc/grpc-js';
import { jwtVerify } from 'jose';
import { rejects } from '@quire/service-kit/testing/expect';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemberSort, OrgsServiceService, TeamMemberRole, TokenScope, type BatchGetUsersRequest, type BatchGetUsersResponse } from '@quire/proto/orgs';
import { SortOrder } from '@quire/proto/common';
import { promiseClient, unaryCall } from '@quire/service-kit';
import { Role } from '@quire/policy';
import { testIdentity } from '@quire/service-kit/testing';
import { startOrgs, team, type OrgsHarness, type TestUser } from './harness.ts';

let h: OrgsHarness;
let owner: TestUser, editor: TestUser, reader: TestUser, outsider: TestUser;
let orgId: string, otherOrgId: string;

beforeAll(async () => {
  h = await startOrgs();
  ({ owner, editor, reader, outsider, orgId, otherOrgId } = await team(h, { editor: Role.ROLE_EDIT, reader: Role.ROLE_READ }));
});
afterAll(() => h?.stop());

describe('Authenticate', () => {
  it('resolves a token to its user and refuses anything else', async () => {
    await expect(h.call(h.client.authenticate, { token: owner.token })).resolves.toEqual({ userId: owner.id, scope: TokenScope.TOKEN_SCOPE_WRITE, expiresAt: undefined });
    await rejects(h.call(h.client.authenticate, { token: 'qt_nope' }), status.UNAUTHENTICATED);
    await rejects(h.call(h.client.authenticate, { token: '' }), status.UNAUTHENTICATED);
  });
});

describe('organizations', () => {
  it('shows an organization to members with their permissions, and hides it from others', async () => {
    const org = await h.call(h.client.getOrganization, { organizationId: orgId }, reader.id);
    expect(org).toMatchObject({ id: orgId, title: 'Acme Docs', defaultRole: Role.ROLE_READ, inviteLinks: true });
    expect(org.permissions).toMatchObject({ view: true, admin: false, listMembers: true });
    const asOwner = await h.call(h.client.getOrganization, { organizationId: orgId }, owner.id);
    expect(asOwner.permissions).toMatchObject({ admin: true, createContent: true });
    await rejects(h.call(h.client.getOrganization, { organizationId: orgId }, outsider.id), status.NOT_FOUND);
    await rejects(h.call(h.client.getOrganization, { organizationId: 'missing' }, owner.id), status.NOT_FOUND);
    await rejects(h.call(h.client.getOrganization, { organizationId: orgId }), status.UNAUTHENTICATED);
  });

  it('answers calls made together, sent as one batch, as it answers each alone', async () => {
    const gateway = testIdentity('gateway');
    const orgs = promiseClient(h.client, OrgsServiceService, { identity: gateway, audience: 'orgs' });
    // Assertions signed beforehand: a first signature finishes in a later turn of the event loop.
    await Promise.all([reader, owner, outsider].map((u) => gateway.sign('orgs', { userId: u.id })));
    const batches = vi.spyOn(h.client, 'makeServerStreamRequest');
    // The batch's reads reach PostgreSQL as one statement over every (organization, caller) pair:
    // each call still sees only its own caller's organizations.
    const [asReader, asOwner, , ownOrg] = await Promise.all([
      orgs.getOrganization({ organizationId: orgId }, { userId: reader.id }),
      orgs.getOrganization({ organizationId: orgId }, { userId: owner.id }),
      rejects(orgs.getOrganization({ organizationId: orgId }, { userId: outsider.id }), status.NOT_FOUND),
      orgs.getOrganization({ organizationId: otherOrgId }, { userId: outsider.id }),
      rejects(orgs.getOrganization({ organizationId: otherOrgId }, { userId: reader.id }), status.NOT_FOUND),
    ]);
    expect(batches).toHaveBeenCalledTimes(1);
    batches.mockRestore();
    expect(asReader).toEqual(await h.call(h.client.getOrganization, { organizationId: orgId }, reader.id));
    expect(asOwner).toEqual(await h.call(h.client.getOrganization, { organizationId: orgId }, owner.id));
    expect(ownOrg).toMatchObject({ id: otherOrgId, title: 'Other Org', permissions: { admin: true } });
  });

  it('lets only admins update, within the bounds', async () => {
    const base = { organizationId: orgId, setEmailDomains: false, emailDomains: [], clearDefaultContent: false, clearLogo: false };
    await rejects(h.call(h.client.updateOrganization, { ...base, title: 'New' }, editor.id), status.PERMISSION_DENIED);
    await rejects(h.call(h.client.updateOrganization, { ...base, title: 'N' }, owner.id), status.INVALID_ARGUMENT, /title/);
    await rejects(h.call(h.client.updateOrganization, { ...base, hostname: 'NO SPACES' }, owner.id), status.INVALID_ARGUMENT, /hostname/);
    await rejects(h.call(h.client.updateOrganization, { ...base, logo: 'not a url' }, owner.id), status.INVALID_ARGUMENT, /logo/);
    const updated = await h.call(
      h.client.updateOrganization,
      { ...base, title: 'Acme', hostname: 'acme-docs', setEmailDomains: true, emailDomains: ['Acme.example'], defaultRole: Role.ROLE_GUEST, logo: 'https://x.example/l.png' },
      owner.id,
    );
    expect(updated).toMatchObject({ title: 'Acme', hostname: 'acme-docs', emailDomains: ['acme.example'], defaultRole: Role.ROLE_GUEST, logo: 'https://x.example/l.png' });
    const cleared = await h.call(h.client.updateOrganization, { ...base, clearLogo: true, defaultRole: Role.ROLE_READ }, owner.id);
    expect(cleared.logo).toBeUndefined();
    expect(cleared.title).toBe('Acme');
  });

  it('keeps hostnames unique', async () => {
    const other = await h.call(h.client.createOrganization, { title: 'Second', emailDomains: [] }, owner.id);
    const base = { organizationId: other.id, setEmailDomains: false, emailDomains: [], clearDefaultContent: false, clearLogo: false };
    await rejects(h.call(h.client.updateOrganization, { ...base, hostname: 'acme-docs' }, owner.id), status.ALREADY_EXISTS, /hostname/);
  });

  it("lists the caller's organizations page by page", async () => {
    const first = await h.call(h.client.listOrganizations, { page: { page: '', limit: 1 } }, owner.id);
    expect(first.items).toHaveLength(1);
    expect(first.page?.next).toBeTruthy();
    const second = await h.call(h.client.listOrganizations, { page: { page: first.page!.next!, limit: 1 } }, owner.id);
    expect(second.items).toHaveLength(1);
    expect(second.items[0]!.id).not.toBe(first.items[0]!.id);
    expect(second.page?.next).toBeUndefined();
    await rejects(h.call(h.client.listOrganizations, { page: { page: 'garbage!', limit: 1 } }, owner.id), status.INVALID_ARGUMENT, /page/);
    await rejects(h.call(h.client.listOrganizations, { page: { page: '', limit: 1001 } }, owner.id), status.INVALID_ARGUMENT, /limit/);
  });

  it('resolves an organization by id or hostname, and batch-gets as the caller sees them', async () => {
    await expect(h.call(h.client.resolveOrganization, { idOrHostname: orgId })).resolves.toEqual({ organizationId: orgId });
    await expect(h.call(h.client.resolveOrganization, { idOrHostname: 'acme-docs' })).resolves.toEqual({ organizationId: orgId });
    await rejects(h.call(h.client.resolveOrganization, { idOrHostname: 'no-such-org' }), status.NOT_FOUND);
    const res = await h.call(h.client.batchGetOrganizations, { organizationIds: [orgId, 'missing', orgId] }, outsider.id);
    expect(res.organizations.map((o) => o.id)).toEqual([orgId, orgId]);
    expect(res.organizations[0]!.permissions?.view).toBe(false);
    const asMember = await h.call(h.client.batchGetOrganizations, { organizationIds: [orgId] }, owner.id);
    expect(asMember.organizations[0]!.permissions?.admin).toBe(true);
  });

  it('finds organizations by email domain for people of that domain or its members', async () => {
    const mine = await h.call(h.client.listOrganizationsForEmailDomain, { emailDomain: 'acme.example' }, owner.id);
    expect(mine.organizations.map((o) => o.id)).toEqual([orgId]);
    const theirs = await h.call(h.client.listOrganizationsForEmailDomain, { emailDomain: 'acme.example' }, outsider.id);
    expect(theirs.organizations).toEqual([]);
  });
});

describe('members', () => {
  it('lists with filters, search and sort', async () => {
    const all = await h.call(
      h.client.listMembers,
      { organizationId: orgId, order: SortOrder.SORT_ORDER_ASC, role: Role.ROLE_UNSPECIFIED, sort: MemberSort.MEMBER_SORT_UNSPECIFIED },
      reader.id,
    );
    expect(all.items.map((m) => m.id)).toEqual([owner.id, editor.id, reader.id]);
    const desc = await h.call(
      h.client.listMembers,
      { organizationId: orgId, order: SortOrder.SORT_ORDER_UNSPECIFIED, role: Role.ROLE_UNSPECIFIED, sort: MemberSort.MEMBER_SORT_UNSPECIFIED },
      reader.id,
    );
    expect(desc.items.map((m) => m.id)).toEqual([reader.id, editor.id, owner.id]);
    const editors = await h.call(
      h.client.listMembers,
      { organizationId: orgId, order: SortOrder.SORT_ORDER_ASC, role: Role.ROLE_EDIT, sort: MemberSort.MEMBER_SORT_UNSPECIFIED },
      reader.id,
    );
    expect(editors.items.map((m) => m.id)).toEqual([editor.id]);
    const search = await h.call(
      h.client.listMembers,
      {
        organizationId: orgId,
        order: SortOrder.SORT_ORDER_ASC,
        role: Role.ROLE_UNSPECIFIED,
        search: reader.email.slice(0, 10).toUpperCase(),
        sort: MemberSort.MEMBER_SORT_UNSPECIFIED,
      },
      reader.id,
    );
    expect(search.items.map((m) => m.id)).toEqual([reader.id]);
    await h.call(h.client.ping, { organizationId: orgId }, editor.id);
    const seen = await h.call(
      h.client.listMembers,
      { organizationId: orgId, order: SortOrder.SORT_ORDER_DESC, role: Role.ROLE_UNSPECIFIED, sort: MemberSort.MEMBER_SORT_LAST_SEEN_AT },
      reader.id,
    );
    expect(seen.items.map((m) => m.id)).toEqual([editor.id]);
    expect(seen.items[0]!.lastSeenAt).toBeInstanceOf(Date);
  });

  it('signs visitor claims on ping', async () => {
    const { serviceVisitorClaims } = await h.call(h.client.ping, { organizationId: orgId }, reader.id);
    const { payload } = await jwtVerify(serviceVisitorClaims, new TextEncoder().encode('test-visitor-claims-key-0123456789'));
    expect(payload).toMatchObject({ sub: reader.id, organization: orgId, role: 'read' });
  });

  it('changes roles only as an admin, and never leaves the organization without one', async () => {
    await rejects(h.call(h.client.updateMember, { organizationId: orgId, userId: reader.id, role: Role.ROLE_ADMIN }, editor.id), status.PERMISSION_DENIED);
    await rejects(h.call(h.client.updateMember, { organizationId: orgId, userId: owner.id, role: Role.ROLE_READ }, owner.id), status.ABORTED, /admin/);
    await rejects(h.call(h.client.updateMember, { organizationId: orgId, userId: outsider.id, role: Role.ROLE_READ }, owner.id), status.NOT_FOUND);
    const m = await h.call(h.client.updateMember, { organizationId: orgId, userId: reader.id, role: Role.ROLE_COMMENT }, owner.id);
    expect(m).toMatchObject({ id: reader.id, role: Role.ROLE_COMMENT, user: { email: reader.email } });
    const sso = await h.call(h.client.setMemberSso, { organizationId: orgId, userId: reader.id }, owner.id);
    expect(sso.sso).toBe(true);
  });

  it('removes a member with their team places', async () => {
    const leaver = await h.user('leaver');
    await h.member(orgId, leaver, Role.ROLE_READ);
    const team = await h.call(h.client.createTeam, { organizationId: orgId, title: 'Leavers', members: [leaver.id] }, owner.id);
    expect(team.members).toBe(1);
    await h.call(h.client.removeMember, { organizationId: orgId, userId: leaver.id }, owner.id);
    await rejects(h.call(h.client.getMember, { organizationId: orgId, userId: leaver.id }, owner.id), status.NOT_FOUND);
    const after = await h.call(h.client.getTeam, { organizationId: orgId, teamId: team.id }, owner.id);
    expect(after.members).toBe(0);
  });
});

describe('teams', () => {
  it('creates, lists with filters, renames and deletes', async () => {
    await rejects(h.call(h.client.createTeam, { organizationId: orgId, title: 'X', members: [] }, editor.id), status.PERMISSION_DENIED);
    await rejects(h.call(h.client.createTeam, { organizationId: orgId, title: '', members: [] }, owner.id), status.INVALID_ARGUMENT, /title/);
    await rejects(h.call(h.client.createTeam, { organizationId: orgId, title: 'x'.repeat(65), members: [] }, owner.id), status.INVALID_ARGUMENT, /title/);
    await rejects(h.call(h.client.createTeam, { organizationId: orgId, title: 'Bad', members: [outsider.id] }, owner.id), status.INVALID_ARGUMENT, /members\[0\]/);
    const writers = await h.call(h.client.createTeam, { organizationId: orgId, title: 'Writers', members: [editor.id, reader.id] }, owner.id);
    expect(writers).toMatchObject({ title: 'Writers', members: 2, spaces: 0, permissions: { admin: true, view: true } });
    await h.call(
      h.client.updateTeamMembers,
      { organizationId: orgId, teamId: writers.id, add: [], remove: [], memberships: [{ userId: editor.id, role: TeamMemberRole.TEAM_MEMBER_ROLE_OWNER }] },
      owner.id,
    );

    const byTitle = await h.call(h.client.listTeams, { organizationId: orgId, title: 'WRIT' }, reader.id);
    expect(byTitle.items.map((t) => t.id)).toEqual([writers.id]);
    expect(byTitle.items[0]!.permissions?.admin).toBe(false);
    const ownedByEditor = await h.call(h.client.listTeams, { organizationId: orgId, owner: editor.id }, reader.id);
    expect(ownedByEditor.items.map((t) => t.id)).toEqual([writers.id]);
    const ownedByReader = await h.call(h.client.listTeams, { organizationId: orgId, owner: reader.id }, reader.id);
    expect(ownedByReader.items).toEqual([]);

    const editorTeams = await h.call(h.client.listMemberTeams, { organizationId: orgId, userId: editor.id }, editor.id);
    expect(editorTeams.items).toMatchObject([{ team: { id: writers.id, permissions: { admin: true } }, role: TeamMemberRole.TEAM_MEMBER_ROLE_OWNER }]);

    // A team owner may rename the team but not delete it.
    const renamed = await h.call(h.client.updateTeam, { organizationId: orgId, teamId: writers.id, title: 'Authors' }, editor.id);
    expect(renamed.title).toBe('Authors');
    await rejects(h.call(h.client.updateTeam, { organizationId: orgId, teamId: writers.id, title: 'Nope' }, reader.id), status.PERMISSION_DENIED);
    await rejects(h.call(h.client.deleteTeam, { organizationId: orgId, teamId: writers.id }, editor.id), status.PERMISSION_DENIED);
    await rejects(h.call(h.client.getTeam, { organizationId: orgId, teamId: writers.id }, outsider.id), status.NOT_FOUND);
    await h.call(h.client.deleteTeam, { organizationId: orgId, teamId: writers.id }, owner.id);
    await rejects(h.call(h.client.getTeam, { organizationId: orgId, teamId: writers.id }, owner.id), status.NOT_FOUND);
  });
});

describe('people', () => {
  it('invites by email: existing users join, unknown emails get an account, all or none', async () => {
    const known = await h.user('known');
    await rejects(
      h.call(
        h.client.inviteUsers,
        {
          organizationId: orgId,
          invitees: [
            { email: known.email, role: Role.ROLE_UNSPECIFIED },
            { email: 'not-an-email', role: Role.ROLE_UNSPECIFIED },
          ],
          role: Role.ROLE_UNSPECIFIED,
          sso: false,
        },
        owner.id,
      ),
      status.INVALID_ARGUMENT,
      /emails\[1\]/,
    );
    await rejects(h.call(h.client.getMember, { organizationId: orgId, userId: known.id }, owner.id), status.NOT_FOUND);
    await rejects(
      h.call(h.client.inviteUsers, { organizationId: orgId, invitees: [{ email: 'x@y.io', role: Role.ROLE_UNSPECIFIED }], role: Role.ROLE_UNSPECIFIED, sso: false }, editor.id),
      status.PERMISSION_DENIED,
    );

    const res = await h.call(
      h.client.inviteUsers,
      {
        organizationId: orgId,
        invitees: [
          { email: known.email, role: Role.ROLE_EDIT },
          { email: 'New.Person@Example.com', role: Role.ROLE_UNSPECIFIED },
          { email: editor.email, role: Role.ROLE_ADMIN },
        ],
        role: Role.ROLE_COMMENT,
        sso: false,
      },
      owner.id,
    );
    expect(res.users).toHaveLength(3);
    expect(res.users[0]).toBe(known.id);
    expect(res.users[2]).toBe(editor.id);
    expect(res.invited).toBe(2);
    expect((await h.call(h.client.getMember, { organizationId: orgId, userId: known.id }, owner.id)).role).toBe(Role.ROLE_EDIT);
    const newcomer = await h.call(h.client.getMember, { organizationId: orgId, userId: res.users[1]! }, owner.id);
    expect(newcomer).toMatchObject({ role: Role.ROLE_COMMENT, user: { email: 'new.person@example.com', displayName: 'new.person' } });
    // An existing member keeps the role they had.
    expect((await h.call(h.client.getMember, { organizationId: orgId, userId: editor.id }, owner.id)).role).toBe(Role.ROLE_EDIT);
  });

  it("lists a team's members and answers subdomains", async () => {
    const team = await h.call(h.client.createTeam, { organizationId: orgId, title: 'Listed', members: [editor.id, reader.id] }, owner.id);
    const first = await h.call(h.client.listTeamMembers, { organizationId: orgId, teamId: team.id, page: { page: '', limit: 1 } }, reader.id);
    expect(first.items).toHaveLength(1);
    const second = await h.call(h.client.listTeamMembers, { organizationId: orgId, teamId: team.id, page: { page: first.page!.next!, limit: 1 } }, reader.id);
    expect([first.items[0]!.member!.id, second.items[0]!.member!.id].sort()).toEqual([editor.id, reader.id].sort());
    expect(second.items[0]!.role).toBe(TeamMemberRole.TEAM_MEMBER_ROLE_MEMBER);
    await rejects(h.call(h.client.listTeamMembers, { organizationId: orgId, teamId: team.id }, outsider.id), status.NOT_FOUND);
    await rejects(h.call(h.client.listTeamMembers, { organizationId: orgId, teamId: 'missing' }, reader.id), status.NOT_FOUND);

    await expect(h.call(h.client.getSubdomain, { subdomain: 'acme-docs' }, outsider.id)).resolves.toEqual({ subdomain: 'acme-docs', organizationId: orgId });
    await rejects(h.call(h.client.getSubdomain, { subdomain: 'nobody-here' }, outsider.id), status.NOT_FOUND);
  });
});

describe('link invites', () => {
  it('creates, lists and deletes, for admins only', async () => {
    await rejects(h.call(h.client.createLinkInvite, { organizationId: orgId, role: Role.ROLE_EDIT }, editor.id), status.PERMISSION_DENIED);
    const invite = await h.call(h.client.createLinkInvite, { organizationId: orgId, role: Role.ROLE_EDIT }, owner.id);
    expect(invite).toMatchObject({ role: Role.ROLE_EDIT, redundant: false });
    const readInvite = await h.call(h.client.createLinkInvite, { organizationId: orgId, role: Role.ROLE_READ }, owner.id);
    expect(readInvite.redundant).toBe(true);
    const list = await h.call(h.client.listLinkInvites, { organizationId: orgId }, owner.id);
    expect(list.items.map((i) => i.id)).toEqual([readInvite.id, invite.id]);
    await h.call(h.client.deleteLinkInvite, { organizationId: orgId, inviteId: invite.id }, owner.id);
    await rejects(h.call(h.client.deleteLinkInvite, { organizationId: orgId, inviteId: invite.id }, owner.id), status.NOT_FOUND);
  });
});

describe('users', () => {
  it('shows users who share an organization, and hides the rest', async () => {
    await expect(h.call(h.client.getCurrentUser, {}, reader.id)).resolves.toMatchObject({ id: reader.id, email: reader.email });
    await expect(h.call(h.client.getUser, { userId: owner.id }, reader.id)).resolves.toMatchObject({ id: owner.id });
    await rejects(h.call(h.client.getUser, { userId: outsider.id }, reader.id), status.NOT_FOUND);
  });

  it('answers memberships for other services', async () => {
    const m = await h.call(h.client.getMembership, { organizationId: orgId, userId: editor.id });
    expect(m.role).toBe(Role.ROLE_EDIT);
    const none = await h.call(h.client.getMembership, { organizationId: orgId, userId: outsider.id });
    expect(none).toEqual({ role: Role.ROLE_UNSPECIFIED, teamIds: [] });
    const principals = await h.call(h.client.filterPrincipals, { organizationId: orgId, userIds: [editor.id, outsider.id], teamIds: ['missing'] });
    expect(principals).toEqual({ userIds: [editor.id], teamIds: [] });
    const users = await h.call(h.client.batchGetUsers, { userIds: [owner.id, outsider.id, reader.id], organizationId: '' }, reader.id);
    expect(users.users.map((u) => u.id)).toEqual([owner.id, reader.id]);
    const batch = await h.call(h.client.batchGetMemberships, { userId: editor.id, organizationIds: [orgId, 'missing'] });
    expect(batch.roles).toEqual({ [orgId]: Role.ROLE_EDIT });
  });

  it("tells the reader, calling as itself, the names of an organization's members only: no email, no one else", async () => {
    const asReader = (req: BatchGetUsersRequest) =>
      unaryCall<BatchGetUsersRequest, BatchGetUsersResponse>(h.client, h.client.batchGetUsers, req, { requestId: 'test' }, { identity: testIdentity('reader'), audience: 'orgs' });
    const { users } = await asReader({ userIds: [owner.id, outsider.id, editor.id, 'missing'], organizationId: orgId });
    expect(users).toEqual([
      { id: owner.id, displayName: 'owner', email: '' },
      { id: editor.id, displayName: 'editor', email: '' },
    ]);
    // Attack: the reader without an organization, or naming another one, learns nothing of these members.
    await rejects(asReader({ userIds: [owner.id], organizationId: '' }), status.INVALID_ARGUMENT, /organizationId/);
    expect((await asReader({ userIds: [owner.id, editor.id], organizationId: 'missing' })).users).toEqual([]);
    // Without the reader's identity, no caller sees anyone.
    await rejects(h.call(h.client.batchGetUsers, { userIds: [owner.id], organizationId: orgId }), status.UNAUTHENTICATED);
  });
});
