import { INLINE_IMAGE } from '../../domain/page-look.ts';
import { allSiteSpaces } from '../../domain/structure.ts';
import { notFound } from '../respond.ts';
import type { SiteData } from '../site-data.ts';
import type { SiteRoute } from '../visit.ts';

/** The files of a site's spaces (`~files/{siteSpaceId}/{fileId}`), as its pages link them. */
export function fileRoutes(data: SiteData): Record<string, SiteRoute> {
  return {
    '~files': async (v, rest) => {
      const [siteSpaceId, fileId] = rest;
      const siteSpace = allSiteSpaces(v.view.structure!).find((s) => s.siteSpace.id === siteSpaceId)?.siteSpace;
      const file = siteSpace && fileId ? (await data.revision(siteSpace.spaceId, v.req.id)).files.find((f) => f.id === fileId) : undefined;
      if (!file) return notFound(v.reply, 'No such file.');
      const bytes = await data.blob(file.blob, v.req.id);
      // Only raster images show inline; anything else (SVG, HTML, PDF…) downloads, in a sandbox.
      const inline = INLINE_IMAGE.test(file.contentType);
      return v.reply
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .header('cache-control', 'private, max-age=3600')
        .type(inline ? file.contentType : 'application/octet-stream')
        .send(Buffer.from(bytes));
    },
  };
}
