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
import { errorResponses, list, ListOf, NoContent, pageRequest } from '../schemas/common.ts';
import { SpaceParams } from '../schemas/content.ts';
import type { RouteDeps } from './context.ts';

const tags = ['comments'];
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
/** Where a reply's comment is, for the reply's `urls`. */
const at = (p: { spaceId: string; changeRequestId: string; commentId: string }) => ({ spaceId: p.spaceId, changeRequestId: p.changeRequestId, id: p.commentId });

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { review }, urls }) => {
  app.get(
    '/spaces/:spaceId/comments',
    {
      schema: {
        operationId: 'listCommentsInSpace',
        tags,
        summary: 'List the comments of a space, those of its change requests included',
        params: SpaceParams,
        querystring: ListCommentsQuery,
        response: { 200: ListOf(Comment), ...errorResponses },
      },
    },
    async (req) => {
      const res = await review.listComments({ spaceId: req.params.spaceId, changeRequest: '', ...filters(req.query) }, req.caller);
      return list(
        res.items.map((c) => presentComment(c, urls)),
        res.page?.next,
      );
    },
  );

  app.get(
    PREFIX,
    {
      schema: {
        operationId: 'listCommentsInChangeRequest',
        tags,
        summary: 'List the comments of a change request (newest first unless `order=asc`)',
        params: ChangeRequestParams,
        querystring: ListCommentsQuery,
        response: { 200: ListOf(Comment), ...errorResponses },
      },
    },
    async (req) => {
      const res = await review.listComments({ spaceId: req.params.spaceId, changeRequest: req.params.changeRequestId, ...filters(req.query) }, req.caller);
      return list(
        res.items.map((c) => presentComment(c, urls)),
        res.page?.next,
      );
    },
  );

  app.post(
    PREFIX,
    {
      schema: {
        operationId: 'postCommentInChangeRequest',
        tags,
        summary: 'Comment on a change request, on one of its pages or nodes (who may comment on the space)',
        params: ChangeRequestParams,
        body: PostCommentBody,
        response: { 200: Comment, ...errorResponses },
      },
    },
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
    {
      schema: {
        operationId: 'getCommentInChangeRequest',
        tags,
        summary: 'Get a comment',
        params: CommentParams,
        querystring: FormatQuery,
        response: { 200: Comment, ...errorResponses },
      },
    },
    async (req) => presentComment(await review.getComment(ids(req.params), req.caller), urls),
  );

  app.put(
    `${PREFIX}/:commentId`,
    {
      schema: {
        operationId: 'updateCommentInChangeRequest',
        tags,
        summary: 'Edit (its author), resolve or reopen, react to a comment',
        params: CommentParams,
        body: UpdateCommentBody,
        response: { 200: Comment, ...errorResponses },
      },
    },
    async (req) => {
      const b = req.body;
      const c = await review.updateComment(
        {
          ...ids(req.params),
          resolved: b.resolved,
          markdown: b.body ? (b.body.markdown ?? '') : undefined,
          addedReactions: b.addedReactions ?? [],
          removedReactions: b.removedReactions ?? [],
        },
        req.caller,
      );
      return presentComment(c, urls);
    },
  );

  app.delete(
    `${PREFIX}/:commentId`,
    {
      schema: {
        operationId: 'deleteCommentInChangeRequest',
        tags,
        summary: 'Delete a comment and its replies (its author or a space admin)',
        params: CommentParams,
        response: { 205: NoContent, ...errorResponses },
      },
    },
    async (req, reply) => {
      await review.deleteComment(ids(req.params), req.caller);
      return reply.code(205).send();
    },
  );

  app.get(
    `${PREFIX}/:commentId/replies`,
    {
      schema: {
        operationId: 'listCommentRepliesInChangeRequest',
        tags,
        summary: 'List the replies to a comment, oldest first',
        params: CommentParams,
        querystring: ListRepliesQuery,
        response: { 200: ListOf(CommentReply), ...errorResponses },
      },
    },
    async (req) => {
      const res = await review.listReplies({ ...ids(req.params), page: pageRequest(req.query) }, req.caller);
      return list(
        res.items.map((r) => presentReply(r, at(req.params), urls)),
        res.page?.next,
      );
    },
  );

  app.post(
    `${PREFIX}/:commentId/replies`,
    {
      schema: {
        operationId: 'postCommentReplyInChangeRequest',
        tags,
        summary: 'Reply to a comment (who may comment on the space)',
        params: CommentParams,
        querystring: FormatQuery,
        body: PostReplyBody,
        response: { 200: CommentReply, ...errorResponses },
      },
    },
    async (req) => presentReply(await review.postReply({ ...ids(req.params), markdown: req.body.body.markdown ?? '' }, req.caller), at(req.params), urls),
  );

  app.get(
    `${PREFIX}/:commentId/replies/:commentReplyId`,
    {
      schema: {
        operationId: 'getCommentReplyInChangeRequest',
        tags,
        summary: 'Get a reply',
        params: ReplyParams,
        querystring: FormatQuery,
        response: { 200: CommentReply, ...errorResponses },
      },
    },
    async (req) => presentReply(await review.getReply(replyIds(req.params), req.caller), at(req.params), urls),
  );

  app.put(
    `${PREFIX}/:commentId/replies/:commentReplyId`,
    {
      schema: {
        operationId: 'updateCommentReplyInChangeRequest',
        tags,
        summary: 'Edit (its author) or react to a reply',
        params: ReplyParams,
        body: UpdateReplyBody,
        response: { 200: CommentReply, ...errorResponses },
      },
    },
    async (req) => {
      const b = req.body;
      const r = await review.updateReply(
        { ...replyIds(req.params), markdown: b.body ? (b.body.markdown ?? '') : undefined, addedReactions: b.addedReactions ?? [], removedReactions: b.removedReactions ?? [] },
        req.caller,
      );
      return presentReply(r, at(req.params), urls);
    },
  );

  app.delete(
    `${PREFIX}/:commentId/replies/:commentReplyId`,
    {
      schema: {
        operationId: 'deleteCommentReplyInChangeRequest',
        tags,
        summary: 'Delete a reply (its author or a space admin)',
        params: ReplyParams,
        response: { 205: NoContent, ...errorResponses },
      },
    },
    async (req, reply) => {
      await review.deleteReply(replyIds(req.params), req.caller);
      return reply.code(205).send();
    },
  );
};

export default routes;
