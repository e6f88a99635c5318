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

/** What a comment and a reply both say of themselves: who posted it, when, and its reactions. */
const posted = (p: Pick<CommentMsg | Reply, 'id' | 'postedBy' | 'postedAt' | 'editedAt' | 'reactions'>, urls: Urls) => ({
  id: p.id,
  postedBy: presentUser(p.postedBy, urls),
  postedAt: iso(p.postedAt),
  ...(p.editedAt ? { editedAt: iso(p.editedAt) } : {}),
  reactions: presentReactions(p.reactions, urls),
});

export function presentComment(c: CommentMsg, urls: Urls): Static<typeof Comment> {
  return {
    object: 'comment',
    ...posted(c, urls),
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
    ...posted(r, urls),
    body: { markdown: r.markdown },
    urls: { location: urls.api(`${commentPath(comment)}/replies/${r.id}`) },
    permissions: permissions(r.permissions),
  };
}
