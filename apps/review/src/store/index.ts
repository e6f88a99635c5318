import { newId } from '@quire/service-kit/ids';
import { openDatabaseStore, preparedStatements, type Database } from '@quire/service-kit/prisma';
import type { Page } from '@quire/service-kit';
import { PrismaClient, type Prisma } from '../generated/prisma/client.ts';
import type { ReactionRow } from '../domain/comments.ts';
import type { Status } from '../domain/change-requests.ts';
import { exportStore } from './exports.ts';

export type Db = Database<PrismaClient>;

export type ChangeRequestRow = Prisma.ChangeRequestGetPayload<object>;
export type CommentRow = Prisma.CommentGetPayload<object>;
export type ReplyRow = Prisma.ReplyGetPayload<object>;
export type ReviewRow = Prisma.ReviewGetPayload<object>;
export type ReviewerRow = Prisma.RequestedReviewerGetPayload<object>;
export type ReviewStatus = 'approved' | 'changes-requested';

const cursor = (page: Page): { cursor?: { id: string }; skip?: number } => (page.after ? { cursor: { id: page.after }, skip: 1 } : {});

const hot = preparedStatements('review', {
  counters: `SELECT s.id AS space_id,
      coalesce(c.total, 0)::int AS "changeRequests", coalesce(c.open, 0)::int AS "changeRequestsOpen",
      coalesce(c.draft, 0)::int AS "changeRequestsDraft", coalesce(m.open, 0)::int AS comments,
      coalesce(v.version, 0)::float8 AS version
    FROM unnest($1::text[]) AS s(id)
    LEFT JOIN space_counters_version v ON v.space_id = s.id
    LEFT JOIN (SELECT space_id, count(*) AS total, count(*) FILTER (WHERE status = 'open') AS open,
                      count(*) FILTER (WHERE status = 'draft') AS draft
                 FROM change_request WHERE space_id = ANY($1) GROUP BY space_id) c ON c.space_id = s.id
    LEFT JOIN (SELECT space_id, count(*) AS open FROM comment WHERE space_id = ANY($1) AND resolved_at IS NULL GROUP BY space_id) m
      ON m.space_id = s.id`,
  // Taken first in its transaction: the row lock orders concurrent bumps, and the counts read after
  // it see every change committed before, so a higher version never holds older counts.
  bump: `INSERT INTO space_counters_version (space_id, version) VALUES ($1, 1)
    ON CONFLICT (space_id) DO UPDATE SET version = space_counters_version.version + 1`,
});

/** Opens the service's database (one pool for Prisma and plain SQL) and its store. */
export const openStore = (connectionString: string, poolSize?: number, log?: Parameters<typeof openDatabaseStore>[4]) =>
  openDatabaseStore(PrismaClient, createStore, connectionString, poolSize, log);

export interface CommentFilter {
  spaceId: string;
  changeRequestId?: string;
  status: 'all' | 'open' | 'resolved';
  pageId?: string;
  authors: string[];
  order: 'asc' | 'desc';
}

export interface SpaceCounts {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
  /** Raised by every change of the counts (0 before the first). */
  version: number;
}

