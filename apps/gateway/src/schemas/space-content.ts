import { Type, type Static } from '@sinclair/typebox';
import { ChangeRequest } from './change-requests.ts';
import { COMMON, FILE, SPACE } from '@quire/proto/limits';
import { ApiObject, chars, Id, range, Timestamp } from './common.ts';

export const GitBlob = Type.Object({ oid: Type.String(), path: Type.String() });
// `createdByGitBook` is GitBook's name for the reference's `createdByService`: both answer the same.
export const GitCommit = Type.Object({
  oid: Type.String(),
  message: Type.String(),
  createdByService: Type.Boolean(),
  createdByGitBook: Type.Boolean(),
  url: Type.String(),
  ref: Type.String(),
});

export const PageLayout = Type.Object({
  width: Type.Union([Type.Literal('default'), Type.Literal('wide')]),
  cover: Type.Boolean(),
  coverSize: Type.Union([Type.Literal('hero'), Type.Literal('full')]),
  title: Type.Boolean(),
  description: Type.Boolean(),
  tableOfContents: Type.Boolean(),
  outline: Type.Boolean(),
  pagination: Type.Boolean(),
  metadata: Type.Boolean(),
});

const ImageRef = Type.Union([
  Type.Object({ kind: Type.Literal('file'), file: Type.String({ description: 'A file of the revision' }) }),
  Type.Object({ kind: Type.Literal('url'), url: Type.String() }),
]);

/** GitBook's RevisionPageDocumentCover: from the page's front matter (`cover`, `coverDark`, `coverY`). */
export const PageCover = Type.Object({
  ref: ImageRef,
  refDark: Type.Optional(ImageRef),
  yPos: Type.Number({ description: 'Vertical position of the cover image' }),
});

/**
 * A page of any type (`document`, `group`, `link`), nested. `kind` is GitBook's deprecated name
 * of the type (`sheet` for documents). `markdown` or `document` (mdast) only when asked with `format`.
 */
export const Page = Type.Recursive(
  (This) =>
    Type.Object({
      id: Type.String(),
      title: Type.String(),
      emoji: Type.Optional(Type.String()),
      icon: Type.Optional(Type.String()),
      createdAt: Timestamp,
      updatedAt: Timestamp,
      kind: Type.String(),
      type: Type.Union([Type.Literal('document'), Type.Literal('group'), Type.Literal('link')]),
      urls: Type.Object({ app: Type.String() }),
      slug: Type.String(),
      path: Type.String(),
      description: Type.Optional(Type.String()),
      documentId: Type.Optional(Type.String()),
      href: Type.Optional(Type.String()),
      target: Type.Optional(Type.Object({ kind: Type.Literal('url'), url: Type.String() })),
      pages: Type.Array(This),
      git: Type.Optional(GitBlob),
      layout: Type.Optional(PageLayout),
      cover: Type.Optional(PageCover),
      hidden: Type.Boolean(),
      noIndex: Type.Boolean(),
      noRobotsIndex: Type.Boolean(),
      markdown: Type.Optional(Type.String()),
      document: Type.Optional(Type.Unknown({ description: "The page body as GitBook's JSONDocument" })),
    }),
  { $id: 'RevisionPage', title: 'RevisionPage' },
);
export type PageJson = Static<typeof Page>;

export const File = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    contentType: Type.String(),
    downloadURL: Type.String({ description: 'A signed link to the bytes, valid for at least an hour' }),
    size: Type.Number(),
    dimensions: Type.Optional(Type.Object({ width: Type.Number(), height: Type.Number() })),
    git: Type.Optional(GitBlob),
  },
  { title: 'RevisionFile' },
);

/** GitBook's RevisionReusableContent: content pages include (`reusable-content` blocks), its body the document `document`. */
export const ReusableContent = Type.Object(
  { id: Type.String(), title: Type.String(), document: Type.String({ description: 'Id of the document holding its body' }), git: Type.Optional(GitBlob) },
  { title: 'RevisionReusableContent' },
);

export const Revision = ApiObject(
  'revision',
  {
    parents: Type.Array(Type.String()),
    pages: Type.Array(Page),
    files: Type.Array(File),
    reusableContents: Type.Array(ReusableContent),
    variables: Type.Record(Type.String(), Type.String()),
    createdAt: Timestamp,
    type: Type.String(),
    git: Type.Optional(GitCommit),
    // The change request whose merge made the revision (type `merge`).
    mergedFrom: Type.Optional(ChangeRequest),
    urls: Type.Object({ app: Type.String(), published: Type.Optional(Type.String()), public: Type.Optional(Type.String()) }),
  },
  { title: 'Revision' },
);

/** A document: GitBook's JSONDocument, with its id and its markdown beside. */
export const DocumentJson = Type.Object(
  { object: Type.Literal('document'), id: Type.String(), markdown: Type.String(), data: Type.Record(Type.String(), Type.Unknown()), nodes: Type.Array(Type.Unknown()) },
  { title: 'Document' },
);

export const ContentQuery = {
  metadata: Type.Boolean({ default: true, description: 'false leaves out mutable git metadata' }),
  computed: Type.Boolean({ default: true, description: 'Accepted for compatibility: no content is computed' }),
};
export const PageQuery = Type.Object({
  ...ContentQuery,
  format: Type.Optional(Type.Union([Type.Literal('markdown'), Type.Literal('document')], { description: "Adds the page body: markdown, or GitBook's JSONDocument" })),
  evaluated: Type.Boolean({ default: false, description: 'Accepted for compatibility: documents have nothing to evaluate' }),
});

export const SpaceRevisionParams = Type.Object({ spaceId: Id('Space id'), revisionId: Id('Revision id') });
export const FileIdParam = { fileId: Id('File id') };
export const PageIdParam = { pageId: Id('Page id') };
export const ReusableContentIdParam = { reusableContentId: Id('Reusable content id') };
export const DocumentParams = Type.Object({
  spaceId: Id('Space id'),
  documentId: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'Document id (SHA-256 of its markdown)' }),
});
export const BlobParams = Type.Object({ blob: Type.String({ pattern: '^[0-9a-f]{64}$' }) });
export const BlobQuery = Type.Object({ name: Type.String(chars(FILE.name)), exp: Type.Integer(), sig: Type.String(chars(COMMON.signature)) });

const ChangedPage = Type.Object({ id: Type.String(), type: Type.String(), title: Type.String(), path: Type.Optional(Type.String()) });
const ChangedValue = Type.Object({ before: Type.Optional(Type.Unknown()), after: Type.Optional(Type.Unknown()) });

/** GitBook's RevisionSemanticChanges: what a revision changed against its base, at most `limit` changes. */
export const SemanticChanges = Type.Object({
  changes: Type.Array(
    Type.Object({
      type: Type.Union(
        ['page_created', 'page_edited', 'page_deleted', 'page_moved', 'file_created', 'file_edited', 'file_deleted', 'variables_edited'].map((t) => Type.Literal(t)),
      ),
      page: Type.Optional(ChangedPage),
      parent: Type.Optional(Type.Object({ before: Type.Optional(ChangedPage), after: Type.Optional(ChangedPage) })),
      file: Type.Optional(File),
      attributes: Type.Optional(Type.Record(Type.String(), ChangedValue)),
      variables: Type.Optional(Type.Record(Type.String(), ChangedValue)),
    }),
  ),
  more: Type.Optional(Type.Integer({ description: 'How many changes were left out above the limit' })),
});
export const SemanticChangesQuery = Type.Object({
  ...ContentQuery,
  limit: Type.Integer({ ...range(SPACE.changesLimit), default: 10, description: 'At most this many changes' }),
});
