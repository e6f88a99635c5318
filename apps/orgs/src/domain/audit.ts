import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { DomainEvent } from '@quire/service-kit/nats';

// How a domain event becomes audit-log entries: plain rules, apart from NATS and the database.

const Short = Type.String({ minLength: 1, maxLength: 128 });
const EventSchema = Type.Object({
  id: Short,
  occurredAt: Type.String({ minLength: 1, maxLength: 40 }),
  service: Short,
  entity: Short,
  verb: Short,
  organizationId: Type.Optional(Short),
  actor: Type.Optional(Short),
  target: Type.Optional(Type.Object({ type: Short, id: Short })),
  ip: Type.Optional(Type.String({ maxLength: 64 })),
  userAgent: Type.Optional(Type.String({ maxLength: 512 })),
  details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

/** The event in a message, or null when the message is not one (it is then dropped, not retried). */
export function parseEvent(data: string): DomainEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (!Value.Check(EventSchema, value)) return null;
  const e = value as Static<typeof EventSchema>;
  return Number.isNaN(Date.parse(e.occurredAt)) ? null : e;
}

export const actionOf = (e: Pick<DomainEvent, 'entity' | 'verb'>) => `${e.entity}.${e.verb}`;

/**
 * Whose organizations see an event that names none: the user it is about (a sign-in, failed or
 * not), else the user who acted (a token made).
 */
export function userOfEvent(e: DomainEvent): string | undefined {
  return e.target?.type === 'user' ? e.target.id : e.actor;
}

export interface AuditRow {
  id: string;
  eventId: string;
  organizationId: string | null;
  createdAt: Date;
  actor: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
  userAgent: string | null;
  details: Record<string, unknown>;
}

/** One entry per organization that sees the event, or one without an organization when none does. */
export function auditRows(e: DomainEvent, organizationIds: (string | null)[], newId: () => string): AuditRow[] {
  const orgs = e.organizationId ? [e.organizationId] : organizationIds.length ? organizationIds : [null];
  return orgs.map((organizationId) => ({
    id: newId(),
    eventId: e.id,
    organizationId,
    createdAt: new Date(e.occurredAt),
    actor: e.actor ?? null,
    action: actionOf(e),
    targetType: e.target?.type ?? null,
    targetId: e.target?.id ?? null,
    ip: e.ip ?? null,
    userAgent: e.userAgent ?? null,
    details: e.details ?? {},
  }));
}
