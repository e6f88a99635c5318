import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { presentRequestedReviewer, presentReview } from '../presenters/reviewers.ts';
import { ChangeRequestParams } from '../schemas/change-requests.ts';
import { FormatQuery, ListRepliesQuery } from '../schemas/comments.ts';
import { ListOf, NoContent, pageRequest } from '../schemas/common.ts';
import { RequestedReviewer, RequestReviewersBody, Review, ReviewerParams, SubmitReviewBody } from '../schemas/reviewers.ts';
import type { RouteDeps } from './context.ts';
import { done, operations, pagedLists, pageOf } from './operation.ts';

const op = operations('change-request-reviews');
const PREFIX = '/spaces/:spaceId/change-requests/:changeRequestId';

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { review }, urls }) => {
  const list = pagedLists(app, op);
  const ref = (p: { spaceId: string; changeRequestId: string }) => ({ spaceId: p.spaceId, changeRequest: p.changeRequestId });
  /** A review's place, for its `urls`: the change request as the caller named it. */
  const at = (p: { spaceId: string; changeRequestId: string }) => ({ spaceId: p.spaceId, changeRequestId: p.changeRequestId });

  list(
    `${PREFIX}/requested-reviewers`,
    { operationId: 'getRequestedReviewersByChangeRequestId', summary: 'List the users asked to review the change request', params: ChangeRequestParams, item: RequestedReviewer },
    (params, page, caller) => review.listRequestedReviewers({ ...ref(params), page }, caller),
    (r) => presentRequestedReviewer(r, urls),
  );

  app.post(
    `${PREFIX}/requested-reviewers`,
    op({
      operationId: 'requestReviewersForChangeRequest',
      summary: "Ask members of the space's organization to review (editors); `subject` renames the change request",
      params: ChangeRequestParams,
      body: RequestReviewersBody,
      response: { 200: Type.Object({ users: Type.Array(RequestedReviewer) }) },
    }),
    async (req) => {
      const res = await review.requestReviewers({ ...ref(req.params), userIds: req.body.users, subject: req.body.subject }, req.caller);
      return { users: res.users.map((r) => presentRequestedReviewer(r, urls)) };
    },
  );

  app.delete(
    `${PREFIX}/requested-reviewers/:userId`,
    op({ operationId: 'removeRequestedReviewerFromChangeRequest', summary: 'Withdraw a review request (editors)', params: ReviewerParams, response: { 205: NoContent } }),
    async (req, reply) => done(reply, 205, review.removeRequestedReviewer({ ...ref(req.params), userId: req.params.userId }, req.caller)),
  );

  app.get(
    `${PREFIX}/reviews`,
    op({
      operationId: 'getReviewsByChangeRequestId',
      summary: "List the change request's reviews, oldest first; a reviewer's earlier ones are outdated",
      params: ChangeRequestParams,
      querystring: ListRepliesQuery,
      response: { 200: ListOf(Review) },
    }),
    async (req) => {
      const res = await review.listReviews({ ...ref(req.params), page: pageRequest(req.query) }, req.caller);
      return pageOf(res, (r) => presentReview(r, at(req.params), urls));
    },
  );

  app.post(
    `${PREFIX}/reviews`,
    op({
      operationId: 'submitChangeRequestReview',
      summary: 'Approve the change request or request changes (reviewers of the space), with an optional comment',
      params: ChangeRequestParams,
      querystring: FormatQuery,
      body: SubmitReviewBody,
      response: { 201: Review },
    }),
    async (req, reply) => {
      const r = await review.submitReview({ ...ref(req.params), status: req.body.status, comment: req.body.comment ? (req.body.comment.markdown ?? '') : undefined }, req.caller);
      return reply.code(201).send(presentReview(r, at(req.params), urls));
    },
  );
};

export default routes;
