import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AUDIT } from '@quire/proto/limits';
import type { AuditEntry as AuditEntryMsg } from '@quire/proto/orgs';
import { AuditLog } from '../schemas/auth.ts';
import { chars, ListQuery, OrgParams, pageRequest, Timestamp } from '../schemas/common.ts';
import { iso } from '../presenters/time.ts';
import type { RouteDeps } from './context.ts';
import { operations, pageOf } from './operation.ts';

const op = operations('organizations');

function presentEntry(e: AuditEntryMsg) {
  return {
    object: 'audit-entry' as const,
    id: e.id,
    createdAt: iso(e.createdAt),
    actor: e.actor || null,
    action: e.action,
    target: e.targetType ? { type: e.targetType, id: e.targetId } : null,
    ip: e.ip || null,
    userAgent: e.userAgent || null,
    details: JSON.parse(e.detailsJson || '{}') as Record<string, unknown>,
  };
}

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { orgs } }) => {
  app.get(
    '/orgs/:organizationId/audit-log',
    op({
      operationId: 'listOrganizationAuditLog',
      summary: 'Who did what in the organization, newest first (admins)',
      params: OrgParams,
      querystring: Type.Object({
        ...ListQuery,
        actor: Type.Optional(Type.String({ ...chars(AUDIT.actor), description: 'Only entries of this user id' })),
        action: Type.Optional(Type.String({ ...chars(AUDIT.action), description: 'Only this action, e.g. `user.sign_in_failed`' })),
        from: Type.Optional({ ...Timestamp, description: 'Entries at or after this time' }),
        to: Type.Optional({ ...Timestamp, description: 'Entries before this time' }),
      }),
      response: { 200: AuditLog },
    }),
    async (req) => {
      const { actor, action, from, to } = req.query;
      const res = await orgs.listAuditLog(
        { organizationId: req.params.organizationId, page: pageRequest(req.query), actor, action, from: from ? new Date(from) : undefined, to: to ? new Date(to) : undefined },
        req.caller,
      );
      return pageOf(res, presentEntry);
    },
  );
};

export default routes;
