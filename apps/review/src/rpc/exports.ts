import type { ReviewServiceServer } from '@quire/proto/review';
import type { File, Page, Revision } from '@quire/proto/space-content';
import { planExport } from '@quire/gitbook-layout';
import { type JSONDocument, mentionedUsers, titleSlug } from '@quire/document';
import { bookHtml, staticSiteZip } from '@quire/render';
import { callerOf, DomainError, GrpcStatus, InvalidArgumentError, MAX_MESSAGE_BYTES, NotFoundError, type Caller, type Handlers } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import { zipSync } from 'fflate';
import { ANSWER_ROOM, DEFAULT_EXPORT_LIMITS, EXPORT_FORMATS, EXPORT_KEEP_SECONDS, exportProblem, type ExportFormat } from '../domain/exports.ts';
import { presentExportJob } from '../presenters.ts';
import { changeRequestIn, spaceOf, usersById, type Deps } from './deps.ts';

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

const readFile = async (deps: Deps, file: File, caller: Caller) => Buffer.from((await deps.spaceContent.readBlob({ blob: file.blob }, caller)).data);

/** What a job's export adds: a count of the files read (its progress), a PDF's own time limit. */
export interface JobHooks {
  onRead?: () => void;
  pdfTimeoutMs?: number;
}

/** Every file of the revision with its bytes, a few read at a time. */
async function readFiles(deps: Deps, files: readonly File[], caller: Caller, onRead?: () => void): Promise<{ file: File; data: Uint8Array }[]> {
  const out: { file: File; data: Uint8Array }[] = new Array(files.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < files.length; i = next++) {
      out[i] = { file: files[i]!, data: await readFile(deps, files[i]!, caller) };
      onRead?.();
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, files.length) }, worker));
  return out;
}

/**
 * How exports read a revision: with every page's markdown (the `.md` files), and the documents
 * that say more than their markdown (PDF and HTML render those whole, as the reader does).
 */
export const exportedContent = (spaceId: string, revisionId: string, withContent = true) => ({
  spaceId,
  revisionId,
  metadata: false,
  withMarkdown: withContent,
  withDocuments: withContent,
});

/** The display names of the members the revision's documents mention, which the export prints (markdown cannot name them). */
async function memberNames(deps: Deps, pages: readonly Page[], caller: Caller): Promise<Map<string, string>> {
  const ids = pages.flatMap((p) => (p.documentJson === undefined ? [] : mentionedUsers(JSON.parse(p.documentJson) as JSONDocument)));
  if (ids.length === 0) return new Map();
  const user = await usersById(deps, ids, caller);
  return new Map(ids.map((id) => [id, user(id).displayName] as const).filter(([, name]) => name));
}

/** The revision's reusable contents' markdown by id (a revision read with its markdown). */
const includedOf = (revision: Revision) => new Map(revision.reusableContents.map((c) => [c.id, c.markdown]));

/** The pages printed as one PDF in Chromium; the page loads the revision's own files and nothing else (the printer refuses the rest). */
export async function printPages(deps: Deps, revision: Revision, pages: (Page & { depth: number })[], title: string, caller: Caller, job: JobHooks = {}): Promise<Buffer> {
  const html = bookHtml({
    title,
    pages: pages.map(({ depth, ...page }) => ({ page, depth })),
    tree: revision.pages,
    files: revision.files,
    fileHref: (f) => `/files/${f.id}`,
    reusableContents: includedOf(revision),
    memberNames: await memberNames(deps, pages, caller),
  });
  const files = new Map(revision.files.map((f) => [f.id, f]));
  return deps.printer.print(
    html,
    async (path) => {
      const file = files.get(FILE_PATH.exec(path)?.[1] ?? '');
      if (!file) return undefined;
      const body = await readFile(deps, file, caller);
      job.onRead?.();
      return { body, contentType: file.contentType || 'application/octet-stream' };
    },
    job.pdfTimeoutMs,
  );
}

/** The pages an export holds (links are entries of the tree, not pages). */
export const exportedPages = (revision: Revision) => flatten(revision.pages).filter((p) => p.type !== 'link');

/** The revision (with its markdown) as a file in `format`, named after `name`; read as `caller`. */
export async function exportRevision(deps: Deps, revision: Revision, format: ExportFormat, title: string, name: string, caller: Caller, job: JobHooks = {}): Promise<ExportFile> {
  if (format === 'pdf') {
    return { data: await printPages(deps, revision, exportedPages(revision), title, caller, job), filename: `${name}.pdf`, contentType: 'application/pdf' };
  }
  const files = await readFiles(deps, revision.files, caller, job.onRead);
  if (format === 'html') {
    return {
      data: staticSiteZip({
        title,
        tree: revision.pages,
        files,
        reusableContents: includedOf(revision),
        memberNames: await memberNames(deps, flatten(revision.pages), caller),
      }),
      filename: `${name}-html.zip`,
      contentType: 'application/zip',
    };
  }
  // GitBook's layout from the repository's root, as Git Sync writes a space into an empty repository.
  const plan = planExport(revision.pages, revision.files, { projectDirectory: '', redirects: revision.redirects, reusableContents: revision.reusableContents });
  const enc = new TextEncoder();
  const entries: Record<string, Uint8Array> = {};
  for (const [path, text] of plan.texts) entries[path] = enc.encode(text);
  for (const { file, data } of files) entries[plan.files.get(file.id)!] = data;
  return { data: zipSync(entries), filename: `${name}-markdown.zip`, contentType: 'application/zip' };
}

