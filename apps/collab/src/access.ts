import { randomUUID } from 'node:crypto';
import type { Connection, Hocuspocus } from '@hocuspocus/server';
import type { Msg } from 'nats';
import type { Logger } from '@quire/service-kit';
import { AUTH_REVOKED_SUBJECT, type DomainEvent, type NatsConnection } from '@quire/service-kit/nats';
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
 * read-only, one who may not see the page is closed; either is told why first. Orgs' revocations
 * (a sign-out, a token deleted) name credential hashes: a connection made with one is authenticated
 * again and closed if orgs refuses it, so a forged revocation cannot end a credential that works.
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

  async function reauthenticate(connection: Connection<Context>) {
    const { credential, caller } = connection.context;
    try {
      await pages.authenticate(credential, { ...caller, requestId: randomUUID() });
    } catch (err) {
      if (!(err instanceof Refusal)) return log.warn({ err, documentName: connection.document.name }, 'credential not checked again');
      const reason = credential.kind === 'token' ? 'Your access token was revoked' : 'Your session has ended: sign in again';
      connection.sendStateless(JSON.stringify({ access: 'none', reason } satisfies AccessNotice));
      connection.close({ code: 4401, reason });
    }
  }

  const connections = function* () {
    for (const document of hocuspocus.documents.values()) yield* document.getConnections() as Connection<Context>[];
  };
  const listen = <T>(subject: string, parse: (msg: Msg) => T, handle: (message: T) => void) =>
    nc.subscribe(subject, {
      callback: (err, msg) => {
        if (err) return log.warn({ err, subject }, 'access events not heard');
        let message: T;
        try {
          message = parse(msg);
        } catch {
          return;
        }
        handle(message);
      },
    });

  const subscriptions = [
    ...accessSubjects(prefix).map((subject) =>
      listen(
        subject,
        (msg) => msg.json<DomainEvent>(),
        (event) => {
          for (const connection of connections()) if (concerns(event, connection.context)) void recheck(connection);
        },
      ),
    ),
    listen(
      AUTH_REVOKED_SUBJECT,
      (msg) => new Set(msg.json<{ hashes: string[] }>().hashes),
      (hashes) => {
        for (const connection of connections()) if (hashes.has(connection.context.credentialHash)) void reauthenticate(connection);
      },
    ),
  ];
  return {
    close: () => {
      for (const s of subscriptions) s.unsubscribe();
    },
  };
}
