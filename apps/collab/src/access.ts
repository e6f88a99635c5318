import { randomUUID } from 'node:crypto';
import type { Connection, Hocuspocus } from '@hocuspocus/server';
import type { Logger } from '@quire/service-kit';
import type { DomainEvent, NatsConnection } from '@quire/service-kit/nats';
import { Refusal } from './domain/credentials.ts';
import type { Access, Pages } from './pages.ts';
import type { Context } from './server.ts';

/** What an open editor is told when their access changes (a stateless message, as JSON). */
export interface AccessNotice {
  access: Access | 'none';
  reason: string;
}

/** The domain events that may change who edits: members and teams (orgs), permissions (content), change requests (review). */
export const accessSubjects = (prefix: string) => [`${prefix}.orgs.member.>`, `${prefix}.orgs.team.>`, `${prefix}.content.*.permissions_changed`, `${prefix}.review.>`];

/**
 * Keeps every open connection to what its member may do now. The services' domain events are
 * heard on core NATS as they are published (no consumer to lag behind: milliseconds, where a
 * periodic re-check would take its period), and each connection an event may concern (of that
 * space, else of that organization) is checked again as the member: one who may only read is made
 * read-only, one who may not see the page is closed; either is told why first.
 */
export function watchAccess(nc: NatsConnection, prefix: string, hocuspocus: Hocuspocus<Context>, pages: Pages, log: Logger) {
  const concerns = (e: DomainEvent, { member, page }: Context) => (e.target?.type === 'space' ? page.spaceId === e.target.id : member.organizationId === e.organizationId);

  async function recheck(connection: Connection<Context>) {
    const { page, caller, member } = connection.context;
    let now: AccessNotice;
    try {
      const { access, status } = await pages.access(page, { ...caller, requestId: randomUUID() }, member.readToken);
      if (access === member.access) return;
      const closed = status !== 'open' && status !== 'draft';
      now = {
        access,
        reason: access === 'write' ? 'You may edit this page again' : closed ? `The change request is ${status}: editing has stopped` : 'You may now only read this page',
      };
    } catch (err) {
      if (!(err instanceof Refusal)) return log.warn({ err, documentName: connection.document.name }, 'access not checked again');
      now = { access: 'none', reason: 'Your access to this change request was removed' };
    }
    connection.sendStateless(JSON.stringify(now));
    if (now.access === 'none') return connection.close({ code: 4403, reason: now.reason });
    member.access = now.access;
    connection.readOnly = now.access === 'read';
  }

  const subscriptions = accessSubjects(prefix).map((subject) =>
    nc.subscribe(subject, {
      callback: (err, msg) => {
        if (err) return log.warn({ err, subject }, 'access events not heard');
        let event: DomainEvent;
        try {
          event = msg.json<DomainEvent>();
        } catch {
          return;
        }
        for (const document of hocuspocus.documents.values())
          for (const connection of document.getConnections() as Connection<Context>[]) if (concerns(event, connection.context)) void recheck(connection);
      },
    }),
  );
  return {
    close: () => {
      for (const s of subscriptions) s.unsubscribe();
    },
  };
}
