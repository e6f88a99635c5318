import type { Comment as CommentMsg, Reaction, Reply } from '@quire/proto/review';
import type { Static } from '@sinclair/typebox';
import type { Comment, CommentReply } from '../schemas/comments.ts';
import { presentUser } from './orgs.ts';
import { iso } from './time.ts';
import type { Urls } from './urls.ts';

const presentReactions = (reactions: Reaction[], urls: Urls) =>
  reactions.map((r) => ({ emoji: r.emoji, count: r.users.length, users: r.users.map((u) => ({ user: presentUser(u.user, urls), reactedAt: iso(u.reactedAt) })) }));

const permissions = (p: CommentMsg['permissions']) => ({ view: !!p?.view, edit: !!p?.edit, reply: !!p?.reply, delete: !!p?.delete });

/** Where a comment lives in the API: under its change request, or the space's own comments. */
const commentPath = (c: { spaceId: string; changeRequestId: string; id: string }) =>
  c.changeRequestId ? `/spaces/${c.spaceId}/change-requests/${c.changeRequestId}/comments/${c.id}` : `/spaces/${c.spaceId}/comments/${c.id}`;

export function presentComment(c: CommentMsg, urls: Urls): Static<typeof Comment> {
  return {
    object: 'comment',
    id: c.id,
    postedBy: presentUser(c.postedBy, urls),
    postedAt: iso(c.postedAt),
    ...(c.editedAt ? { editedAt: iso(c.editedAt) } : {}),
    reactions: presentReactions(c.reactions, urls),
    replies: c.replies,
    body: { markdown: c.markdown },
    target: {
      ...(c.nodeId ? { node: { id: c.nodeId, ...(c.nodePreview ? { preview: c.nodePreview } : {}) } } : {}),
      ...(c.changeRequestId ? { changeRequest: c.changeRequestId } : {}),
      ...(c.reviewId ? { review: c.reviewId } : {}),
      ...(c.page ? { page: { id: c.page.id, title: c.page.title, ...(c.page.emoji ? { emoji: c.page.emoji } : {}), path: c.page.path, outdated: c.page.outdated } } : {}),
      space: c.spaceId,
      revision: c.revision,
    },
    urls: { location: urls.api(commentPath(c)) },
    permissions: permissions(c.permissions),
    status: c.status as 'open' | 'resolved',
    ...(c.resolvedAt ? { resolvedAt: iso(c.resolvedAt) } : {}),
    ...(c.resolvedBy ? { resolvedBy: presentUser(c.resolvedBy, urls) } : {}),
  };
}

export function presentReply(r: Reply, comment: { spaceId: string; changeRequestId: string; id: string }, urls: Urls): Static<typeof CommentReply> {
  return {
    object: 'comment-reply',
    id: r.id,
    postedBy: presentUser(r.postedBy, urls),
    postedAt: iso(r.postedAt),
    ...(r.editedAt ? { editedAt: iso(r.editedAt) } : {}),
    reactions: presentReactions(r.reactions, urls),
    body: { markdown: r.markdown },
    urls: { location: urls.api(`${commentPath(comment)}/replies/${r.id}`) },
    permissions: permissions(r.permissions),
  };
}
