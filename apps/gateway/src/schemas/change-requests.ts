import { Type, type Static } from '@sinclair/typebox';
import { CHANGE_REQUEST, COMMON, FILE, PAGE } from '@quire/proto/limits';
import { ApiObject, chars, Id, items, ListQuery, Timestamp } from './common.ts';
import { JsonDocument } from './document.ts';
import { User } from './orgs.ts';

export const ChangeRequestStatus = Type.Union([Type.Literal('draft'), Type.Literal('open'), Type.Literal('archived'), Type.Literal('merged')]);

export const ChangeRequestParams = Type.Object({ spaceId: Id('Space id'), changeRequestId: Id('Change request id or number') });

export const ChangeRequest = ApiObject(
  'change-request',
  {
    number: Type.Integer(),
    status: ChangeRequestStatus,
    subject: Type.String(),
    createdBy: User,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    revision: Type.String(),
    revisionInitial: Type.String(),
    revisionMergedAncestor: Type.Optional(Type.String()),
    revisionMerged: Type.Optional(Type.String()),
    comments: Type.Integer(),
    outdated: Type.Boolean(),
    urls: Type.Object({ app: Type.String(), location: Type.String() }),
  },
  { title: 'ChangeRequest' },
);

export const ListChangeRequestsQuery = Type.Object({
  ...ListQuery,
  status: Type.Optional(ChangeRequestStatus),
  contributor: Type.Optional(Id('Only the change requests of this user')),
});

export const Subject = Type.String(chars(CHANGE_REQUEST.subject));

export const CreateChangeRequestBody = Type.Object({
  subject: Type.Optional(Subject),
  agentTaskId: Type.Optional(Type.String({ ...chars(CHANGE_REQUEST.agentTaskId), description: 'The agent task the change request implements' })),
});

export const UpdateChangeRequestBody = Type.Object({ subject: Type.Optional(Subject), status: Type.Optional(ChangeRequestStatus) });

export const MergeResult = Type.Object({ revision: Type.String(), result: Type.Union([Type.Literal('merge'), Type.Literal('update')]) });

// The fields of a page a change sets (GitBook's RevisionPageUpdate); unset ones are kept.
const PageFields = {
  title: Type.Optional(Type.String(chars(PAGE.title))),
  slug: Type.Optional(Type.String(chars(PAGE.slug))),
  emoji: Type.Optional(Type.String(chars(COMMON.emoji))),
  icon: Type.Optional(Type.String(chars(COMMON.icon))),
  description: Type.Optional(Type.String(chars(PAGE.description))),
  hidden: Type.Optional(Type.Boolean()),
};

const MarkdownDocument = Type.Object({ markdown: Type.String(chars(PAGE.markdown)) }, { additionalProperties: false });
// A page body: markdown, or GitBook's JSONDocument (stored as its markdown).
export const PageDocument = Type.Union([MarkdownDocument, JsonDocument]);

export const InsertPageChange = Type.Object({
  operation: Type.Literal('insert_page'),
  ...PageFields,
  document: PageDocument,
  into: Type.Optional(Type.String({ minLength: 1 })),
  at: Type.Optional(Type.Integer({ minimum: 0 })),
  ref: Type.Optional(Type.String(chars(PAGE.ref))),
});

export const UpdatePageChange = Type.Object({
  operation: Type.Literal('update_page'),
  page: Type.String({ minLength: 1 }),
  ...PageFields,
  document: Type.Optional(PageDocument),
  into: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
  at: Type.Optional(Type.Integer({ minimum: 0 })),
});

export const DeletePageChange = Type.Object({ operation: Type.Literal('delete_page'), page: Type.String({ minLength: 1 }) });

export const RevertPageChange = Type.Object({
  operation: Type.Literal('revert_page'),
  page: Type.String({ minLength: 1 }),
  revision: Type.Optional(Type.String({ minLength: 1 })),
});

const NewFile = Type.Object({
  ref: Type.Optional(Type.String(chars(PAGE.ref))),
  name: Type.String(chars(FILE.name)),
  contentType: Type.Optional(Type.String(chars(FILE.contentType))),
  url: Type.Optional(Type.String({ format: 'uri', maxLength: COMMON.url.max })),
  base64: Type.Optional(Type.String({ ...chars(FILE.base64), pattern: '^[A-Za-z0-9+/]*={0,2}$' })),
});

export const InsertFilesChange = Type.Object({ operation: Type.Literal('insert_files'), files: Type.Array(NewFile, items(FILE.perInsert)) });

/** Each operation's shape, checked one change at a time so that an error names the change at fault. */
export const CHANGE_SCHEMAS = {
  insert_page: InsertPageChange,
  update_page: UpdatePageChange,
  delete_page: DeletePageChange,
  revert_page: RevertPageChange,
  insert_files: InsertFilesChange,
} as const;

export type ContentChange = Static<(typeof CHANGE_SCHEMAS)[keyof typeof CHANGE_SCHEMAS]>;

export const UpdateContentBody = Type.Object({
  changes: Type.Array(
    Type.Object(
      { operation: Type.Union(Object.keys(CHANGE_SCHEMAS).map((k) => Type.Literal(k))) },
      { additionalProperties: true, description: 'One of insert_page, update_page, delete_page, revert_page, insert_files (GitBook ChangeRequestContentChange)' },
    ),
    items(CHANGE_REQUEST.changes),
  ),
});

export const PdfQuery = Type.Object({
  only: Type.Optional(Type.Boolean({ description: 'Only the page given by `page`' })),
  page: Type.Optional(Id('Page id')),
});

/** The signed download link's parameters (see routes/change-requests.ts). */
export const PdfDownloadQuery = Type.Object({
  page: Type.String({ maxLength: COMMON.id.max }),
  user: Type.String({ maxLength: COMMON.id.max }),
  exp: Type.Integer(),
  sig: Type.String(chars(COMMON.signature)),
});
