import type { ReviewServiceServer } from '@quire/proto/review';
import type { File, Page, Revision } from '@quire/proto/space-content';
import { planExport } from '@quire/gitbook-layout';
import { bookHtml, staticSiteZip } from '@quire/render';
import { InvalidArgumentError, MAX_MESSAGE_BYTES, slugify, type Caller, type Handlers } from '@quire/service-kit';
import { zipSync } from 'fflate';
import { ANSWER_ROOM, DEFAULT_EXPORT_LIMITS, EXPORT_FORMATS, exportProblem, type ExportFormat } from '../domain/exports.ts';
import { changeRequestIn, upstream, type Deps } from './deps.ts';

// A revision (a space's, or a change request's) as a downloadable file: the static HTML site, the
// whole revision printed to one PDF, or a Markdown ZIP in GitBook's repository layout.

export interface ExportFile {
  data: Uint8Array;
  filename: string;
  contentType: string;
}

const MIB = 1024 * 1024;

/** Where the files a printed page names are loaded from while printing. */
const FILE_PATH = /^\/files\/([\w-]+)$/;
/** Files read at once from content. */
const READ_CONCURRENCY = 8;

/** The tree in reading order, each page with its depth. */
export function flatten(pages: Page[], depth = 0): (Page & { depth: number })[] {
  return pages.flatMap((p) => [{ ...p, depth }, ...flatten(p.pages, depth + 1)]);
}

const readFile = async (deps: Deps, file: File, caller: Caller) => Buffer.from((await upstream(deps.spaceContent.readBlob({ blob: file.blob }, caller))).data);

/** Every file of the revision with its bytes, a few read at a time. */
async function readFiles(deps: Deps, files: readonly File[], caller: Caller): Promise<{ file: File; data: Uint8Array }[]> {
  const out: { file: File; data: Uint8Array }[] = new Array(files.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < files.length; i = next++) out[i] = { file: files[i]!, data: await readFile(deps, files[i]!, caller) };
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, files.length) }, worker));
  return out;
}

/** The revision's reusable contents' markdown by id (a revision read with its markdown). */
const includedOf = (revision: Revision) => new Map(revision.reusableContents.map((c) => [c.id, c.markdown]));

/** The pages printed as one PDF in Chromium; the page loads the revision's own files and nothing else (the printer refuses the rest). */
export async function printPages(deps: Deps, revision: Revision, pages: (Page & { depth: number })[], title: string, caller: Caller): Promise<Buffer> {
  const html = bookHtml({
    title,
    pages: pages.map(({ depth, ...page }) => ({ page, depth, markdown: page.markdown ?? '' })),
    tree: revision.pages,
    files: revision.files,
    fileHref: (f) => `/files/${f.id}`,
    reusableContents: includedOf(revision),
  });
  const files = new Map(revision.files.map((f) => [f.id, f]));
  return deps.printer.print(html, async (path) => {
    const file = files.get(FILE_PATH.exec(path)?.[1] ?? '');
    if (!file) return undefined;
    return { body: await readFile(deps, file, caller), contentType: file.contentType || 'application/octet-stream' };
  });
}

/** The revision (with its markdown) as a file in `format`, named after `name`; read as `caller`. */
export async function exportRevision(deps: Deps, revision: Revision, format: ExportFormat, title: string, name: string, caller: Caller): Promise<ExportFile> {
  if (format === 'pdf') {
    const pages = flatten(revision.pages).filter((p) => p.type !== 'link');
    return { data: await printPages(deps, revision, pages, title, caller), filename: `${name}.pdf`, contentType: 'application/pdf' };
  }
  const files = await readFiles(deps, revision.files, caller);
  if (format === 'html') {
    const markdown = new Map(flatten(revision.pages).map((p) => [p.id, p.markdown ?? '']));
    return { data: staticSiteZip({ title, tree: revision.pages, markdown, files, reusableContents: includedOf(revision) }), filename: `${name}-html.zip`, contentType: 'application/zip' };
  }
  // GitBook's layout from the repository's root, as Git Sync writes a space into an empty repository.
  const plan = planExport(revision.pages, revision.files, { projectDirectory: '', redirects: revision.redirects, reusableContents: revision.reusableContents });
  const enc = new TextEncoder();
  const entries: Record<string, Uint8Array> = {};
  for (const [path, text] of plan.texts) entries[path] = enc.encode(text);
  for (const { file, data } of files) entries[plan.files.get(file.id)!] = data;
  return { data: zipSync(entries), filename: `${name}-markdown.zip`, contentType: 'application/zip' };
}

/** What is exported: the space's current revision (its markdown too unless `withMarkdown` is false), or a change request's, as `caller` may read it (NOT_FOUND otherwise). */
export async function exportSource(deps: Deps, req: { spaceId: string; changeRequest?: string }, caller: Caller, withMarkdown = true) {
  const space = await upstream(deps.content.getSpace({ spaceId: req.spaceId }, caller));
  const cr = req.changeRequest ? await changeRequestIn(deps, space.id, req.changeRequest) : undefined;
  const revision = await upstream(deps.spaceContent.getRevision({ spaceId: space.id, revisionId: cr?.revision ?? '', metadata: false, withMarkdown }, caller));
  const title = cr ? cr.subject || `Change request #${cr.number}` : space.title || 'Space';
  return { space, cr, revision, title, name: cr ? `change-request-${cr.number}` : slugify(space.title, { fallback: 'space' }) };
}


export function exportHandlers(deps: Deps): Pick<Handlers<ReviewServiceServer>, 'exportSpace'> {
  return {
    async exportSpace(req, ctx) {
      const format = req.format as ExportFormat;
      if (!EXPORT_FORMATS.includes(format)) throw new InvalidArgumentError(`format: "${req.format}" is none of ${EXPORT_FORMATS.join(', ')}`);
      const { revision, title, name } = await exportSource(deps, { spaceId: req.spaceId, changeRequest: req.changeRequest || undefined }, ctx, !req.checkOnly);
      const problem = exportProblem(format, { pages: flatten(revision.pages).filter((p) => p.type !== 'link').length, fileBytes: revision.files.reduce((n, f) => n + f.size, 0) }, deps.exportLimits ?? DEFAULT_EXPORT_LIMITS);
      if (problem) throw new InvalidArgumentError(`format: the ${format} export is refused before it is made: ${problem}`, 'export_too_large');
      if (req.checkOnly) return { data: Buffer.alloc(0), filename: '', contentType: '' };
      const file = await exportRevision(deps, revision, format, title, name, ctx);
      // One answer carries the whole file: one over the message limit is refused here, by name,
      // rather than failing in the caller's client.
      if (file.data.length > ANSWER_ROOM) {
        throw new InvalidArgumentError(`format: the ${format} export is ${(file.data.length / MIB).toFixed(1)} MiB, over the ${MAX_MESSAGE_BYTES / MIB} MiB limit of an export`, 'export_too_large');
      }
      return { ...file, data: Buffer.from(file.data.buffer, file.data.byteOffset, file.data.length) };
    },
  };
}
