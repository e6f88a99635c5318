import { SortOrder } from '@quire/proto/common';
import { COMMENT, COMMON } from '@quire/proto/limits';
import type { Space } from '@quire/proto/content';
import type { Comment, Reply, ReviewServiceServer } from '@quire/proto/review';
import { listPage, checkLength, InvalidArgumentError, isServiceError, GrpcStatus, NotFoundError, PermissionDeniedError, type CallContext, type Handlers } from '@quire/service-kit';
import { checkReactions, commentPermissions, commentStatusFilter } from '../domain/comments.ts';
import { presentReactions } from '../presenters.ts';
import type { CommentRow, ReplyRow } from '../store/index.ts';
import { callerOf, countersChanged, changeRequestIn, need, spaceOf, usersById, type Deps } from './deps.ts';

type CommentHandlers = Pick<
  Handlers<ReviewServiceServer>,
  'listComments' | 'postComment' | 'getComment' | 'updateComment' | 'deleteComment' | 'listReplies' | 'postReply' | 'getReply' | 'updateReply' | 'deleteReply'
>;

const rightsOf = (space: Space) => ({ comment: !!space.permissions?.comment, admin: !!space.permissions?.admin });

/**
 * Whether each commented page is still in the content its comment is on: the change request's
 * current revision, or the space's active one. One revision read per distinct revision.
 */
async function livePages(deps: Deps, space: Space, rows: CommentRow[], ctx: CallContext): Promise<(row: CommentRow) => boolean> {
  const onPages = rows.filter((r) => r.pageId);
  if (!onPages.length) return () => false;
  const crs = await deps.store.changeRequestsByIds([...new Set(onPages.flatMap((r) => (r.changeRequestId ? [r.changeRequestId] : [])))]);
  const revisionOf = (r: CommentRow) => (r.changeRequestId ? (crs.get(r.changeRequestId)?.revision ?? space.revisionId) : space.revisionId);
  const revisions = [...new Set(onPages.map(revisionOf))];
  const trees = await Promise.all(
    revisions.map((revisionId) => deps.spaceContent.getRevision({ spaceId: space.id, revisionId, metadata: false, withMarkdown: false, withDocuments: false }, ctx)),
  );
  const pageIds = new Map<string, Set<string>>();
  trees.forEach((t, i) => {
    const ids = new Set<string>();
    const walk = (pages: typeof t.pages) => pages.forEach((p) => (ids.add(p.id), walk(p.pages)));
    walk(t.pages);
    pageIds.set(revisions[i]!, ids);
  });
  return (r) => pageIds.get(revisionOf(r))!.has(r.pageId);
}

/** Comments as the API shows them: users, reactions, change request numbers and pages fetched once for the whole list. */
async function presentComments(deps: Deps, space: Space, rows: CommentRow[], ctx: CallContext): Promise<Comment[]> {
  const ids = rows.map((r) => r.id);
  const [reactions, live] = await Promise.all([deps.store.reactions(ids), livePages(deps, space, rows, ctx)]);
  const user = await usersById(deps, [...rows.flatMap((r) => [r.postedBy, r.resolvedBy]), ...reactions.map((r) => r.userId)], ctx);
  const rights = rightsOf(space);
  return rows.map((r) => ({
    id: r.id,
    spaceId: r.spaceId,
    changeRequestId: r.changeRequestId ?? '',
    reviewId: r.reviewId ?? '',
    postedBy: user(r.postedBy),
    postedAt: r.postedAt,
    editedAt: r.editedAt ?? undefined,
    reactions: presentReactions(reactions, r.id, user),
    replies: r.replyCount,
    markdown: r.markdown,
    nodeId: r.nodeId,
    nodePreview: r.nodePreview,
    page: r.pageId ? { id: r.pageId, title: r.pageTitle, emoji: r.pageEmoji, path: r.pagePath, outdated: !live(r) } : undefined,
    revision: r.revision,
    status: r.resolvedAt ? 'resolved' : 'open',
    resolvedAt: r.resolvedAt ?? undefined,
    resolvedBy: r.resolvedBy ? user(r.resolvedBy) : undefined,
    permissions: commentPermissions(r.postedBy, ctx.userId, rights),
  }));
}

