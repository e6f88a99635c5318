import type { SpaceContentServiceServer } from '@quire/proto/space-content';
import { checkOneOf, checkUri, InvalidArgumentError, MAX_BLOB_BYTES, type Handlers } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import { checkPublicUrl, fetchPublic } from '@quire/service-kit/outbound';
import { toMarkdown } from '../import/convert.ts';
import { crawl, type CrawlLimits } from '../import/crawl.ts';
import { FILE_SOURCES, importFile, type FileImportLimits, type FileSource } from '../import/files.ts';
import { requireEdit, type RevisionDeps } from './revision-access.ts';
import { contentWriter } from './revisions.ts';
import { visibleSpace } from './deps.ts';

type H = Pick<Handlers<SpaceContentServiceServer>, 'importContent'>;

/** GitBook's import sources: a website, or one file (a Markdown folder's ZIP, an export ZIP for Notion and Confluence) given by its URL. */
export const IMPORT_SOURCES = ['website', 'docx', 'markdown', 'html', 'zip', 'confluence', 'github-wiki', 'notion', 'google-docs'] as const;

export interface ImportLimits extends CrawlLimits, FileImportLimits {
  /** The bytes of the file a file import fetches. */
  maxDownloadBytes: number;
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = {
  maxPages: 50,
  maxPageBytes: 2 * 1024 * 1024,
  timeoutMs: 30_000,
  maxDownloadBytes: 50 * 1024 * 1024,
  maxEntries: 5000,
  maxTotalBytes: 200 * 1024 * 1024,
  maxRatio: 100,
  maxFileBytes: MAX_BLOB_BYTES,
};

export interface ImportDeps extends RevisionDeps {
  importLimits?: ImportLimits;
}

const isFileSource = (source: string): source is FileSource => (FILE_SOURCES as readonly string[]).includes(source);

/** Work that must end by the deadline: past it, a 400 naming the time limit (nothing is written). */
async function within<T>(timeoutMs: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new InvalidArgumentError(`url: the import took longer than ${timeoutMs} ms (the limit)`)), timeoutMs);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

export function importHandlers(deps: ImportDeps): H {
  const limits = deps.importLimits ?? DEFAULT_IMPORT_LIMITS;
  const writeContent = contentWriter(deps);
  return {
    async importContent(req, ctx) {
      const url = checkUri('url', req.url);
      if (!req.source) throw new InvalidArgumentError('source: required');
      checkOneOf('source', req.source, IMPORT_SOURCES);
      if (req.source !== 'website' && !isFileSource(req.source))
        throw new InvalidArgumentError(`source: "${req.source}" imports are not supported; supported: "website", "${FILE_SOURCES.join('", "')}"`);
      // Permission first, so that nothing is fetched for a caller who could not write the result.
      const { space, role } = await visibleSpace(deps, req.spaceId, ctx);
      requireEdit(space, role);
      // Refuses private addresses with a clear message before crawling (fetches check again at connect time).
      await checkPublicUrl(url, { field: 'url' });
      if (isFileSource(req.source)) {
        const source = req.source;
        const deadline = Date.now() + limits.timeoutMs;
        const imported = await within(
          limits.timeoutMs,
          (async () => {
            const res = await fetchPublic(url, { maxBytes: limits.maxDownloadBytes, timeoutMs: limits.timeoutMs }, { field: 'url' });
            if (res.status < 200 || res.status >= 300) throw new InvalidArgumentError(`url: ${url} answered ${res.status}`);
            const name = decodeURIComponent(new URL(res.url).pathname.split('/').pop() ?? '');
            return importFile(source, res.body, name, limits);
          })(),
        );
        // Files go to the blob store before the revision names them (content-addressed: a failed import leaves no reference).
        const files = await Promise.all(imported.files.map(async (f) => ({ id: f.id ?? '', name: f.name, contentType: f.contentType, blob: (await deps.blobs.put(f.data)).blob })));
        if (Date.now() > deadline) throw new InvalidArgumentError(`url: the import took longer than ${limits.timeoutMs} ms (the limit)`);
        const reusableContents = imported.reusableContents && { items: imported.reusableContents.map((r) => ({ ...r, documentId: '' })) };
        const revision = await writeContent(space, { parentRevisionId: req.revisionId, pages: imported.pages, files, reusableContents, setActive: !req.revisionId, type: 'edits' });
        return { revisionId: revision.id, importedResources: imported.imported, totalResources: imported.total };
      }
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
