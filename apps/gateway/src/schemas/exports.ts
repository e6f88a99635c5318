import { Type } from '@sinclair/typebox';
import { COMMON } from '@quire/proto/limits';
import { chars, downloadResponses, ErrorBody, literals, Timestamp } from './common.ts';

/** What a space or a change request exports to (review's ExportSpace names the same three). */
export const EXPORT_FORMATS = ['markdown', 'html', 'pdf'] as const;
const Format = literals(EXPORT_FORMATS, {
  description: "`markdown`: a ZIP in GitBook's repository layout (SUMMARY.md, README.md, .gitbook/assets); `html`: a static site ZIP; `pdf`: every page in one PDF",
});

export const ExportQuery = Type.Object({ format: Format });

/** An export job: every export is made by a worker, its file kept (and its links valid) until `expiresAt`. */
export const ExportJob = Type.Object(
  {
    id: Type.String(),
    state: literals(['queued', 'running', 'done', 'failed'] as const),
    pagesDone: Type.Integer({ description: "Pages rendered (a PDF's are printed together, at its end)" }),
    pagesTotal: Type.Integer(),
    filesDone: Type.Integer({ description: "The content's files read into the export so far" }),
    filesTotal: Type.Integer(),
    expiresAt: Timestamp,
  },
  { description: 'The export job behind a link and its progress' },
);

export const ExportLink = Type.Object({
  format: Format,
  url: Type.String({
    description:
      'A signed link to the file, valid 1 hour; it downloads what the user who asked may read. While the export is being made it answers 202 with the job and `Retry-After`',
  }),
  job: Type.Optional(ExportJob),
});

/** A signed download: the file, or (202) the job still at work, or the job's failure by its reason. */
export const exportDownloadResponses = { ...downloadResponses, 202: ExportJob, 409: ErrorBody };

/** The signed download link's parameters (see routes/exports.ts). */
export const ExportDownloadQuery = Type.Object({
  format: Format,
  user: Type.String({ maxLength: COMMON.id.max }),
  job: Type.String({ maxLength: COMMON.id.max }),
  exp: Type.Integer(),
  sig: Type.String(chars(COMMON.signature)),
});
