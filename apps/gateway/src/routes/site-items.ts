import type { ItemPointer, SiteSection as SectionMsg, SiteSectionGroup as GroupMsg, SiteSpace as SiteSpaceMsg } from '@quire/proto/sites';
import type { Caller } from '@quire/service-kit';
import { sitePresenters } from '../presenters/sites.ts';
import type { RouteDeps } from './context.ts';
import { pageOf } from './operation.ts';

// What the routes of site-spaces, sections, section groups and the site structure share.

export const base = '/orgs/:organizationId/sites/:siteId';
export const deprecated = '(deprecated: use the site structure sort)';

/** `null` removes a field (`set` without a value), absent leaves it. */
export const settable = <T>(v: T | null | undefined) => ({ set: v !== undefined, value: v ?? undefined });

/** A move position as the sites service takes it: an anchor before or after. */
export function anchors<P>(position: { before?: P; after?: P } | undefined, pointer: (p: P) => ItemPointer) {
  return { before: position?.before && pointer(position.before), after: position?.after && pointer(position.after) };
}

type At = { caller: Caller; params: { organizationId: string } };

/** Site items presented with the spaces they embed (asked of content in one call per answer). */
export function itemPresenters({ services, urls }: Pick<RouteDeps, 'services' | 'urls'>) {
  const present = (req: At, items: Parameters<typeof sitePresenters>[4]) => sitePresenters(services, req.caller, urls, req.params.organizationId, items);
  /** One kind of item: one item, or a page of a list answer. */
  const kind = <V, R>(wrap: (v: V) => Parameters<typeof present>[1][number], pick: (p: Awaited<ReturnType<typeof present>>) => (v: V) => R) => ({
    one: async (req: At, v: V) => pick(await present(req, [wrap(v)]))(v),
    page: async (req: At, res: { items: V[]; page?: { next?: string } }) => pageOf(res, pick(await present(req, res.items.map(wrap)))),
  });
  return {
    present,
    siteSpaces: kind(
      (siteSpace: SiteSpaceMsg) => ({ siteSpace }),
      (p) => p.siteSpace,
    ),
    sections: kind(
      (section: SectionMsg) => ({ section }),
      (p) => p.section,
    ),
    groups: kind(
      (group: GroupMsg) => ({ group }),
      (p) => p.group,
    ),
  };
}
