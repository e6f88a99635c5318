import type { SpaceContentServiceServer } from '@quire/proto/space-content';
import { checkOneOf, checkUri, InvalidArgumentError, type Handlers } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import { checkPublicUrl } from '@quire/service-kit/outbound';
import { toMarkdown } from '../import/convert.ts';
import { crawl, type CrawlLimits } from '../import/crawl.ts';
import { contentWriter, requireEdit, type RevisionDeps } from './revisions.ts';
import { visibleSpace } from './deps.ts';

type H = Pick<Handlers<SpaceContentServiceServer>, 'importContent'>;

/** GitBook's import sources; only websites are fetched here. */
export const IMPORT_SOURCES = ['website', 'docx', 'markdown', 'html', 'zip', 'confluence', 'github-wiki', 'notion', 'google-docs'] as const;

export const DEFAULT_IMPORT_LIMITS: CrawlLimits = { maxPages: 50, maxPageBytes: 2 * 1024 * 1024, timeoutMs: 30_000 };

export interface ImportDeps extends RevisionDeps {
  importLimits?: CrawlLimits;
}

export function importHandlers(deps: ImportDeps): H {
  const limits = deps.importLimits ?? DEFAULT_IMPORT_LIMITS;
  const writeContent = contentWriter(deps);
  return {
    async importContent(req, ctx) {
      const url = checkUri('url', req.url, 2048);
      if (!req.source) throw new InvalidArgumentError('source: required');
      checkOneOf('source', req.source, IMPORT_SOURCES);
      if (req.source !== 'website') throw new InvalidArgumentError(`source: "${req.source}" imports are not supported; only "website"`);
      // Permission first, so that nothing is fetched for a caller who could not write the result.
      const { space, role } = await visibleSpace(deps, req.spaceId, ctx);
      requireEdit(space, role);
      // Refuses private addresses with a clear message before crawling (fetches check again at connect time).
      await checkPublicUrl(url, { field: 'url' });
      const site = await crawl(url, limits);
      const ids = new Map<string, string>();
      for (const p of site.pages) {
        const id = newId();
        for (const alias of p.aliases) ids.set(alias, id);
      }
      const pages = site.pages.map((p) => ({
        id: ids.get(p.key)!,
        type: 'document',
        fields: { title: p.title },
        markdown: toMarkdown(p, p.url, ids),
        href: '',
        pages: [],
      }));
      // The site becomes the revision's whole content, as a reimport would; with `revisionId`, on
      // top of that revision (a change request's) and the space left alone.
      const revision = await writeContent(space, { parentRevisionId: req.revisionId, pages, files: [], setActive: !req.revisionId, type: 'edits' });
      return { revisionId: revision.id, importedResources: pages.length, totalResources: site.attempted };
    },
  };
}
