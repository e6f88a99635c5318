import { createHash } from 'node:crypto';
import type { PublishedSiteView } from '@quire/proto/sites';
import { MAX_INCLUDE_DEPTH, type JSONDocument } from '@quire/document';
import type { Revision, ReusableContent, SearchPage } from '@quire/proto/space-content';
import { includeTargets } from '@quire/render';
import { GrpcStatus, isServiceError, type Caller } from '@quire/service-kit';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import pLimit from 'p-limit';
import type { Services } from '../clients.ts';
import type { SiteAddress } from '../domain/address.ts';
import { lookOf, type Look } from '../domain/look.ts';

const INCLUDE_READS_IN_FLIGHT = 8;
// Pages' markdown kept, in characters (UTF-16 code units): a few thousand pages of a large site.
const MARKDOWN_KEPT_CHARS = 64 * 1024 * 1024;
const SEARCHES_KEPT = 5_000;

// What a page needs from sites and content, with the reuse that keeps pages fast: a public
// site's view and its spaces' active revision ids are reused for READER_FRESHNESS_MS, then asked
// again in the background while the next requests are answered from them (no request of a busy
// site waits for that refresh); revisions
// are immutable, so their trees are kept by id as long as there is room, and a space's tree is
// fetched again only when its active revision id (asked of the space, a small answer) changes.
// Identical questions asked at once are asked once: when an idle site is visited again, every
// waiting page shares one call rather than each asking again. Share-link and
// visitor-auth sites are asked every time, so a deactivated link, a new key or an ended session
// counts at once. A page's markdown and a query's answer in a revision are the revision's for
// good (a new one publishes under a new id), so they are kept by revision id too; an answer only
// once content says every page of the space is indexed, since a large revision is indexed after
// it is stored and until then a query may yet find more.

export interface SiteView extends PublishedSiteView {
  /** A digest of everything the view shows (site, structure, claims, customization): part of every page's ETag. */
  digest: string;
  look: Look;
}

const OPEN = new Set(['public', 'unlisted']);

export const isNotFound = (err: unknown) => isServiceError(err) && (err.code === GrpcStatus.NOT_FOUND || err.code === GrpcStatus.INVALID_ARGUMENT);

/** Runs `run` once for concurrent callers with the same key. */
function singleFlight<T>() {
  const inflight = new Map<string, Promise<T>>();
  return (key: string, run: () => Promise<T>): Promise<T> => {
    let p = inflight.get(key);
    if (!p) {
      p = run().finally(() => inflight.delete(key));
      inflight.set(key, p);
    }
    return p;
  };
}

/**
 * Answers reused for `freshMs`, then, for as long again, still answered at once while one call
 * asks anew in the background (stale-while-revalidate): a busy site never waits for its refresh,
 * and what it shows is at most twice `freshMs` old. Past that, a request asks before it answers.
 * An answer `keep` refuses is never reused; a failed refresh leaves the answer kept, to be asked
 * again by the next request. `freshMs` 0: every request asks. `load` shares calls asked at once
 * (it knows which questions are the same: a site's view depends on the visitor's proof too).
 */
function revalidating<T>(freshMs: number, onFailure: (err: unknown) => void) {
  const kept = new LRUCache<string, { value: T; at: number }>({ max: 10_000 });
  const refreshing = new Set<string>();
  const answer = async (key: string, load: () => Promise<T>, keep: (value: T) => boolean = () => true): Promise<T> => {
    const asked = async () => {
      const value = await load();
      if (freshMs > 0 && keep(value)) kept.set(key, { value, at: Date.now() });
      else kept.delete(key);
      return value;
    };
    const hit = kept.get(key);
    const age = hit ? Date.now() - hit.at : Infinity;
    if (age >= 2 * freshMs) return asked();
    if (age >= freshMs && !refreshing.has(key)) {
      refreshing.add(key);
      asked()
        .catch(onFailure)
        .finally(() => refreshing.delete(key));
    }
    return hit!.value;
  };
  /** Drops a key's answer: the next request asks. */
  return Object.assign(answer, { forget: (key: string) => void kept.delete(key) });
}