async function presentReplies(deps: Deps, space: Space, rows: ReplyRow[], ctx: CallContext): Promise<Reply[]> {
  const reactions = await deps.store.reactions(rows.map((r) => r.id));
  const user = await usersById(deps, [...rows.map((r) => r.postedBy), ...reactions.map((r) => r.userId)], ctx);
  const rights = rightsOf(space);
  return rows.map((r) => ({
    id: r.id,
    commentId: r.commentId,
    postedBy: user(r.postedBy),
    postedAt: r.postedAt,
    editedAt: r.editedAt ?? undefined,
    reactions: presentReactions(reactions, r.id, user),
    markdown: r.markdown,
    permissions: commentPermissions(r.postedBy, ctx.userId, rights),
  }));
}

const first = async <T>(list: Promise<T[]>) => (await list)[0]!;
const checkMarkdown = (field: string, markdown: string) => checkLength(field, markdown, COMMENT.markdown);

/** The space, and the change request the comments belong to (none for the space's own). */
async function scope(deps: Deps, req: { spaceId: string; changeRequest: string }, ctx: CallContext) {
  const space = await spaceOf(deps, req.spaceId, ctx);
  const cr = req.changeRequest ? await changeRequestIn(deps, space.id, req.changeRequest) : null;
  return { space, cr };
}

async function commentIn(deps: Deps, req: { spaceId: string; changeRequest: string; commentId: string }, ctx: CallContext) {
  const { space, cr } = await scope(deps, req, ctx);
  const comment = await deps.store.findComment(space.id, cr?.id ?? null, req.commentId);
  if (!comment) throw new NotFoundError(`Comment "${req.commentId}" not found`);
  return { space, cr, comment };
}

async function replyIn(deps: Deps, req: { spaceId: string; changeRequest: string; commentId: string; replyId: string }, ctx: CallContext) {
  const found = await commentIn(deps, req, ctx);
  const reply = await deps.store.findReply(found.comment.id, req.replyId);
  if (!reply) throw new NotFoundError(`Comment reply "${req.replyId}" not found`);
  return { ...found, reply };
}

function onlyAuthor(postedBy: string, userId: string, what: string, doing: string) {
  if (postedBy !== userId) throw new PermissionDeniedError(`Only the author of a ${what} may ${doing} it`);
}

function authorOrAdmin(space: Space, postedBy: string, userId: string, what: string) {
  if (postedBy !== userId && !space.permissions?.admin) throw new PermissionDeniedError(`Only the author of a ${what} or an admin of the space may delete it`);
}

/** The edits of a PUT, checked: the body is its author's, resolving and reactions need `comment`. */
function edits(space: Space, postedBy: string, userId: string, what: string, req: { markdown?: string; addedReactions: string[]; removedReactions: string[] }) {
  need(space, 'comment', `react to or resolve a ${what}`);
  if (req.markdown !== undefined) {
    onlyAuthor(postedBy, userId, what, 'edit');
    checkMarkdown('body.markdown', req.markdown);
  }
  return { markdown: req.markdown, added: checkReactions('addedReactions', req.addedReactions), removed: checkReactions('removedReactions', req.removedReactions) };
}

/** The page a comment targets, as it is in the revision commented on; a page that is not there is bad input. */
async function targetPage(deps: Deps, spaceId: string, revisionId: string, pageId: string, ctx: CallContext) {
  if (!pageId) return { pageId: '', pageTitle: '', pageEmoji: '', pagePath: '' };
  try {
    const p = await deps.spaceContent.getPage({ spaceId, revisionId, pageId, format: '', metadata: false }, ctx);
    return { pageId: p.id, pageTitle: p.title, pageEmoji: p.emoji, pagePath: p.path };
  } catch (err) {
    if (isServiceError(err) && err.code === GrpcStatus.NOT_FOUND) throw new InvalidArgumentError(`page: "${pageId}" is not a page of the content commented on`);
    throw err;
  }
}

