import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { COMMON, MEMBER } from '@quire/proto/limits';
import { Role, roleFromApi } from '@quire/policy';
import { chars, Id, items, NoContent, OrgParams, RoleOrGuest } from '../schemas/common.ts';
import { LinkInvite } from '../schemas/orgs.ts';
import { presentLinkInvite } from '../presenters/orgs.ts';
import type { RouteDeps } from './context.ts';
import { done, operations, pagedLists } from './operation.ts';

const op = operations('organization-invites');

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { orgs } }) => {
  const list = pagedLists(app, op);
  list(
    '/orgs/:organizationId/link-invites',
    { operationId: 'listOrganizationInviteLinks', summary: 'List invite links (admins only)', params: OrgParams, item: LinkInvite },
    ({ organizationId }, page, caller) => orgs.listLinkInvites({ organizationId, page }, caller),
    presentLinkInvite,
  );

  app.post(
    '/orgs/:organizationId/link-invites',
    op({
      operationId: 'createOrganizationInvite',
      summary: 'Create an invite link that joins people at a role (admins only)',
      params: OrgParams,
      body: Type.Object({ role: RoleOrGuest }),
      response: { 201: LinkInvite },
    }),
    async (req, reply) => {
      const invite = await orgs.createLinkInvite({ organizationId: req.params.organizationId, role: roleFromApi(req.body.role) }, req.caller);
      return reply.code(201).send(presentLinkInvite(invite));
    },
  );

  app.post(
    '/orgs/:organizationId/invites',
    op({
      operationId: 'inviteUsersToOrganization',
      summary: 'Add people by email (admins only): existing users join, unknown emails get an account',
      params: OrgParams,
      body: Type.Object({
        emails: Type.Array(
          Type.Union([Type.String(chars(COMMON.emailAddress)), Type.Object({ email: Type.String(chars(COMMON.emailAddress)), role: RoleOrGuest })]),
          items(MEMBER.invitees),
        ),
        role: Type.Optional(RoleOrGuest),
        sso: Type.Optional(Type.Boolean()),
      }),
      response: { 200: Type.Object({ users: Type.Array(Type.String()), invited: Type.Integer(), failedSSOEmails: Type.Array(Type.String()) }) },
    }),
    async (req) => {
      const { emails, role, sso } = req.body;
      const res = await orgs.inviteUsers(
        {
          organizationId: req.params.organizationId,
          invitees: emails.map((e) => (typeof e === 'string' ? { email: e, role: Role.ROLE_UNSPECIFIED } : { email: e.email, role: roleFromApi(e.role) })),
          role: role === undefined ? Role.ROLE_UNSPECIFIED : roleFromApi(role),
          sso: sso ?? false,
        },
        req.caller,
      );
      // Quire signs nobody in by SSO on invitation, so no SSO email can fail.
      return { users: res.users, invited: res.invited, failedSSOEmails: [] };
    },
  );

  app.delete(
    '/orgs/:organizationId/link-invites/:inviteId',
    op({
      operationId: 'deleteOrganizationInviteById',
      summary: 'Delete an invite link (admins only)',
      params: Type.Object({ organizationId: Id('Organization id'), inviteId: Id('Invite id') }),
      response: { 205: NoContent },
    }),
    async (req, reply) => done(reply, 205, orgs.deleteLinkInvite(req.params, req.caller)),
  );
};

export default routes;
