import { Type } from '@sinclair/typebox';

/** GitBook's import sources; only `website` is imported here (the others answer 400). */
export const IMPORT_SOURCES = ['website', 'docx', 'markdown', 'html', 'zip', 'confluence', 'github-wiki', 'notion', 'google-docs'] as const;

export const ImportContentBody = Type.Object(
  {
    url: Type.String({ format: 'uri', maxLength: 2048, description: 'The page to import; same-origin pages it links to are imported too' }),
    source: Type.Union(IMPORT_SOURCES.map((s) => Type.Literal(s))),
  },
  { additionalProperties: false },
);

export const ImportContentResult = Type.Object(
  {
    revision: Type.String({ description: 'The new revision' }),
    importedResources: Type.Integer({ description: 'Pages imported' }),
    totalResources: Type.Integer({ description: 'Pages fetched or tried' }),
  },
  { title: 'ImportContentResult' },
);