const ORDERS: Record<SortOrder, 'asc' | 'desc'> = { [SortOrder.SORT_ORDER_ASC]: 'asc', [SortOrder.SORT_ORDER_DESC]: 'desc', [SortOrder.SORT_ORDER_UNSPECIFIED]: 'desc' } as const;

export function commentHandlers(deps: Deps): CommentHandlers {
  const { store } = deps;
  return {
    async listComments(req, ctx) {
      const { space, cr } = await scope(deps, req, ctx);
      const status = commentStatusFilter(req.status);
      const filter = { spaceId: space.id, changeRequestId: cr?.id, status, pageId: req.targetPage || undefined, authors: req.authors, order: ORDERS[req.order] };
      const present = (items: CommentRow[]) => presentComments(deps, space, items, ctx);
      return listPage(req.page, (page) => store.listComments(filter, page), present);
    },

    async postComment(req, ctx) {
      const userId = callerOf(ctx);
      const { space, cr } = await scope(deps, req, ctx);
      need(space, 'comment', 'comment');
      checkMarkdown('body.markdown', req.markdown);
      if (req.nodeId) checkLength('node', req.nodeId, COMMON.id);
      const revision = cr?.revision ?? space.revisionId;
      const page = await targetPage(deps, space.id, revision, req.pageId, ctx);
      const row = await store.createComment({
        spaceId: space.id,
        changeRequestId: cr?.id ?? null,
        postedBy: userId,
        markdown: req.markdown,
        nodeId: req.nodeId,
        revision,
        ...page,
      });
      await countersChanged(deps, space, ctx);
      return first(presentComments(deps, space, [row], ctx));
    },

    async getComment(req, ctx) {
      const { space, comment } = await commentIn(deps, req, ctx);
      return first(presentComments(deps, space, [comment], ctx));
    },

    async updateComment(req, ctx) {
      const userId = callerOf(ctx);
      const { space, comment } = await commentIn(deps, req, ctx);
      const change = edits(space, comment.postedBy, userId, 'comment', req);
      const row = await store.updateComment(comment.id, userId, { ...change, resolved: req.resolved });
      if ((row.resolvedAt === null) !== (comment.resolvedAt === null)) await countersChanged(deps, space, ctx);
      return first(presentComments(deps, space, [row], ctx));
    },

    async deleteComment(req, ctx) {
      const userId = callerOf(ctx);
      const { space, comment } = await commentIn(deps, req, ctx);
      authorOrAdmin(space, comment.postedBy, userId, 'comment');
      await store.deleteComment(comment.id);
      await countersChanged(deps, space, ctx);
      return {};
    },

    async listReplies(req, ctx) {
      const { space, comment } = await commentIn(deps, req, ctx);
      const present = (items: ReplyRow[]) => presentReplies(deps, space, items, ctx);
      return listPage(req.page, (page) => store.listReplies(comment.id, page), present);
    },

    async postReply(req, ctx) {
      const userId = callerOf(ctx);
      const { space, comment } = await commentIn(deps, req, ctx);
      need(space, 'comment', 'reply to a comment');
      checkMarkdown('body.markdown', req.markdown);
      return first(presentReplies(deps, space, [await store.createReply(comment.id, userId, req.markdown)], ctx));
    },

    async getReply(req, ctx) {
      const { space, reply } = await replyIn(deps, req, ctx);
      return first(presentReplies(deps, space, [reply], ctx));
    },

    async updateReply(req, ctx) {
      const userId = callerOf(ctx);
      const { space, reply } = await replyIn(deps, req, ctx);
      const row = await store.updateReply(reply.id, userId, edits(space, reply.postedBy, userId, 'comment reply', req));
      return first(presentReplies(deps, space, [row], ctx));
    },

    async deleteReply(req, ctx) {
      const userId = callerOf(ctx);
      const { space, comment, reply } = await replyIn(deps, req, ctx);
      authorOrAdmin(space, reply.postedBy, userId, 'comment reply');
      await store.deleteReply(comment.id, reply.id);
      return {};
    },
  };
}

export { presentComments };
