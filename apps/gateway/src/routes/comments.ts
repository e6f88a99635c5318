import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SortOrder } from '@quire/proto/common';
import type { Static } from '@sinclair/typebox';
import { presentComment, presentReply } from '../presenters/comments.ts';
import { ChangeRequestParams } from '../schemas/change-requests.ts';
import {
  Comment,
  CommentParams,
  CommentReply,
  FormatQuery,
  ListCommentsQuery,
  ListRepliesQuery,
  PostCommentBody,
  PostReplyBody,
  ReplyParams,
  UpdateCommentBody,
  UpdateReplyBody,
} from '../schemas/comments.ts';
import { ListOf, NoContent, pageRequest } from '../schemas/common.ts';
import { SpaceParams } from '../schemas/content.ts';
import type { RouteDeps } from './context.ts';
import { done, operations, pageOf } from './operation.ts';

const op = operations('comments');
const PREFIX = '/spaces/:spaceId/change-requests/:changeRequestId/comments';

/** The list filters as the review service takes them: newest first and every status by default. */
const filters = (q: Static<typeof ListCommentsQuery>) => ({
  order: q.order === 'asc' ? SortOrder.SORT_ORDER_ASC : SortOrder.SORT_ORDER_DESC,
  status: q.status ?? 'all',
  targetPage: q.targetPage ?? '',
  authors: q.authors ?? [],
  page: pageRequest(q),
});

const ids = (p: { spaceId: string; changeRequestId: string; commentId: string }) => ({ spaceId: p.spaceId, changeRequest: p.changeRequestId, commentId: p.commentId });
const replyIds = (p: Static<typeof ReplyParams>) => ({ ...ids(p), replyId: p.commentReplyId });
/** An edit of a comment or a reply as the review service takes it: the new body, reactions added and taken back. */
const edits = (b: Static<typeof UpdateReplyBody>) => ({
  markdown: b.body ? (b.body.markdown ?? '') : undefined,
  addedReactions: b.addedReactions ?? [],
  removedReactions: b.removedReactions ?? [],
});
/** Where a reply's comment is, for the reply's `urls`. */
const at = (p: { spaceId: string; changeRequestId: string; commentId: string }) => ({ spaceId: p.spaceId, changeRequestId: p.changeRequestId, id: p.commentId });

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { review }, urls }) => {
  app.get(
    '/spaces/:spaceId/comments',
    op({
      operationId: 'listCommentsInSpace',
      summary: 'List the comments of a space, those of its change requests included',
      params: SpaceParams,
      querystring: ListCommentsQuery,
      response: { 200: ListOf(Comment) },
    }),
    async (req) => {
      const res = await review.listComments({ spaceId: req.params.spaceId, changeRequest: '', ...filters(req.query) }, req.caller);
      return pageOf(res, (c) => presentComment(c, urls));
    },
  );

  app.get(
    PREFIX,
    op({
      operationId: 'listCommentsInChangeRequest',
      summary: 'List the comments of a change request (newest first unless `order=asc`)',
      params: ChangeRequestParams,
      querystring: ListCommentsQuery,
      response: { 200: ListOf(Comment) },
    }),
    async (req) => {
      const res = await review.listComments({ spaceId: req.params.spaceId, changeRequest: req.params.changeRequestId, ...filters(req.query) }, req.caller);
      return pageOf(res, (c) => presentComment(c, urls));
    },
  );

  app.post(
    PREFIX,
    op({
      operationId: 'postCommentInChangeRequest',
      summary: 'Comment on a change request, on one of its pages or nodes (who may comment on the space)',
      params: ChangeRequestParams,
      body: PostCommentBody,
      response: { 200: Comment },
    }),
    async (req) => {
      const { node, page, body } = req.body;
      const c = await review.postComment(
        { spaceId: req.params.spaceId, changeRequest: req.params.changeRequestId, markdown: body.markdown ?? '', nodeId: node ?? '', pageId: page ?? '' },
        req.caller,
      );
      return presentComment(c, urls);
    },
  );

  app.get(
    `${PREFIX}/:commentId`,
    op({ operationId: 'getCommentInChangeRequest', summary: 'Get a comment', params: CommentParams, querystring: FormatQuery, response: { 200: Comment } }),
    async (req) => presentComment(await review.getComment(ids(req.params), req.caller), urls),
  );

  app.put(
    `${PREFIX}/:commentId`,
    op({
      operationId: 'updateCommentInChangeRequest',
      summary: 'Edit (its author), resolve or reopen, react to a comment',
      params: CommentParams,
      body: UpdateCommentBody,
      response: { 200: Comment },
    }),
    async (req) => {
      const c = await review.updateComment({ ...ids(req.params), resolved: req.body.resolved, ...edits(req.body) }, req.caller);
      return presentComment(c, urls);
    },
  );

  app.delete(
    `${PREFIX}/:commentId`,
    op({
      operationId: 'deleteCommentInChangeRequest',
      summary: 'Delete a comment and its replies (its author or a space admin)',
      params: CommentParams,
      response: { 205: NoContent },
    }),
    async (req, reply) => done(reply, 205, review.deleteComment(ids(req.params), req.caller)),
  );

  app.get(
    `${PREFIX}/:commentId/replies`,
    op({
      operationId: 'listCommentRepliesInChangeRequest',
      summary: 'List the replies to a comment, oldest first',
      params: CommentParams,
      querystring: ListRepliesQuery,
      response: { 200: ListOf(CommentReply) },
    }),
    async (req) => {
      const res = await review.listReplies({ ...ids(req.params), page: pageRequest(req.query) }, req.caller);
      return pageOf(res, (r) => presentReply(r, at(req.params), urls));
    },
  );

  app.post(
    `${PREFIX}/:commentId/replies`,
    op({
      operationId: 'postCommentReplyInChangeRequest',
      summary: 'Reply to a comment (who may comment on the space)',
      params: CommentParams,
      querystring: FormatQuery,
      body: PostReplyBody,
      response: { 200: CommentReply },
    }),
    async (req) => presentReply(await review.postReply({ ...ids(req.params), markdown: req.body.body.markdown ?? '' }, req.caller), at(req.params), urls),
  );

  app.get(
    `${PREFIX}/:commentId/replies/:commentReplyId`,
    op({ operationId: 'getCommentReplyInChangeRequest', summary: 'Get a reply', params: ReplyParams, querystring: FormatQuery, response: { 200: CommentReply } }),
    async (req) => presentReply(await review.getReply(replyIds(req.params), req.caller), at(req.params), urls),
  );

  app.put(
    `${PREFIX}/:commentId/replies/:commentReplyId`,
    op({
      operationId: 'updateCommentReplyInChangeRequest',
      summary: 'Edit (its author) or react to a reply',
      params: ReplyParams,
      body: UpdateReplyBody,
      response: { 200: CommentReply },
    }),
    async (req) => {
      const r = await review.updateReply({ ...replyIds(req.params), ...edits(req.body) }, req.caller);
      return presentReply(r, at(req.params), urls);
    },
  );

  app.delete(
    `${PREFIX}/:commentId/replies/:commentReplyId`,
    op({ operationId: 'deleteCommentReplyInChangeRequest', summary: 'Delete a reply (its author or a space admin)', params: ReplyParams, response: { 205: NoContent } }),
    async (req, reply) => done(reply, 205, review.deleteReply(replyIds(req.params), req.caller)),
  );
};

export default routes;
