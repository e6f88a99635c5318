import { rowsAfter, type Page } from '@quire/service-kit';
import type { Prisma } from '../generated/prisma/client.ts';
import type { AuditRow } from '../domain/audit.ts';
import type { Db } from './index.ts';

export type AuditEntryRow = Prisma.AuditEntryGetPayload<object>;

/** The organizations' audit logs. */
export function auditStore(database: Db) {
  const db = database.prisma;
  return {
    /** Appends entries; an entry already written for the same event and organization is skipped. */
    async appendAudit(rows: AuditRow[]): Promise<void> {
      await db.auditEntry.createMany({ data: rows.map((r) => ({ ...r, details: r.details as Prisma.InputJsonObject })), skipDuplicates: true });
    },

    /** The organization's audit log, newest first. */
    listAudit(organizationId: string, filter: { actor?: string; action?: string; from?: Date; to?: Date }, page: Page) {
      const createdAt = filter.from || filter.to ? { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lt: filter.to } : {}) } : undefined;
      return db.auditEntry.findMany({
        where: { organizationId, actor: filter.actor, action: filter.action, createdAt },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        ...rowsAfter(page),
      });
    },
  };
}
