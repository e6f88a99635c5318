import type { ContentLocation, SpaceContentServiceServer } from '@quire/proto/space-content';
import { checkOneOf, NotFoundError, type Handlers } from '@quire/service-kit';
import { LINK_STATUSES, linkUsages, pageAnchors, revisionView, type LinkPage } from '../domain/links.ts';
import type { Link } from '../domain/markdown.ts';
import { offsetPage, offsetPageOf } from '../domain/search.ts';
import { flatten } from '../domain/tree.ts';
import type { SpaceRow } from '../store/index.ts';
import type { RevisionRow } from '../store/revisions.ts';
import type { Deps } from './deps.ts';
import { readRevision } from './revision-access.ts';

type H = Pick<Handlers<SpaceContentServiceServer>, 'listLinks' | 'listFileBacklinks'>;

export interface LinkDeps extends Deps {
  /** The web app's address: links to it are `in-app`. */
  appUrl?: string;
}

const pageLocation = (space: SpaceRow, pageId: string): ContentLocation => ({ kind: 'page', organizationId: space.organizationId, spaceId: space.id, pageId, fileId: '' });

/** The revision's document pages in reading order, with what link checks need of each. */
async function linkPages(deps: Deps, revision: RevisionRow) {
  const located = flatten(revision.tree.pages).filter((l) => l.page.documentId);
  const anchors = await deps.store.search.documentAnchors([...new Set(located.map((l) => l.page.documentId!))]);
  return located.map((l): LinkPage & { documentId: string } => ({
    id: l.page.id,
    path: l.path,
    hasChildren: l.page.pages.length > 0,
    anchors: pageAnchors(anchors.get(l.page.documentId!) ?? []),
    documentId: l.page.documentId!,
  }));
}

export function linkHandlers(deps: LinkDeps): H {
  const { store } = deps;
  return {
    async listLinks(req, ctx) {
      if (req.status) checkOneOf('status', req.status, LINK_STATUSES);
      const { offset, limit } = offsetPage(req.page);
      const { space, revision } = await readRevision(deps, req.spaceId, req.revisionId, ctx);
      const pages = await linkPages(deps, revision);
      let linking = pages;
      if (req.pageId) {
        linking = pages.filter((p) => p.id === req.pageId);
        // Group and link pages have no document, hence no links, but they exist.
        if (linking.length === 0 && !flatten(revision.tree.pages).some((l) => l.page.id === req.pageId)) throw new NotFoundError(`Page "${req.pageId}" not found`);
      }
      const rows = await store.search.documentLinks([...new Set(linking.map((p) => p.documentId))]);
      const byDocument = new Map<string, Link[]>();
      for (const r of rows) {
        let list = byDocument.get(r.documentId);
        if (!list) byDocument.set(r.documentId, (list = []));
        list.push(r);
      }
      const view = revisionView(
        pages,
        revision.tree.files.map((f) => f.id),
        deps.appUrl,
      );
      const usages = linkUsages(
        linking.map((page) => ({ page, links: byDocument.get(page.documentId) ?? [] })),
        view,
      );
      const shown = req.status ? usages.filter((u) => u.status === req.status) : usages;
      const { items, next } = offsetPageOf(shown.slice(offset, offset + limit + 1), offset, limit);
      return {
        items: items.map((u) => ({
          status: u.status,
          relation: u.relation,
          targetKind: u.target.kind,
          targetUrl: u.target.url,
          targetPageId: u.target.pageId,
          targetFileId: u.target.fileId,
          targetAnchor: u.target.anchor,
          locations: u.pageIds.map((id) => pageLocation(space, id)),
        })),
        page: { next },
        stats: { total: usages.length, broken: usages.filter((u) => u.status === 'broken').length },
      };
    },

    async listFileBacklinks(req, ctx) {
      const { offset, limit } = offsetPage(req.page);
      const { space, revision } = await readRevision(deps, req.spaceId, req.revisionId, ctx);
      if (!revision.tree.files.some((f) => f.id === req.fileId)) throw new NotFoundError(`File "${req.fileId}" not found`);
      const pages = flatten(revision.tree.pages).filter((l) => l.page.documentId);
      const linking = await store.search.documentsLinkingFile([...new Set(pages.map((l) => l.page.documentId!))], req.fileId);
      const found = pages.filter((l) => linking.has(l.page.documentId!));
      const { items, next } = offsetPageOf(found.slice(offset, offset + limit + 1), offset, limit);
      return { items: items.map((l) => pageLocation(space, l.page.id)), page: { next } };
    },
  };
}
