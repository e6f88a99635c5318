import { Type } from '@sinclair/typebox';
import { COMMON } from '@quire/proto/limits';

/** GitBook's import sources; `github-wiki` and `google-docs` answer 400. */
export const IMPORT_SOURCES = ['website', 'docx', 'markdown', 'html', 'zip', 'confluence', 'github-wiki', 'notion', 'google-docs'] as const;

export const ImportContentBody = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      maxLength: COMMON.url.max,
      description:
        "What to import, fetched by the server: `website`: the page, and the same-origin pages it links to; `markdown`: a .md file; `html`: an HTML page; `docx`: a Word document; `zip`: a ZIP of a Markdown folder, read as Git Sync reads a repository (SUMMARY.md, or the folders with each README.md as its folder's page; `.gitbook/assets` and the files pages use as files); `notion`, `confluence`: their export ZIP (pages, and the images they use as files)",
    }),
    source: Type.Union(IMPORT_SOURCES.map((s) => Type.Literal(s))),
  },
  { additionalProperties: false },
);

export const ImportContentResult = Type.Object(
  {
    revision: Type.String({ description: 'The new revision' }),
    importedResources: Type.Integer({ description: 'Pages (and files) imported' }),
    totalResources: Type.Integer({ description: 'Pages fetched or tried; for an archive, its files' }),
  },
  { title: 'ImportContentResult' },
);
