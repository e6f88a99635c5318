import type { ContentLocation, LinkUsage, ListLinksResponse, Page as PageMsg } from '@quire/proto/space-content';
import type { Caller } from '@quire/service-kit';
import type { Services } from '../clients.ts';
import { list, pageRequest } from '../schemas/common.ts';
import type { ContentLocationJson, ContentReferenceUsageJson, LinksQuery } from '../schemas/space-links.ts';
import type { LinkSigner } from '../signing.ts';
import { presentOrganization } from './orgs.ts';
import { presentFile, presentPage } from './space-content.ts';
import { presentSpace } from './content.ts';
import type { Urls } from './urls.ts';
import type { Static } from '@sinclair/typebox';

type Deps = { services: Pick<Services, 'orgs' | 'content' | 'spaceContent'>; urls: Urls; links: LinkSigner };

/** A page of the links of the content of `spaceId` at `revisionId` (its current one when empty), or of one of its pages, presented. */
export async function linksOf(deps: Deps, caller: Caller, at: { spaceId: string; revisionId: string; pageId: string }, query: Static<typeof LinksQuery>) {
  const res = await deps.services.spaceContent.listLinks({ ...at, status: query.status ?? '', page: pageRequest(query) }, caller);
  return (await linkPresenters(deps, caller, at.spaceId, at.revisionId)).links(res);
}

/**
 * Presenters of where links are and go (GitBook's ContentLocation: the organization, space, page
 * and file as objects), for the content of `spaceId` at `revisionId` (its current one when empty).
 * The revision, the space and its organization are asked for once per request.
 */
export async function linkPresenters({ services, urls, links }: Deps, caller: Caller, spaceId: string, revisionId: string) {
  const [revision, space] = await Promise.all([
    services.spaceContent.getRevision({ spaceId, revisionId, metadata: false, withMarkdown: false, withDocuments: false }, caller),
    services.content.getSpace({ spaceId }, caller).then((s) => presentSpace(s, urls)),
  ]);
  const organization = presentOrganization(await services.orgs.getOrganization({ organizationId: space.organization }, caller), urls);
  const pages = new Map<string, PageMsg>();
  const walk = (ps: PageMsg[]) => ps.forEach((p) => (pages.set(p.id, p), walk(p.pages)));
  walk(revision.pages);
  const files = new Map(revision.files.map((f) => [f.id, f]));
  const l = { urls, links };
  const here = { organization, space };

  const page = (id: string, url: string, anchor?: string): ContentLocationJson => {
    const p = pages.get(id);
    if (!p) return { kind: 'url', url };
    return { kind: 'page', ...here, page: presentPage(p, spaceId, l), ...(anchor ? { internalLocation: { type: 'anchor' as const, anchor } } : {}) };
  };
  const file = (id: string, url: string): ContentLocationJson => {
    const f = files.get(id);
    return f ? { kind: 'file', ...here, file: presentFile(f, l) } : { kind: 'url', url };
  };

  const location = (at: ContentLocation): ContentLocationJson => (at.kind === 'file' ? file(at.fileId, '') : page(at.pageId, ''));

  /**
   * The target of a link. One the revision does not hold (broken) has no object to show: it is
   * the URL as written, or the content link form (`/pages/<id>`, `/files/<id>`) content resolved.
   */
  const target = (u: LinkUsage): ContentLocationJson => {
    switch (u.targetKind) {
      case 'file':
        return file(u.targetFileId, u.targetUrl || `/files/${u.targetFileId}`);
      case 'page':
      case 'anchor':
        return u.targetPageId ? page(u.targetPageId, u.targetUrl || `/pages/${u.targetPageId}`, u.targetAnchor || undefined) : { kind: 'url', url: u.targetUrl };
      default:
        return { kind: 'url', url: u.targetUrl };
    }
  };

  const usage = (u: LinkUsage): ContentReferenceUsageJson => ({
    status: u.status as ContentReferenceUsageJson['status'],
    relation: u.relation === 'embed' ? 'dependsOn' : 'reference',
    targetReference: target(u),
    locationReferences: u.locations.map(location),
  });

  return {
    location,
    links: (res: ListLinksResponse) => ({
      ...list(res.items.map(usage), res.page?.next),
      stats: { total: res.stats?.total ?? 0, broken: { total: res.stats?.broken ?? 0 } },
    }),
  };
}
