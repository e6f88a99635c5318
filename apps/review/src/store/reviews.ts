import { newId } from '@quire/service-kit/ids';
import { rowsAfter, type Page } from '@quire/service-kit';
import type { Prisma } from '../generated/prisma/client.ts';
import type { Db } from './index.ts';

export type ReviewRow = Prisma.ReviewGetPayload<object>;
export type ReviewerRow = Prisma.RequestedReviewerGetPayload<object>;
export type ReviewStatus = 'approved' | 'changes-requested';

/** Reviewers requested on change requests, and the reviews they give. */
export function reviewStore(database: Db) {
  const db = database.prisma;
  const { pool } = database;
  return {
    listReviewers(changeRequestId: string, page: Page): Promise<ReviewerRow[]> {
      return db.requestedReviewer.findMany({
        where: { changeRequestId, ...(page.after ? { userId: { gt: page.after } } : {}) },
        orderBy: { userId: 'asc' },
        take: page.take,
      });
    },

    /** Requests the users (again: the request's revision and requester are renewed) and answers their rows. */
    async requestReviewers(changeRequestId: string, userIds: string[], requestedBy: string, revision: string, subject: string | undefined): Promise<ReviewerRow[]> {
      return db.$transaction(async (tx) => {
        if (subject !== undefined) await tx.changeRequest.update({ where: { id: changeRequestId }, data: { subject } });
        for (const userId of userIds) {
          await tx.requestedReviewer.upsert({
            where: { changeRequestId_userId: { changeRequestId, userId } },
            create: { changeRequestId, userId, requestedBy, revision },
            update: { requestedBy, revision, createdAt: new Date() },
          });
        }
        return tx.requestedReviewer.findMany({ where: { changeRequestId, userId: { in: userIds } }, orderBy: { userId: 'asc' } });
      });
    },

    async removeReviewer(changeRequestId: string, userId: string): Promise<boolean> {
      const { count } = await db.requestedReviewer.deleteMany({ where: { changeRequestId, userId } });
      return count > 0;
    },

    reviewer(changeRequestId: string, userId: string): Promise<ReviewerRow | null> {
      return db.requestedReviewer.findUnique({ where: { changeRequestId_userId: { changeRequestId, userId } } });
    },

    /** The review, and its comment when one goes with it, in one transaction. */
    async createReview(data: {
      changeRequestId: string;
      spaceId: string;
      reviewerId: string;
      requestedBy: string | null;
      status: ReviewStatus;
      revision: string;
      comment?: string;
    }): Promise<ReviewRow> {
      const id = newId();
      return db.$transaction(async (tx) => {
        const commentId = data.comment === undefined ? null : newId();
        const review = await tx.review.create({
          data: {
            id,
            changeRequestId: data.changeRequestId,
            reviewerId: data.reviewerId,
            requestedBy: data.requestedBy,
            status: data.status === 'approved' ? 'approved' : 'changes_requested',
            revision: data.revision,
            commentId,
          },
        });
        if (commentId)
          await tx.comment.create({
            data: {
              id: commentId,
              spaceId: data.spaceId,
              changeRequestId: data.changeRequestId,
              reviewId: id,
              postedBy: data.reviewerId,
              markdown: data.comment!,
              revision: data.revision,
            },
          });
        return review;
      });
    },

    /** Oldest first. */
    listReviews(changeRequestId: string, page: Page): Promise<ReviewRow[]> {
      return db.review.findMany({ where: { changeRequestId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], ...rowsAfter(page) });
    },

    /** Per reviewer, the id of their latest review: the others are outdated. */
    async latestReviews(changeRequestId: string): Promise<Set<string>> {
      const rows = await pool.query<{ id: string }>(`SELECT DISTINCT ON (reviewer_id) id FROM review WHERE change_request_id = $1 ORDER BY reviewer_id, created_at DESC, id DESC`, [
        changeRequestId,
      ]);
      return new Set(rows.rows.map((r) => r.id));
    },
  };
}
