import { Type } from '@sinclair/typebox';
import { literals } from './common.ts';

/** What a space or a change request exports to (review's ExportSpace names the same three). */
export const EXPORT_FORMATS = ['markdown', 'html', 'pdf'] as const;
const Format = literals(EXPORT_FORMATS, {
  description: '`markdown`: a ZIP in GitBook\'s repository layout (SUMMARY.md, README.md, .gitbook/assets); `html`: a static site ZIP; `pdf`: every page in one PDF',
});

export const ExportQuery = Type.Object({ format: Format });

export const ExportLink = Type.Object({
  format: Format,
  url: Type.String({ description: 'A signed link to the file, valid 1 hour; it downloads what the user who asked may read' }),
});

/** The signed download link's parameters (see routes/exports.ts). */
export const ExportDownloadQuery = Type.Object({
  format: Format,
  user: Type.String({ maxLength: 128 }),
  exp: Type.Integer(),
  sig: Type.String({ maxLength: 128 }),
});
