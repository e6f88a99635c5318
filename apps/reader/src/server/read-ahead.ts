import { randomUUID } from 'node:crypto';
import { changeRequestMerged } from '@quire/service-kit/merged-events';
import { parseDomainEvent, type DomainEvent, type NatsConnection } from '@quire/service-kit/nats';
import type { FastifyBaseLogger } from 'fastify';
import { tabsOf } from '../domain/structure.ts';
import type { SiteData } from './site-data.ts';

// What a site shows is read ahead when it changes, not at its first page view: a site just
// published (its spaces' active revisions), a change request merged or a Git import made into a
// space the reader serves (its new revision). Reading a revision tells `onRevision` of it, which reads its spec files, so
// the first visitor of an API reference waits for no 5 MB parse. Every replica hears every event
// (a plain subscription, no consumer): each keeps its own pages. An event missed (the reader down)
// costs only the wait it would have saved.

/** Spaces of one published site read ahead, at most. */
const SPACES_READ_AHEAD = 50;

export function readAhead(nc: NatsConnection, prefix: string, data: SiteData, log: FastifyBaseLogger) {
  const publicSpaces = async (e: DomainEvent, requestId: string): Promise<string[]> => {
    if (!e.organizationId || !e.target?.id) return [];
    const view = await data.view({ kind: 'path', organization: e.organizationId, site: e.target.id }, {}, requestId);
    if (!view?.structure) return [];
    const siteSpaces = [...view.structure.items.flatMap((i) => (i.siteSpace ? [i.siteSpace] : [])), ...tabsOf(view.structure).flatMap((t) => t.section.siteSpaces)];
    return [...new Set(siteSpaces.map((s) => s.spaceId))];
  };
  const handlers: Record<string, (e: DomainEvent, requestId: string) => Promise<unknown>> = {
    [`${prefix}.sites.site.published`]: async (e, requestId) => {
      // The site's spaces as sites names them, whatever its visibility (a visitor still passes the
      // site's checks to see a page); from the view anyone may read for an event without them.
      const named = Array.isArray(e.details?.spaceIds) ? e.details.spaceIds.filter((id): id is string => typeof id === 'string').slice(0, SPACES_READ_AHEAD) : undefined;
      const spaceIds = named ?? (await publicSpaces(e, requestId));
      await Promise.all(spaceIds.map((spaceId) => data.revision(spaceId, requestId)));
    },
    [`${prefix}.content.change_request.merged`]: async (e, requestId) => {
      const merge = changeRequestMerged(e);
      if (merge) await data.renewed(merge.spaceId, requestId);
    },
    // A Git import (a push through the webhook, polling, or one asked for) made the space's new revision.
    [`${prefix}.git-sync.git.import_completed`]: async (e, requestId) => {
      if (e.target?.type === 'space' && e.target.id) await data.renewed(e.target.id, requestId);
    },
  };
  const subscriptions = Object.entries(handlers).map(([subject, handle]) => {
    const sub = nc.subscribe(subject);
    void (async () => {
      for await (const m of sub) {
        const e = parseDomainEvent(m.string());
        const requestId = `read-ahead-${randomUUID()}`;
        // Not awaited: one slow site does not hold up the next event.
        if (e) handle(e, requestId).catch((err: unknown) => log.info({ err, subject, requestId }, 'not read ahead'));
      }
    })();
    return sub;
  });
  return {
    close: () => subscriptions.forEach((s) => s.unsubscribe()),
  };
}