export function createStore(database: Db) {
  const db = database.prisma;
  const { pool } = database;

  async function setReactions(tx: Prisma.TransactionClient, subjectId: string, userId: string, added: string[], removed: string[]) {
    if (removed.length) await tx.reaction.deleteMany({ where: { subjectId, userId, emoji: { in: removed } } });
    // The same user giving the same emoji twice counts once: the key is (subject, emoji, user).
    if (added.length) await tx.reaction.createMany({ data: added.map((emoji) => ({ subjectId, userId, emoji })), skipDuplicates: true });
  }

  return {
    ...exportStore(database),
    /**
     * A new change request with the space's next number: the sequence row is bumped in the same
     * transaction (the row lock orders concurrent creations), so numbers are never given twice.
     */
    async createChangeRequest(data: {
      spaceId: string;
      organizationId: string;
      subject: string;
      agentTaskId: string;
      createdBy: string;
      revision: string;
    }): Promise<ChangeRequestRow> {
      return db.$transaction(async (tx) => {
        const [row] = await tx.$queryRaw<{ last: number }[]>`
          INSERT INTO space_sequence (space_id, last) VALUES (${data.spaceId}, 1)
          ON CONFLICT (space_id) DO UPDATE SET last = space_sequence.last + 1 RETURNING last`;
        return tx.changeRequest.create({
          data: { id: newId(), ...data, number: row!.last, status: 'open', revisionInitial: data.revision },
        });
      });
    },

    findChangeRequest(spaceId: string, ref: { id: string } | { number: number }): Promise<ChangeRequestRow | null> {
      return 'id' in ref
        ? db.changeRequest.findFirst({ where: { spaceId, id: ref.id } })
        : db.changeRequest.findUnique({ where: { spaceId_number: { spaceId, number: ref.number } } });
    },

    async changeRequestsByIds(ids: string[]): Promise<Map<string, ChangeRequestRow>> {
      const rows = ids.length ? await db.changeRequest.findMany({ where: { id: { in: ids } } }) : [];
      return new Map(rows.map((r) => [r.id, r]));
    },

    /** Newest first. */
    listChangeRequests(spaceId: string, status: Status | undefined, filter: { contributor?: string; mergedRevisions?: string[] }, page: Page): Promise<ChangeRequestRow[]> {
      const { contributor, mergedRevisions } = filter;
      return db.changeRequest.findMany({
        where: {
          spaceId,
          ...(status ? { status } : {}),
          ...(contributor ? { createdBy: contributor } : {}),
          ...(mergedRevisions?.length ? { revisionMerged: { in: mergedRevisions } } : {}),
        },
        orderBy: { number: 'desc' },
        take: page.take,
        ...cursor(page),
      });
    },

    /**
     * Updates the change request only while it still has `expected` fields (its status and
     * revision as read): null when another write changed it meanwhile.
     */
    async updateChangeRequest(id: string, expected: { status?: Status; revision?: string }, data: Prisma.ChangeRequestUpdateManyMutationInput): Promise<ChangeRequestRow | null> {
      const { count } = await db.changeRequest.updateMany({ where: { id, ...expected }, data });
      return count ? db.changeRequest.findUnique({ where: { id } }) : null;
    },

    /**
     * Marks a merge of the open change request as under way, unless another one is (started after
     * `since`): when it started, or null when it is not open or another merge is under way.
     */
    async startMerge(id: string, since: Date): Promise<Date | null> {
      const startedAt = new Date();
      const { count } = await db.changeRequest.updateMany({
        where: { id, status: 'open', OR: [{ mergeStartedAt: null }, { mergeStartedAt: { lt: since } }] },
        data: { mergeStartedAt: startedAt },
      });
      return count ? startedAt : null;
    },

    /** The merge started at `startedAt` did not happen: the mark goes (not one a later merge set). */
    async endMerge(id: string, startedAt: Date): Promise<void> {
      await db.changeRequest.updateMany({ where: { id, mergeStartedAt: startedAt, status: { not: 'merged' } }, data: { mergeStartedAt: null } });
    },

    /**
     * Records the change request as merged as `revision` (once: false when it already was). Whatever
     * its status meanwhile: the space has its content.
     */
    async recordMerged(id: string, spaceId: string, revision: string): Promise<boolean> {
      const { count } = await db.changeRequest.updateMany({
        where: { id, spaceId, status: { not: 'merged' } },
        data: { status: 'merged', revisionMerged: revision, mergeStartedAt: null },
      });
      return count > 0;
    },

    /** Change requests whose merge started and was not recorded as ended. */
    mergesUnderWay(): Promise<ChangeRequestRow[]> {
      return db.changeRequest.findMany({ where: { mergeStartedAt: { not: null }, status: { not: 'merged' } }, orderBy: { mergeStartedAt: 'asc' } });
    },

    /** Open comments per change request. */
    async openComments(changeRequestIds: string[]): Promise<Map<string, number>> {
      if (!changeRequestIds.length) return new Map();
      const rows = await db.comment.groupBy({ by: ['changeRequestId'], where: { changeRequestId: { in: changeRequestIds }, resolvedAt: null }, _count: { _all: true } });
      return new Map(rows.map((r) => [r.changeRequestId!, r._count._all]));
    },

    /** Every counter of every space asked for, in one prepared statement (behind every Space shown). */
    async counters(spaceIds: string[]): Promise<Map<string, SpaceCounts>> {
      if (!spaceIds.length) return new Map();
      const rows = await hot.rows<{ space_id: string } & SpaceCounts>(database, 'counters', [spaceIds]);
      return new Map(rows.map(({ space_id, ...counts }) => [space_id, counts]));
    },

    /** After a change of the space's counts: the counts now, at the next version. */
    async bumpCounters(spaceId: string): Promise<SpaceCounts> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx = { pool: client as unknown as typeof pool };
        await hot.changed(tx, 'bump', [spaceId]);
        const [counts] = await hot.rows<{ space_id: string } & SpaceCounts>(tx, 'counters', [[spaceId]]);
        await client.query('COMMIT');
        const { comments, changeRequests, changeRequestsOpen, changeRequestsDraft, version } = counts!;
        return { comments, changeRequests, changeRequestsOpen, changeRequestsDraft, version };
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },

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
      return db.review.findMany({ where: { changeRequestId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: page.take, ...cursor(page) });
    },

    /** Per reviewer, the id of their latest review: the others are outdated. */
    async latestReviews(changeRequestId: string): Promise<Set<string>> {
      const rows = await pool.query<{ id: string }>(`SELECT DISTINCT ON (reviewer_id) id FROM review WHERE change_request_id = $1 ORDER BY reviewer_id, created_at DESC, id DESC`, [
        changeRequestId,
      ]);
      return new Set(rows.rows.map((r) => r.id));
    },

    commentsByIds(ids: string[]): Promise<CommentRow[]> {
      return ids.length ? db.comment.findMany({ where: { id: { in: ids } } }) : Promise.resolve([]);
    },

    listComments(f: CommentFilter, page: Page): Promise<CommentRow[]> {
      return db.comment.findMany({
        where: {
          spaceId: f.spaceId,
          ...(f.changeRequestId ? { changeRequestId: f.changeRequestId } : {}),
          ...(f.status === 'open' ? { resolvedAt: null } : f.status === 'resolved' ? { resolvedAt: { not: null } } : {}),
          ...(f.pageId ? { pageId: f.pageId } : {}),
          ...(f.authors.length ? { postedBy: { in: f.authors } } : {}),
        },
        orderBy: [{ postedAt: f.order }, { id: f.order }],
        take: page.take,
        ...cursor(page),
      });
    },

    createComment(data: {
      spaceId: string;
      changeRequestId: string | null;
      postedBy: string;
      markdown: string;
      nodeId: string;
      pageId: string;
      revision: string;
    }): Promise<CommentRow> {
      return db.comment.create({ data: { id: newId(), ...data } });
    },

    /** The comment in that space (and change request, or none for the space's own comments). */
    findComment(spaceId: string, changeRequestId: string | null, id: string): Promise<CommentRow | null> {
      return db.comment.findFirst({ where: { id, spaceId, ...(changeRequestId ? { changeRequestId } : {}) } });
    },

    async updateComment(id: string, userId: string, change: { markdown?: string; resolved?: boolean; added: string[]; removed: string[] }): Promise<CommentRow> {
      return db.$transaction(async (tx) => {
        await setReactions(tx, id, userId, change.added, change.removed);
        return tx.comment.update({
          where: { id },
          data: {
            ...(change.markdown !== undefined ? { markdown: change.markdown, editedAt: new Date() } : {}),
            ...(change.resolved === true ? { resolvedAt: new Date(), resolvedBy: userId } : change.resolved === false ? { resolvedAt: null, resolvedBy: null } : {}),
          },
        });
      });
    },

    async deleteComment(id: string): Promise<void> {
      // Replies go with the comment (cascade); their reactions and the comment's are removed here.
      await db.$transaction(async (tx) => {
        const replies = await tx.reply.findMany({ where: { commentId: id }, select: { id: true } });
        await tx.reaction.deleteMany({ where: { subjectId: { in: [id, ...replies.map((r) => r.id)] } } });
        await tx.comment.delete({ where: { id } });
      });
    },

    reactions(subjectIds: string[]): Promise<ReactionRow[]> {
      return subjectIds.length ? db.reaction.findMany({ where: { subjectId: { in: subjectIds } } }) : Promise.resolve([]);
    },

    listReplies(commentId: string, page: Page): Promise<ReplyRow[]> {
      return db.reply.findMany({ where: { commentId }, orderBy: [{ postedAt: 'asc' }, { id: 'asc' }], take: page.take, ...cursor(page) });
    },

    async createReply(commentId: string, postedBy: string, markdown: string): Promise<ReplyRow> {
      return db.$transaction(async (tx) => {
        const reply = await tx.reply.create({ data: { id: newId(), commentId, postedBy, markdown } });
        await tx.comment.update({ where: { id: commentId }, data: { replyCount: { increment: 1 } } });
        return reply;
      });
    },

    findReply(commentId: string, id: string): Promise<ReplyRow | null> {
      return db.reply.findFirst({ where: { id, commentId } });
    },

    async updateReply(id: string, userId: string, change: { markdown?: string; added: string[]; removed: string[] }): Promise<ReplyRow> {
      return db.$transaction(async (tx) => {
        await setReactions(tx, id, userId, change.added, change.removed);
        return tx.reply.update({ where: { id }, data: change.markdown !== undefined ? { markdown: change.markdown, editedAt: new Date() } : {} });
      });
    },

    async deleteReply(commentId: string, id: string): Promise<void> {
      await db.$transaction([
        db.reaction.deleteMany({ where: { subjectId: id } }),
        db.reply.delete({ where: { id } }),
        db.comment.update({ where: { id: commentId }, data: { replyCount: { decrement: 1 } } }),
      ]);
    },
  };
}

export type Store = ReturnType<typeof createStore>;
export type { ExportJobRow } from './exports.ts';
