import { createHash } from 'node:crypto';
import type { PublishedSiteView } from '@quire/proto/sites';
import type { Revision } from '@quire/proto/space-content';
import { GrpcStatus, isServiceError, type Caller } from '@quire/service-kit';
import { LRUCache } from 'lru-cache';
import type { Services } from '../clients.ts';
import type { SiteAddress } from '../domain/address.ts';

// What a page needs from sites and content, with the reuse that keeps pages fast: a public
// site's view and its spaces' active revision ids are reused for READER_FRESHNESS_MS; revisions
// are immutable, so their trees are kept by id as long as there is room. Share-link and
// visitor-auth sites are asked every time, so a deactivated link or a new key counts at once.

export interface SiteView extends PublishedSiteView {
  /** A digest of everything the view shows (site, structure, claims): part of every page's ETag. */
  digest: string;
}

const OPEN = new Set(['public', 'unlisted']);

export const isNotFound = (err: unknown) => isServiceError(err) && (err.code === GrpcStatus.NOT_FOUND || err.code === GrpcStatus.INVALID_ARGUMENT);

export function siteData(services: Services, freshnessMs: number) {
  // No user: the reader's own signature says who calls (its key), and services answer it as the reader.
  const caller = (requestId: string): Caller => ({ requestId });
  const ttl = Math.max(freshnessMs, 1);
  const orgIds = new LRUCache<string, string>({ max: 10_000, ttl: 60_000 });
  const views = new LRUCache<string, SiteView>({ max: 10_000, ttl });
  const heads = new LRUCache<string, string>({ max: 10_000, ttl });
  const revisions = new LRUCache<string, Revision>({ max: 500 });

  /** The organization id of a path's first segment (an id or a hostname); undefined when none matches. */
  async function organization(idOrHostname: string, requestId: string): Promise<string | undefined> {
    const hit = orgIds.get(idOrHostname);
    if (hit) return hit;
    try {
      const { organizationId } = await services.orgs.resolveOrganization({ idOrHostname }, caller(requestId));
      orgIds.set(idOrHostname, organizationId);
      return organizationId;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  return {
    organization,

    /** The site at an address as this visitor sees it; undefined when missing or unpublished. */
    async view(address: SiteAddress, proof: { shareKey?: string; visitorToken?: string }, requestId: string): Promise<SiteView | undefined> {
      const organizationId = address.kind === 'path' ? await organization(address.organization, requestId) : undefined;
      if (address.kind === 'path' && !organizationId) return undefined;
      const key = address.kind === 'path' ? `p:${organizationId}/${address.site}` : `h:${address.hostname}`;
      const hit = freshnessMs > 0 ? views.get(key) : undefined;
      if (hit) return hit;
      let view: PublishedSiteView;
      try {
        view = await services.sites.viewPublishedSite(
          { ...(address.kind === 'path' ? { path: { organizationId: organizationId!, site: address.site } } : { hostname: address.hostname }), shareKey: proof.shareKey, visitorToken: proof.visitorToken },
          caller(requestId),
        );
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
      const digest = createHash('sha256').update(JSON.stringify([view.site, view.structure, view.claimsJson])).digest('base64url').slice(0, 22);
      const out = { ...view, digest };
      if (OPEN.has(view.site!.visibility) && freshnessMs > 0) views.set(key, out);
      return out;
    },

    /** The active revision of a space (its tree and files, without markdown). */
    async revision(spaceId: string, requestId: string): Promise<Revision> {
      const head = heads.get(spaceId);
      const kept = head ? revisions.get(head) : undefined;
      if (kept) return kept;
      const revision = await services.spaceContent.getRevision({ spaceId, revisionId: head ?? '', metadata: false, withMarkdown: false }, caller(requestId));
      heads.set(spaceId, revision.id);
      revisions.set(revision.id, revision);
      return revision;
    },

    async markdown(spaceId: string, revisionId: string, pageId: string, requestId: string): Promise<string> {
      const page = await services.spaceContent.getPage({ spaceId, revisionId, pageId, format: 'markdown', metadata: false }, caller(requestId));
      return page.markdown ?? '';
    },

    async search(spaceId: string, query: string, requestId: string) {
      return (await services.spaceContent.searchSpace({ spaceId, query, page: { page: '', limit: 10 } }, caller(requestId))).items;
    },

    async blob(blob: string, requestId: string): Promise<Uint8Array> {
      return (await services.spaceContent.readBlob({ blob }, caller(requestId))).data;
    },
    caller,
  };
}

export type SiteData = ReturnType<typeof siteData>;
