import { Type } from '@sinclair/typebox';
import { COMMENT, COMMON } from '@quire/proto/limits';
import { ApiObject, chars, Id, items, ListQuery, Timestamp } from './common.ts';
import { User } from './orgs.ts';

export const CommentParams = Type.Object({ spaceId: Id('Space id'), changeRequestId: Id('Change request id or number'), commentId: Id('Comment id') });
export const ReplyParams = Type.Object({ ...CommentParams.properties, commentReplyId: Id('Comment reply id') });

const Reactions = Type.Array(Type.Object({ emoji: Type.String(), count: Type.Integer(), users: Type.Array(Type.Object({ user: User, reactedAt: Timestamp })) }));

const Body = Type.Object({ markdown: Type.String() });
const Permissions = Type.Object({ view: Type.Boolean(), edit: Type.Boolean(), reply: Type.Boolean(), delete: Type.Boolean() });

export const Comment = ApiObject(
  'comment',
  {
    postedBy: User,
    postedAt: Timestamp,
    editedAt: Type.Optional(Timestamp),
    reactions: Reactions,
    replies: Type.Integer(),
    body: Body,
    target: Type.Object({
      node: Type.Optional(Type.Object({ id: Type.String(), preview: Type.Optional(Type.String()) })),
      changeRequest: Type.Optional(Type.String()),
      review: Type.Optional(Type.String()),
      page: Type.Optional(Type.Object({ id: Type.String(), title: Type.String(), emoji: Type.Optional(Type.String()), path: Type.String(), outdated: Type.Boolean() })),
      space: Type.String(),
      revision: Type.String(),
    }),
    urls: Type.Object({ location: Type.String() }),
    permissions: Permissions,
    status: Type.Union([Type.Literal('open'), Type.Literal('resolved')]),
    resolvedAt: Type.Optional(Timestamp),
    resolvedBy: Type.Optional(User),
  },
  { title: 'Comment' },
);

export const CommentReply = ApiObject(
  'comment-reply',
  {
    postedBy: User,
    postedAt: Timestamp,
    editedAt: Type.Optional(Timestamp),
    reactions: Reactions,
    body: Body,
    urls: Type.Object({ location: Type.String() }),
    permissions: Permissions,
  },
  { title: 'CommentReply' },
);

// GitBook's Document: markdown, or an empty object for no text. JSON documents are not taken.
export const DocumentBody = Type.Object({ markdown: Type.Optional(Type.String(chars(COMMENT.markdown))) }, { additionalProperties: false });

const Format = Type.Optional(Type.Union([Type.Literal('markdown'), Type.Literal('document')], { description: 'Bodies are answered as markdown either way' }));
export const FormatQuery = Type.Object({ format: Format });
export const ListRepliesQuery = Type.Object({ ...ListQuery, format: Format });

export const ListCommentsQuery = Type.Object({
  ...ListQuery,
  order: Type.Optional(Type.Union([Type.Literal('desc'), Type.Literal('asc')])),
  format: Format,
  status: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('open'), Type.Literal('resolved')])),
  targetPage: Type.Optional(Id('Only the comments on this page')),
  authors: Type.Optional(Type.Array(Id('User id'), items(COMMENT.authors))),
});

export const PostCommentBody = Type.Object({
  node: Type.Optional(Type.String(chars(COMMON.id))),
  page: Type.Optional(Type.String(chars(COMMON.id))),
  body: DocumentBody,
});

const Emojis = Type.Array(Type.String(chars(COMMENT.reaction)), items(COMMENT.reactions));

export const UpdateReplyBody = Type.Object({ body: Type.Optional(DocumentBody), addedReactions: Type.Optional(Emojis), removedReactions: Type.Optional(Emojis) });

/** A comment's edit is a reply's, and it may resolve or reopen the comment. */
export const UpdateCommentBody = Type.Object({ resolved: Type.Optional(Type.Boolean()), ...UpdateReplyBody.properties });

export const PostReplyBody = Type.Object({ body: DocumentBody });
