import type { Comment, ExportJob, Reaction } from '@quire/proto/review';
import { groupReactions, type ReactionRow } from './domain/comments.ts';
import type { ExportJobRow } from './store/index.ts';

/** The reactions to one comment or reply, grouped by emoji, each user as `user` presents them. */
export function presentReactions(rows: ReactionRow[], subjectId: string, user: (id: string) => Comment['postedBy']): Reaction[] {
  return groupReactions(rows.filter((r) => r.subjectId === subjectId)).map((g) => ({
    emoji: g.emoji,
    users: g.users.map((u) => ({ user: user(u.userId), reactedAt: u.reactedAt })),
  }));
}

export const presentExportJob = (job: ExportJobRow): ExportJob => ({
  id: job.id,
  state: job.state,
  format: job.format,
  pagesDone: job.pagesDone,
  pagesTotal: job.pagesTotal,
  filesDone: job.filesDone,
  filesTotal: job.filesTotal,
  expiresAt: job.expiresAt,
});
