import type { AuditEntry, OrgsServiceServer } from '@quire/proto/orgs';
import { AUDIT } from '@quire/proto/limits';
import { checkLength, InvalidArgumentError, pageOf, type Handlers } from '@quire/service-kit';
import { authorize } from '../domain/policy.ts';
import type { AuditEntryRow } from '../store/index.ts';
import { callerOf, pageArgs, type Deps } from './deps.ts';
import { roleIn } from './organizations.ts';

type H = Handlers<OrgsServiceServer>;

function presentEntry(e: AuditEntryRow): AuditEntry {
  return {
    id: e.id,
    createdAt: e.createdAt,
    actor: e.actor ?? '',
    action: e.action,
    targetType: e.targetType ?? '',
    targetId: e.targetId ?? '',
    ip: e.ip ?? '',
    userAgent: e.userAgent ?? '',
    detailsJson: JSON.stringify(e.details ?? {}),
  };
}

export function auditHandlers({ store }: Deps): Pick<H, 'listAuditLog'> {
  return {
    async listAuditLog({ organizationId, page, actor, action, from, to }, ctx) {
      authorize(await roleIn(store, organizationId, callerOf(ctx)), 'viewAuditLog');
      if (from && to && from.getTime() > to.getTime()) throw new InvalidArgumentError('from: must not be after to');
      const { limit, page: p } = pageArgs(page);
      const filter = {
        actor: actor ? checkLength('actor', actor, AUDIT.actor) : undefined,
        action: action ? checkLength('action', action, AUDIT.action) : undefined,
        from,
        to,
      };
      const { items, next } = pageOf(await store.listAudit(organizationId, filter, p), limit, (e) => e.id);
      return { items: items.map(presentEntry), page: { next } };
    },
  };
}
