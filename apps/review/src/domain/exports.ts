// Bounds of an export made while the caller waits: checked on the revision's tree and file sizes
// before any file is read or anything rendered, so a space too big is refused at once, by name,
// rather than after seconds of work or past the call's deadline.
import { MAX_MESSAGE_BYTES } from '@quire/service-kit';

export const EXPORT_FORMATS = ['html', 'pdf', 'markdown'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportLimits {
  /** Pages of a Markdown or HTML ZIP. */
  maxPages: number;
  /** Pages of a PDF: every page goes through Chromium within one PDF's time limit. */
  maxPdfPages: number;
  /** Bytes of the revision's files, which every format carries as they are. */
  maxFileBytes: number;
}

/** Room for the file in one answer (a gRPC message less its filename, content type and framing). */
export const ANSWER_ROOM = MAX_MESSAGE_BYTES - 4096;

/** Bounds when the process sets none (review's EXPORT_MAX_PAGES and EXPORT_MAX_PDF_PAGES); the files must fit the answer. */
export const DEFAULT_EXPORT_LIMITS: ExportLimits = { maxPages: 5000, maxPdfPages: 500, maxFileBytes: ANSWER_ROOM };

/** Why the revision is too big to export in `format` now, or undefined. */
export function exportProblem(format: ExportFormat, content: { pages: number; fileBytes: number }, limits: ExportLimits): string | undefined {
  const maxPages = format === 'pdf' ? limits.maxPdfPages : limits.maxPages;
  if (content.pages > maxPages) return `the content has ${content.pages} pages, more than the ${maxPages} of a ${format} export`;
  if (content.fileBytes > limits.maxFileBytes) return `the content's files are ${content.fileBytes} bytes, more than the ${limits.maxFileBytes} of an export`;
  return undefined;
}

/** How long an export job and its file are kept after the last ask for it: the life of the links to it. */
export const EXPORT_KEEP_SECONDS = 60 * 60;

/** A job is live (reusable) until it fails or is removed. */
export type ExportState = 'queued' | 'running' | 'done' | 'failed';

/** What makes two asks the same export: the content revision (of the space, or of the change request), the format and the user. */
export const exportReuseKey = (job: { spaceId: string; changeRequestId: string; revision: string; format: string; userId: string }) =>
  [job.spaceId, job.changeRequestId, job.revision, job.format, job.userId].join('\n');
