import { describe, expect, it } from 'vitest';
import { checkReactions, commentPermissions, commentStatusFilter, groupReactions } from './comments.ts';

describe('comment rules', () => {
  it('groups reactions by emoji in the order first given', () => {
    const t = (s: number) => new Date(s * 1000);
    const grouped = groupReactions([
      { subjectId: 'c', emoji: '👍', userId: 'b', reactedAt: t(3) },
      { subjectId: 'c', emoji: '🎉', userId: 'a', reactedAt: t(2) },
      { subjectId: 'c', emoji: '👍', userId: 'a', reactedAt: t(1) },
    ]);
    expect(grouped).toEqual([
      {
        emoji: '👍',
        users: [
          { userId: 'a', reactedAt: t(1) },
          { userId: 'b', reactedAt: t(3) },
        ],
      },
      { emoji: '🎉', users: [{ userId: 'a', reactedAt: t(2) }] },
    ]);
  });

  it('lets authors edit, authors and admins delete', () => {
    expect(commentPermissions('u', 'u', { comment: true, admin: false })).toEqual({ view: true, edit: true, reply: true, delete: true });
    expect(commentPermissions('u', 'v', { comment: true, admin: false })).toEqual({ view: true, edit: false, reply: true, delete: false });
    expect(commentPermissions('u', 'v', { comment: true, admin: true }).delete).toBe(true);
  });

  it('checks filters and emojis', () => {
    expect(commentStatusFilter('')).toBe('all');
    expect(() => commentStatusFilter('closed')).toThrow(/status/);
    expect(checkReactions('addedReactions', ['👍', '👍'])).toEqual(['👍']);
    expect(() => checkReactions('addedReactions', [''])).toThrow(/addedReactions/);
  });
});
