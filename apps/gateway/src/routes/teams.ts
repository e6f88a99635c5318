import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { TEAM } from '@quire/proto/limits';
import { chars, items, Id, ListOf, ListQuery, NoContent, OrgParams, pageRequest } from '../schemas/common.ts';
import { Member, Team, TeamMemberRole } from '../schemas/orgs.ts';
import { presentMember, presentTeam, teamRoleFromApi, teamRoleToApi } from '../presenters/orgs.ts';
import type { RouteDeps } from './context.ts';
import { done, operations, pageOf } from './operation.ts';

const op = operations('teams');
const TeamParams = Type.Object({ organizationId: Id('Organization id'), teamId: Id('Team id') });
const Title = Type.String(chars(TEAM.title));
const UserIds = Type.Array(Id('User id of a member'), items(TEAM.members));

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { orgs }, urls }) => {
  app.get(
    '/orgs/:organizationId/teams',
    op({
      operationId: 'listTeamsInOrganizationById',
      summary: 'List teams',
      params: OrgParams,
      querystring: Type.Object({
        ...ListQuery,
        owner: Type.Optional(Id('Member id: only the teams that member can manage')),
        title: Type.Optional(Type.String({ maxLength: TEAM.title.max, description: 'Case-insensitive contains' })),
      }),
      response: { 200: ListOf(Team) },
    }),
    async (req) => {
      const { owner, title } = req.query;
      const res = await orgs.listTeams({ organizationId: req.params.organizationId, page: pageRequest(req.query), owner, title }, req.caller);
      return pageOf(res, presentTeam);
    },
  );

  app.put(
    '/orgs/:organizationId/teams',
    op({
      operationId: 'createOrganizationTeam',
      summary: 'Create a team, optionally with members (admins only)',
      params: OrgParams,
      body: Type.Object({ title: Title, members: Type.Optional(UserIds) }),
      response: { 201: Team },
    }),
    async (req, reply) => {
      const team = await orgs.createTeam({ organizationId: req.params.organizationId, title: req.body.title, members: req.body.members ?? [] }, req.caller);
      return reply.code(201).send(presentTeam(team));
    },
  );

  app.get(
    '/orgs/:organizationId/teams/:teamId',
    op({ operationId: 'getTeamInOrganizationById', summary: 'Get a team', params: TeamParams, response: { 200: Team } }),
    async (req) => presentTeam(await orgs.getTeam(req.params, req.caller)),
  );

  app.patch(
    '/orgs/:organizationId/teams/:teamId',
    op({
      operationId: 'updateTeamInOrganizationById',
      summary: 'Rename a team (admins and team owners)',
      params: TeamParams,
      body: Type.Object({ title: Title }),
      response: { 200: Team },
    }),
    async (req) => presentTeam(await orgs.updateTeam({ ...req.params, title: req.body.title }, req.caller)),
  );

  app.delete(
    '/orgs/:organizationId/teams/:teamId',
    op({ operationId: 'removeTeamFromOrganizationById', summary: 'Delete a team (admins only)', params: TeamParams, response: { 204: NoContent } }),
    async (req, reply) => done(reply, 204, orgs.deleteTeam(req.params, req.caller)),
  );

  app.get(
    '/orgs/:organizationId/teams/:teamId/members',
    op({
      operationId: 'listTeamMembersInOrganizationById',
      summary: "List a team's members",
      params: TeamParams,
      querystring: Type.Object(ListQuery),
      response: {
        200: ListOf(Type.Object({ organization: Member, team: Type.Object({ role: TeamMemberRole }), permissions: Type.Object({ view: Type.Boolean() }) })),
      },
    }),
    async (req) => {
      const res = await orgs.listTeamMembers({ ...req.params, page: pageRequest(req.query) }, req.caller);
      return pageOf(res, (i) => ({ organization: presentMember(i.member!, urls), team: { role: teamRoleToApi(i.role) }, permissions: { view: true } }));
    },
  );

  app.put(
    '/orgs/:organizationId/teams/:teamId/members',
    op({
      operationId: 'updateMembersInOrganizationTeam',
      summary: "Change a team's members (admins and team owners)",
      params: TeamParams,
      body: Type.Object({
        add: Type.Optional(UserIds),
        remove: Type.Optional(UserIds),
        memberships: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z0-9_-]{1,128}$' }), Type.Object({ role: TeamMemberRole }))),
      }),
      response: { 204: NoContent },
    }),
    async (req, reply) => {
      const { add = [], remove = [], memberships = {} } = req.body;
      await orgs.updateTeamMembers(
        {
          ...req.params,
          add,
          remove,
          memberships: Object.entries(memberships).map(([userId, m]) => ({ userId, role: teamRoleFromApi(m.role) })),
        },
        req.caller,
      );
      return reply.code(204).send();
    },
  );
};

export default routes;