/** `onRevision`: told of each revision when it is first read (to read ahead what its pages will need). */
export function siteData(services: Services, freshnessMs: number, onRevision?: (revision: Revision, requestId: string) => void, log?: FastifyBaseLogger) {
  // No user: the reader's own signature says who calls (its key), and services answer it as the reader.
  const caller = (requestId: string): Caller => ({ requestId });
  const refreshFailed = (err: unknown) => log?.warn({ err }, 'refresh failed: the kept answer is served until the next one');
  const orgIds = revalidating<string | undefined>(60_000, refreshFailed);
  const views = revalidating<SiteView | undefined>(freshnessMs, refreshFailed);
  const heads = revalidating<string>(freshnessMs, refreshFailed);
  const revisions = new LRUCache<string, Revision>({ max: 500 });
  // Spaces whose pages the reader has served: a new revision of one is read ahead.
  const served = new LRUCache<string, true>({ max: 10_000 });
  const askView = singleFlight<PublishedSiteView>();
  const askHead = singleFlight<string>();
  const askRevision = singleFlight<Revision>();
  // Reusable contents' markdown by document id: content-addressed, so kept as long as there is room.
  const included = new LRUCache<string, string>({ max: 2_000 });
  const askIncluded = singleFlight<string>();
  const markdowns = new LRUCache<string, string>({ maxSize: MARKDOWN_KEPT_CHARS, sizeCalculation: (md) => md.length + 1 });
  const askMarkdown = singleFlight<string>();
  const searches = new LRUCache<string, SearchPage[]>({ max: SEARCHES_KEPT });
  const askSearch = singleFlight<{ items: SearchPage[]; complete: boolean }>();

  async function reusableMarkdown(spaceId: string, revisionId: string, content: ReusableContent, requestId: string): Promise<string> {
    const kept = included.get(content.documentId);
    if (kept !== undefined) return kept;
    const markdown = await askIncluded(
      content.documentId,
      async () => (await services.spaceContent.getReusableContent({ spaceId, revisionId, reusableContentId: content.id, metadata: false }, caller(requestId))).markdown,
    );
    included.set(content.documentId, markdown);
    return markdown;
  }

  /** The organization id of a path's first segment (an id or a hostname); undefined when none matches. */
  function organization(idOrHostname: string, requestId: string): Promise<string | undefined> {
    return orgIds(
      idOrHostname,
      async () => {
        try {
          return (await services.orgs.resolveOrganization({ idOrHostname }, caller(requestId))).organizationId;
        } catch (err) {
          if (isNotFound(err)) return undefined;
          throw err;
        }
      },
      (id) => id !== undefined,
    );
  }

  /** The active revision of a space (its tree and files, without markdown). */
  async function revision(spaceId: string, requestId: string): Promise<Revision> {
    served.set(spaceId, true);
    const head = await heads(spaceId, () => askHead(spaceId, async () => (await services.content.getSpace({ spaceId }, caller(requestId))).revisionId));
    const kept = revisions.get(head);
    if (kept) return kept;
    const revisionId = head;
    const got = await askRevision(`${spaceId}/${revisionId}`, () =>
      services.spaceContent.getRevision({ spaceId, revisionId, metadata: false, withMarkdown: false, withDocuments: false }, caller(requestId)),
    );
    if (!revisions.has(got.id)) {
      revisions.set(got.id, got);
      onRevision?.(got, requestId);
    }
    return got;
  }

  return {
    organization,

    revision,

    /**
     * Told a space has a new active revision: when it is one the reader serves, its revision is read
     * now (and `onRevision` told), not at its next page view.
     */
    async renewed(spaceId: string, requestId: string): Promise<void> {
      if (!served.has(spaceId)) return;
      heads.forget(spaceId);
      await revision(spaceId, requestId);
    },

    /** The site at an address as this visitor sees it; undefined when missing or unpublished. */
    async view(
      address: SiteAddress,
      proof: { shareKey?: string; visitorToken?: string; memberSession?: string; memberGrant?: string },
      requestId: string,
    ): Promise<SiteView | undefined> {
      const organizationId = address.kind === 'path' ? await organization(address.organization, requestId) : undefined;
      if (address.kind === 'path' && !organizationId) return undefined;
      const key = address.kind === 'path' ? `p:${organizationId}/${address.site}` : `h:${address.hostname}`;
      const request = {
        ...(address.kind === 'path' ? { path: { organizationId: organizationId!, site: address.site } } : { hostname: address.hostname }),
        shareKey: proof.shareKey,
        visitorToken: proof.visitorToken,
        memberSession: proof.memberSession,
        memberGrant: proof.memberGrant,
      };
      const load = async (): Promise<SiteView | undefined> => {
        let view: PublishedSiteView;
        try {
          view = await askView(JSON.stringify(request), () => services.sites.viewPublishedSite(request, caller(requestId)));
        } catch (err) {
          if (isNotFound(err)) return undefined;
          throw err;
        }
        const digest = createHash('sha256')
          .update(JSON.stringify([view.site, view.structure, view.claimsJson, view.customizationJson, view.member]))
          .digest('base64url')
          .slice(0, 22);
        return { ...view, digest, look: lookOf(view.customizationJson, view.site!.title) };
      };
      // Open sites look the same to everyone; who else gets in is asked again on every page.
      return views(key, load, (view) => view !== undefined && OPEN.has(view.site!.visibility));
    },

    async markdown(spaceId: string, revisionId: string, pageId: string, requestId: string): Promise<string> {
      const key = `${revisionId}/${pageId}`;
      const kept = markdowns.get(key);
      if (kept !== undefined) return kept;
      const markdown = await askMarkdown(
        key,
        async () => (await services.spaceContent.getPage({ spaceId, revisionId, pageId, format: 'markdown', metadata: false }, caller(requestId))).markdown ?? '',
      );
      markdowns.set(key, markdown);
      return markdown;
    },

    /** The page as the editor wrote it: content's model of it, refs resolved to the revision. */
    async document(spaceId: string, revisionId: string, pageId: string, requestId: string): Promise<JSONDocument> {
      const page = await services.spaceContent.getPage({ spaceId, revisionId, pageId, format: 'document', metadata: false }, caller(requestId));
      return page.documentJson ? (JSON.parse(page.documentJson) as JSONDocument) : { object: 'document', data: {}, nodes: [] };
    },

    /**
     * The markdown of the revision's reusable contents a page includes (`ids`, as its document or
     * markdown names them), by id, nested ones too as deep as they are rendered; each level read at once.
     */
    async includes(spaceId: string, revision: Revision, ids: string[], requestId: string): Promise<Map<string, string>> {
      const byId = new Map(revision.reusableContents.map((c) => [c.id, c]));
      const out = new Map<string, string>();
      // A page may include hundreds: one page view asks content a few at a time.
      const limit = pLimit(INCLUDE_READS_IN_FLIGHT);
      let texts: string[] = [];
      for (let depth = 0; depth < MAX_INCLUDE_DEPTH && byId.size; depth++) {
        const wanted = [...new Set(depth === 0 ? ids : texts.flatMap(includeTargets))].filter((id) => byId.has(id) && !out.has(id));
        if (wanted.length === 0) break;
        texts = await Promise.all(wanted.map((id) => limit(() => reusableMarkdown(spaceId, revision.id, byId.get(id)!, requestId))));
        wanted.forEach((id, i) => out.set(id, texts[i]!));
      }
      return out;
    },

    /** The names of the organization's members among `userIds` (a page's mentions), by id. */
    async memberNames(organizationId: string, userIds: string[], requestId: string): Promise<Map<string, string>> {
      if (!userIds.length) return new Map();
      const { users } = await services.orgs.batchGetUsers({ userIds, organizationId }, caller(requestId));
      return new Map(users.map((u) => [u.id, u.displayName]));
    },

    /** The pages of a space's revision (its active one, as `revision` gives it) a query finds, best first. */
    async search(spaceId: string, revisionId: string, query: string, requestId: string): Promise<SearchPage[]> {
      const key = `${spaceId}/${revisionId}\n${query}`;
      const kept = searches.get(key);
      if (kept) return kept;
      const { items, complete } = await askSearch(key, () => services.spaceContent.searchSpace({ spaceId, query, page: { page: '', limit: 10 } }, caller(requestId)));
      if (complete) searches.set(key, items);
      return items;
    },

    async blob(blob: string, requestId: string): Promise<Uint8Array> {
      return (await services.spaceContent.readBlob({ blob }, caller(requestId))).data;
    },
    caller,
  };
}

export type SiteData = ReturnType<typeof siteData>;
