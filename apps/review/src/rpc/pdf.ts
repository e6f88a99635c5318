import type { ReviewServiceServer } from '@quire/proto/review';
import { NotFoundError, type Handlers } from '@quire/service-kit';
import { spaceAndChangeRequest, type Deps } from './deps.ts';
import { exportedContent, flatten, printPages } from './exports.ts';

export function pdfHandlers(deps: Deps): Pick<Handlers<ReviewServiceServer>, 'renderChangeRequestPdf'> {
  return {
    async renderChangeRequestPdf(req, ctx) {
      const { space, cr } = await spaceAndChangeRequest(deps, req, ctx);
      const revision = await deps.spaceContent.getRevision(exportedContent(space.id, cr.revision), ctx);
      let pages = flatten(revision.pages).filter((p) => p.type !== 'link');
      if (req.pageId) {
        pages = pages.filter((p) => p.id === req.pageId).map((p) => ({ ...p, depth: 0 }));
        if (!pages.length) throw new NotFoundError(`page: "${req.pageId}" not found in change request #${cr.number}`);
      }
      const title = cr.subject || `Change request #${cr.number}`;
      const pdf = await printPages(deps, revision, pages, title, ctx);
      return { pdf, filename: `change-request-${cr.number}${req.pageId ? `-${req.pageId}` : ''}.pdf` };
    },
  };
}
