import type { ReviewServiceServer } from '@quire/proto/review';
import type { Page } from '@quire/proto/space-content';
import { NotFoundError, type Handlers } from '@quire/service-kit';
import { parseGfm } from '@quire/service-kit/markdown';
import { imageSources, isEmbeddable, renderPdf, type PdfPage } from '../domain/pdf.ts';
import { spaceAndChangeRequest, upstream, type Deps } from './deps.ts';

/** The tree in reading order, each page with its depth. */
function flatten(pages: Page[], depth = 0): (Page & { depth: number })[] {
  return pages.flatMap((p) => [{ ...p, depth }, ...flatten(p.pages, depth + 1)]);
}

/** Documents link their files as `/files/<fileId>`. */
const FILE_SRC = /^\/files\/([A-Za-z0-9_-]+)$/;

export function pdfHandlers(deps: Deps): Pick<Handlers<ReviewServiceServer>, 'renderChangeRequestPdf'> {
  return {
    async renderChangeRequestPdf(req, ctx) {
      const { space, cr } = await spaceAndChangeRequest(deps, req, ctx);
      const revision = await upstream(deps.spaceContent.getRevision({ spaceId: space.id, revisionId: cr.revision, metadata: false, withMarkdown: true }, ctx));
      let pages = flatten(revision.pages).filter((p) => p.type !== 'link');
      if (req.pageId) {
        pages = pages.filter((p) => p.id === req.pageId).map((p) => ({ ...p, depth: 0 }));
        if (!pages.length) throw new NotFoundError(`page: "${req.pageId}" not found in change request #${cr.number}`);
      }
      const docs: PdfPage[] = pages.map((p) => ({ title: p.title, depth: p.depth, root: parseGfm(p.markdown ?? '') }));

      // The revision's own files only: a PDF made on the server fetches nothing from the network.
      const blobs = new Map(revision.files.map((f) => [f.id, f.blob]));
      const wanted = imageSources(docs.map((d) => d.root)).flatMap((src) => {
        const blob = blobs.get(FILE_SRC.exec(src)?.[1] ?? '');
        return blob ? [[src, blob] as const] : [];
      });
      const fetched = await Promise.all(wanted.map(async ([src, blob]) => [src, (await upstream(deps.spaceContent.readBlob({ blob }, ctx))).data] as const));
      const images = new Map(fetched.filter(([, data]) => isEmbeddable(data)).map(([src, data]) => [src, Buffer.from(data)]));

      const title = cr.subject || `Change request #${cr.number}`;
      const pdf = await renderPdf(title, docs, (src) => images.get(src));
      return { pdf, filename: `change-request-${cr.number}${req.pageId ? `-${req.pageId}` : ''}.pdf` };
    },
  };
}
