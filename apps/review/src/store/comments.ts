import { newId } from '@quire/service-kit/ids';
import { rowsAfter, type Page } from '@quire/service-kit';
import type { Prisma } from '../generated/prisma/client.ts';
import type { ReactionRow } from '../domain/comments.ts';
import type { Db } from './index.ts';

export type CommentRow = Prisma.CommentGetPayload<object>;
export type ReplyRow = Prisma.ReplyGetPayload<object>;

export interface CommentFilter {
  spaceId: string;
  changeRequestId?: string;
  status: 'all' | 'open' | 'resolved';
  pageId?: string;
  authors: string[];
  order: 'asc' | 'desc';
}

/** Comments on spaces and change requests, their replies, and the reactions to both. */
export function commentStore(database: Db) {
  const db = database.prisma;

  async function setReactions(tx: Prisma.TransactionClient, subjectId: string, userId: string, added: string[], removed: string[]) {
    if (removed.length) await tx.reaction.deleteMany({ where: { subjectId, userId, emoji: { in: removed } } });
    // The same user giving the same emoji twice counts once: the key is (subject, emoji, user).
    if (added.length) await tx.reaction.createMany({ data: added.map((emoji) => ({ subjectId, userId, emoji })), skipDuplicates: true });
  }

  return {
    /** Open comments per change request. */
    async openComments(changeRequestIds: string[]): Promise<Map<string, number>> {
      if (!changeRequestIds.length) return new Map();
      const rows = await db.comment.groupBy({ by: ['changeRequestId'], where: { changeRequestId: { in: changeRequestIds }, resolvedAt: null }, _count: { _all: true } });
      return new Map(rows.map((r) => [r.changeRequestId!, r._count._all]));
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
        ...rowsAfter(page),
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
      return db.reply.findMany({ where: { commentId }, orderBy: [{ postedAt: 'asc' }, { id: 'asc' }], ...rowsAfter(page) });
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
