import type { ContentLocation, LinkUsage, ListLinksResponse } from '@quire/proto/space-content';
import { list } from '../schemas/common.ts';
import type { ContentLocationJson, ContentReferenceUsageJson } from '../schemas/space-links.ts';

export function presentLocation(l: ContentLocation): ContentLocationJson {
  if (l.kind === 'file') return { kind: 'file', organization: l.organizationId, space: l.spaceId, file: l.fileId };
  return { kind: 'page', organization: l.organizationId, space: l.spaceId, page: l.pageId };
}

/** The target of a link found in the space `at` (the organization and space of its pages). */
function target(u: LinkUsage, at: ContentLocation): ContentLocationJson {
  const here = { organization: at.organizationId, space: at.spaceId };
  const anchor = u.targetAnchor ? { internalLocation: { type: 'anchor' as const, anchor: u.targetAnchor } } : {};
  switch (u.targetKind) {
    case 'file':
      return { kind: 'file', ...here, file: u.targetFileId };
    case 'page':
    case 'anchor':
      // A relative path that matches no page keeps the path as written.
      return u.targetPageId ? { kind: 'page', ...here, page: u.targetPageId, ...anchor } : { kind: 'url', url: u.targetUrl };
    default:
      return { kind: 'url', url: u.targetUrl };
  }
}

export function presentLinkUsage(u: LinkUsage): ContentReferenceUsageJson {
  return {
    status: u.status as ContentReferenceUsageJson['status'],
    relation: u.relation === 'embed' ? 'dependsOn' : 'reference',
    targetReference: target(u, u.locations[0]!),
    locationReferences: u.locations.map(presentLocation),
  };
}

export const presentLinks = (res: ListLinksResponse) => ({
  ...list(res.items.map(presentLinkUsage), res.page?.next),
  stats: { total: res.stats?.total ?? 0, broken: { total: res.stats?.broken ?? 0 } },
});
