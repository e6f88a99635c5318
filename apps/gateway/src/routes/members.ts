import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { MEMBER, TEAM } from '@quire/proto/limits';
import { MemberSort } from '@quire/proto/orgs';
import { SortOrder } from '@quire/proto/common';
import { Role, roleFromApi, roleToApi } from '@quire/policy';
import { chars, Id, ListOf, ListQuery, NoContent, OrgParams, pageRequest, RoleName, RoleOrGuest } from '../schemas/common.ts';
import { Member, Team, TeamMemberRole } from '../schemas/orgs.ts';
import { presentMember, presentTeam, teamRoleToApi } from '../presenters/orgs.ts';
import { presentSpace } from '../presenters/content.ts';
import { Space } from '../schemas/content.ts';
import type { RouteDeps } from './context.ts';
import { done, operations, pageOf } from './operation.ts';

const op = operations('organization-members');
const MemberParams = Type.Object({ organizationId: Id('Organization id'), userId: Id('User id of the member') });

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services, urls }) => {
  const { orgs, content } = services;
  app.get(
    '/orgs/:organizationId/members',
    op({
      operationId: 'listMembersInOrganizationById',
      summary: 'List the members of an organization',
      params: OrgParams,
      querystring: Type.Object({
        ...ListQuery,
        order: Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' }),
        role: Type.Optional(Type.Union([RoleName, Type.Literal('guest')])),
        search: Type.Optional(Type.String({ ...chars(MEMBER.search), description: 'Matches display name and email' })),
        sort: Type.Union([Type.Literal('joinedAt'), Type.Literal('lastSeenAt')], {
          default: 'joinedAt',
          description: 'With `lastSeenAt` only members that have been seen are listed',
        }),
      }),
      response: { 200: ListOf(Member) },
    }),
    async (req) => {
      const q = req.query;
      const res = await orgs.listMembers(
        {
          organizationId: req.params.organizationId,
          page: pageRequest(q),
          order: q.order === 'asc' ? SortOrder.SORT_ORDER_ASC : SortOrder.SORT_ORDER_DESC,
          role: q.role === undefined ? Role.ROLE_UNSPECIFIED : roleFromApi(q.role === 'guest' ? null : q.role),
          search: q.search,
          sort: q.sort === 'lastSeenAt' ? MemberSort.MEMBER_SORT_LAST_SEEN_AT : MemberSort.MEMBER_SORT_JOINED_AT,
        },
        req.caller,
      );
      return pageOf(res, (m) => presentMember(m, urls));
    },
  );

  app.get(
    '/orgs/:organizationId/members/:userId',
    op({ operationId: 'getMemberInOrganizationById', summary: 'Get a member', params: MemberParams, response: { 200: Member } }),
    async (req) => presentMember(await orgs.getMember(req.params, req.caller), urls),
  );

  app.patch(
    '/orgs/:organizationId/members/:userId',
    op({
      operationId: 'updateMemberInOrganizationById',
      summary: "Change a member's role (admins only)",
      params: MemberParams,
      body: Type.Object({ role: Type.Optional(RoleOrGuest) }),
      response: { 200: Member },
    }),
    async (req) => {
      const role = req.body.role === undefined ? undefined : roleFromApi(req.body.role);
      return presentMember(await orgs.updateMember({ ...req.params, role }, req.caller), urls);
    },
  );

  app.delete(
    '/orgs/:organizationId/members/:userId',
    op({ operationId: 'removeMemberFromOrganizationById', summary: 'Remove a member (admins, or members leaving)', params: MemberParams, response: { 204: NoContent } }),
    async (req, reply) => done(reply, 204, orgs.removeMember(req.params, req.caller)),
  );

  app.post(
    '/orgs/:organizationId/ping',
    op({
      operationId: 'updateOrganizationMemberLastSeenAt',
      summary: 'Mark the caller as seen; returns signed visitor claims (also as GitBook names them, gitbookVisitorClaims)',
      params: OrgParams,
      response: { 200: Type.Object({ serviceVisitorClaims: Type.String(), gitbookVisitorClaims: Type.String() }) },
    }),
    async (req) => {
      const { serviceVisitorClaims } = await orgs.ping({ organizationId: req.params.organizationId }, req.caller);
      return { serviceVisitorClaims, gitbookVisitorClaims: serviceVisitorClaims };
    },
  );

  app.post(
    '/orgs/:organizationId/members/:userId/sso',
    op({ operationId: 'setUserAsSSOMemberForOrganization', summary: 'Make a member an SSO member (admins only)', params: MemberParams, response: { 200: Member } }),
    async (req) => presentMember(await orgs.setMemberSso(req.params, req.caller), urls),
  );

  app.get(
    '/orgs/:organizationId/members/:userId/spaces',
    op({
      operationId: 'listSpacesForOrganizationMember',
      summary: "The spaces a member can reach, with the member's role on each (only those the caller sees too)",
      params: MemberParams,
      querystring: Type.Object({ ...ListQuery, order: Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' }) }),
      response: { 200: ListOf(Type.Object({ permission: RoleOrGuest, space: Space })) },
    }),
    async (req) => {
      const res = await content.listMemberSpaces(
        { ...req.params, page: pageRequest(req.query), order: req.query.order === 'asc' ? SortOrder.SORT_ORDER_ASC : SortOrder.SORT_ORDER_DESC },
        req.caller,
      );
      return pageOf(res, (i) => ({ permission: roleToApi(i.permission), space: presentSpace(i.space!, urls) }));
    },
  );

  app.get(
    '/orgs/:organizationId/members/:userId/teams',
    op({
      operationId: 'listTeamsForOrganizationMember',
      summary: "List a member's teams",
      params: MemberParams,
      querystring: Type.Object({ ...ListQuery, title: Type.Optional(Type.String({ maxLength: TEAM.title.max, description: 'Case-insensitive contains' })) }),
      response: { 200: ListOf(Type.Object({ team: Team, member: Type.Object({ role: TeamMemberRole }) })) },
    }),
    async (req) => {
      const res = await orgs.listMemberTeams({ ...req.params, page: pageRequest(req.query), title: req.query.title }, req.caller);
      return pageOf(res, (i) => ({ team: presentTeam(i.team), member: { role: teamRoleToApi(i.role) } }));
    },
  );
};

export default routes;
