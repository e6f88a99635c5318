import { CHANGE_REQUEST, COMMENT, COMMON } from '@quire/proto/limits';
import type { ReviewServiceServer } from '@quire/proto/review';
import { checkLength, checkOneOf, InvalidArgumentError, NotFoundError, pageArgs, pageOf, type CallContext, type Handlers } from '@quire/service-kit';
import { checkWritable } from '../domain/change-requests.ts';
import type { ReviewerRow, ReviewRow, ReviewStatus } from '../store/index.ts';
import { presentComments } from './comments.ts';
import { callerOf, countersChanged, spaceAndChangeRequest, usersById, type Deps } from './deps.ts';

type ReviewerHandlers = Pick<
  Handlers<ReviewServiceServer>,
  'listRequestedReviewers' | 'requestReviewers' | 'removeRequestedReviewer' | 'submitReview' | 'listReviews' | 'batchGetSpaceCounters'
>;

const REVIEW_STATUSES: ReviewStatus[] = ['approved', 'changes-requested'];

async function presentReviewers(deps: Deps, rows: ReviewerRow[], ctx: CallContext) {
  const user = await usersById(
    deps,
    rows.flatMap((r) => [r.userId, r.requestedBy]),
    ctx,
  );
  return rows.map((r) => ({ user: user(r.userId), requestedBy: user(r.requestedBy), revision: r.revision, createdAt: r.createdAt }));
}

export function reviewerHandlers(deps: Deps): ReviewerHandlers {
  const { store } = deps;
  return {
    async listRequestedReviewers(req, ctx) {
      const { cr } = await spaceAndChangeRequest(deps, req, ctx);
      const { limit, page } = pageArgs(req.page);
      const { items, next } = pageOf(await store.listReviewers(cr.id, page), limit, (r) => r.userId);
      return { items: await presentReviewers(deps, items, ctx), page: { next } };
    },

    async requestReviewers(req, ctx) {
      const userId = callerOf(ctx);
      const { space, cr } = await spaceAndChangeRequest(deps, req, ctx, ['edit', 'request reviewers']);
      if (req.userIds.length < CHANGE_REQUEST.reviewers.min) throw new InvalidArgumentError('users: at least one user is required');
      if (req.userIds.length > CHANGE_REQUEST.reviewers.max) throw new InvalidArgumentError(`users: at most ${CHANGE_REQUEST.reviewers.max} users per request`);
      if (req.subject !== undefined) checkLength('subject', req.subject, CHANGE_REQUEST.subject);
      const wanted = [...new Set(req.userIds)];
      const { userIds: members } = await deps.orgs.filterPrincipals({ organizationId: space.organizationId, userIds: wanted, teamIds: [] }, ctx);
      const outsiders = wanted.filter((id) => !members.includes(id));
      if (outsiders.length) throw new InvalidArgumentError(`users: ${outsiders.map((id) => `"${id}"`).join(', ')} not a member of the space's organization`);
      const rows = await store.requestReviewers(cr.id, wanted, userId, cr.revision, req.subject);
      return { users: await presentReviewers(deps, rows, ctx) };
    },

    async removeRequestedReviewer(req, ctx) {
      callerOf(ctx);
      const { cr } = await spaceAndChangeRequest(deps, req, ctx, ['edit', 'remove a requested reviewer']);
      if (!(await store.removeReviewer(cr.id, req.userId))) throw new NotFoundError(`User "${req.userId}" is not a requested reviewer of change request #${cr.number}`);
      return {};
    },

    async submitReview(req, ctx) {
      const userId = callerOf(ctx);
      const { space, cr } = await spaceAndChangeRequest(deps, req, ctx, ['review', 'review a change request']);
      checkOneOf('status', req.status, REVIEW_STATUSES);
      if (req.comment !== undefined) checkLength('comment.markdown', req.comment, COMMENT.markdown);
      checkWritable(cr.number, cr.status, 'it can no longer be reviewed');
      const requested = await store.reviewer(cr.id, userId);
      const row = await store.createReview({
        changeRequestId: cr.id,
        spaceId: space.id,
        reviewerId: userId,
        requestedBy: requested?.requestedBy ?? null,
        status: req.status as ReviewStatus,
        revision: cr.revision,
        comment: req.comment,
      });
      if (row.commentId) await countersChanged(deps, space, ctx);
      return (await presentReviews(deps, space, [row], new Set([row.id]), ctx))[0]!;
    },

    async listReviews(req, ctx) {
      const { space, cr } = await spaceAndChangeRequest(deps, req, ctx);
      const { limit, page } = pageArgs(req.page);
      const [rows, latest] = await Promise.all([store.listReviews(cr.id, page), store.latestReviews(cr.id)]);
      const { items, next } = pageOf(rows, limit, (r) => r.id);
      return { items: await presentReviews(deps, space, items, latest, ctx), page: { next } };
    },

    async batchGetSpaceCounters(req) {
      if (req.spaceIds.length > COMMON.batchIds.max) throw new InvalidArgumentError(`spaceIds: at most ${COMMON.batchIds.max} spaces per call`);
      const counts = await store.counters(req.spaceIds);
      return { counters: req.spaceIds.map((spaceId) => ({ spaceId, ...counts.get(spaceId)! })) };
    },
  };
}

async function presentReviews(deps: Deps, space: Parameters<typeof presentComments>[1], rows: ReviewRow[], latest: Set<string>, ctx: CallContext) {
  const commentRows = await deps.store.commentsByIds(rows.flatMap((r) => (r.commentId ? [r.commentId] : [])));
  const [user, comments] = await Promise.all([
    usersById(
      deps,
      rows.flatMap((r) => [r.reviewerId, r.requestedBy]),
      ctx,
    ),
    presentComments(deps, space, commentRows, ctx),
  ]);
  const commentById = new Map(comments.map((c) => [c.id, c]));
  return rows.map((r) => ({
    id: r.id,
    revision: r.revision,
    reviewer: user(r.reviewerId),
    requestedBy: r.requestedBy ? user(r.requestedBy) : undefined,
    status: r.status === 'approved' ? 'approved' : 'changes-requested',
    comment: r.commentId ? commentById.get(r.commentId) : undefined,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    outdated: !latest.has(r.id),
  }));
}