/**
 * What is exported: the space's current revision (its content too unless `withContent` is
 * false), or a change request's, or the given `revisionId` of either (a job's), as `caller` may
 * read it (NOT_FOUND otherwise).
 */
export async function exportSource(deps: Deps, req: { spaceId: string; changeRequest?: string; revisionId?: string }, caller: Caller, withContent = true) {
  const space = await deps.content.getSpace({ spaceId: req.spaceId }, caller);
  const cr = req.changeRequest ? await changeRequestIn(deps, space.id, req.changeRequest) : undefined;
  const revisionId = req.revisionId ?? cr?.revision ?? '';
  const revision = await deps.spaceContent.getRevision(exportedContent(space.id, revisionId, withContent), caller);
  const title = cr ? cr.subject || `Change request #${cr.number}` : space.title || 'Space';
  return { space, cr, revision, title, name: cr ? `change-request-${cr.number}` : titleSlug(space.title, { fallback: 'space' }) };
}

/** The format named, INVALID_ARGUMENT for another. */
export function exportFormat(format: string): ExportFormat {
  if (!EXPORT_FORMATS.includes(format as ExportFormat)) throw new InvalidArgumentError(`format: "${format}" is none of ${EXPORT_FORMATS.join(', ')}`);
  return format as ExportFormat;
}

/** exportSource, refused (INVALID_ARGUMENT naming the bound) when the content is past the bounds of `format`: nothing is read or rendered then. */
export async function boundedSource(deps: Deps, req: Parameters<typeof exportSource>[1], format: ExportFormat, caller: Caller, withContent: boolean) {
  const source = await exportSource(deps, req, caller, withContent);
  const { revision } = source;
  const problem = exportProblem(
    format,
    { pages: exportedPages(revision).length, fileBytes: revision.files.reduce((n, f) => n + f.size, 0) },
    deps.exportLimits ?? DEFAULT_EXPORT_LIMITS,
  );
  if (problem) throw new InvalidArgumentError(`format: the ${format} export is refused before it is made: ${problem}`, 'export_too_large');
  return source;
}

/** The file, refused by name when one answer cannot carry it (rather than failing in the caller's client). */
export function fitAnswer(file: ExportFile, format: ExportFormat): ExportFile & { data: Buffer } {
  if (file.data.length > ANSWER_ROOM) {
    throw new InvalidArgumentError(
      `format: the ${format} export is ${(file.data.length / MIB).toFixed(1)} MiB, over the ${MAX_MESSAGE_BYTES / MIB} MiB limit of an export`,
      'export_too_large',
    );
  }
  return { ...file, data: Buffer.from(file.data.buffer, file.data.byteOffset, file.data.length) };
}

const jobNotFound = () => new NotFoundError('Export not found, or past its time');

export function exportHandlers(deps: Deps): Pick<Handlers<ReviewServiceServer>, 'exportSpace' | 'startExport' | 'getExport'> {
  return {
    async exportSpace(req, ctx) {
      const format = exportFormat(req.format);
      const { revision, title, name } = await boundedSource(deps, { spaceId: req.spaceId, changeRequest: req.changeRequest || undefined }, format, ctx, !req.checkOnly);
      if (req.checkOnly) return { data: Buffer.alloc(0), filename: '', contentType: '' };
      return fitAnswer(await exportRevision(deps, revision, format, title, name, ctx), format);
    },

    async startExport(req, ctx) {
      const userId = callerOf(ctx);
      const format = exportFormat(req.format);
      // Without the content: only the revision's id, its tree and its files' sizes are needed now.
      const { space, cr, revision } = await boundedSource(deps, { spaceId: req.spaceId, changeRequest: req.changeRequest || undefined }, format, ctx, false);
      const expiresAt = new Date(Date.now() + EXPORT_KEEP_SECONDS * 1000);
      const { job, created } = await deps.store.startExportJob(
        { id: newId(), spaceId: space.id, changeRequestId: cr?.id ?? '', revision: revision.id, format, userId, chain: [...ctx.chain] },
        expiresAt,
      );
      if (created) {
        try {
          await deps.exports.publish({ jobId: job.id });
        } catch (err) {
          ctx.log.error({ err, jobId: job.id }, 'queueing an export job failed');
          await deps.store.failExportJob({ id: job.id }, { code: GrpcStatus.UNAVAILABLE, message: 'The export could not be queued' });
          throw new DomainError(GrpcStatus.UNAVAILABLE, 'unavailable', 'The export queue is unavailable, try again');
        }
      }
      return presentExportJob(job);
    },

    async getExport(req, ctx) {
      const userId = callerOf(ctx);
      const job = await deps.store.getExportJob(req.jobId);
      // Only its user's, for the space and change request it was asked for, while it is kept.
      if (!job || job.userId !== userId || job.spaceId !== req.spaceId || job.changeRequestId !== req.changeRequest || job.expiresAt.getTime() < Date.now()) throw jobNotFound();
      // Read access now: one who lost it since gets nothing, as if the job did not exist.
      const space = await spaceOf(deps, job.spaceId, ctx);
      if (job.changeRequestId) await changeRequestIn(deps, space.id, job.changeRequestId);
      if (job.state === 'failed') throw new DomainError(job.errorCode ?? GrpcStatus.INTERNAL, 'export_failed', job.error ?? 'The export failed');
      const file = job.state === 'done' ? await deps.store.exportFile(job.id) : undefined;
      if (job.state === 'done' && !file?.data) throw jobNotFound();
      return { job: presentExportJob(job), data: Buffer.from(file?.data ?? []), filename: file?.filename ?? '', contentType: file?.contentType ?? '' };
    },
  };
}
