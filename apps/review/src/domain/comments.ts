import { COMMENT } from '@quire/proto/limits';
import { checkOneOf, InvalidArgumentError } from '@quire/service-kit';

export const COMMENT_STATUSES = ['all', 'open', 'resolved'] as const;
export type CommentStatusFilter = (typeof COMMENT_STATUSES)[number];

export function commentStatusFilter(value: string): CommentStatusFilter {
  if (value === '') return 'all';
  return checkOneOf('status', value, COMMENT_STATUSES);
}

export function checkReactions(field: string, emojis: string[]): string[] {
  if (emojis.length > COMMENT.reactions.max) throw new InvalidArgumentError(`${field}: at most ${COMMENT.reactions.max} emojis`);
  const { min, max } = COMMENT.reaction;
  for (const e of emojis) {
    const n = [...e].length;
    if (n < min || n > max) throw new InvalidArgumentError(`${field}: each emoji must be ${min} to ${max} characters`);
  }
  return [...new Set(emojis)];
}

export interface ReactionRow {
  subjectId: string;
  emoji: string;
  userId: string;
  reactedAt: Date;
}

/** Reactions grouped by emoji in the order each was first given, with who reacted and when. */
export function groupReactions(rows: ReactionRow[]): { emoji: string; users: { userId: string; reactedAt: Date }[] }[] {
  const byEmoji = new Map<string, { userId: string; reactedAt: Date }[]>();
  for (const r of [...rows].sort((a, b) => a.reactedAt.getTime() - b.reactedAt.getTime())) {
    const users = byEmoji.get(r.emoji) ?? [];
    users.push({ userId: r.userId, reactedAt: r.reactedAt });
    byEmoji.set(r.emoji, users);
  }
  return [...byEmoji].map(([emoji, users]) => ({ emoji, users }));
}

export interface SpaceRights {
  comment: boolean;
  admin: boolean;
}

/** What the caller may do with a comment or reply: its author edits, its author or a space admin deletes. */
export function commentPermissions(postedBy: string, caller: string | undefined, rights: SpaceRights) {
  const own = caller !== undefined && caller === postedBy;
  return { view: true, edit: own, reply: rights.comment, delete: own || rights.admin };
}
