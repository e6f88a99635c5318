import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { all, api, type List } from '../api.ts';
import { ErrorState, Progress, QueryState } from '../components/states.tsx';
import { diffBlocks } from '../lib/diff.ts';
import { flatten } from '../lib/pages.ts';
import { paths } from '../paths.ts';
import type { ChangeRequest, Comment, RevisionPage, Space, User } from '../types.ts';

type Page = RevisionPage & { documentId?: string };
interface Review {
  id: string;
  reviewer: User;
  status: 'approved' | 'changes-requested';
  outdated: boolean;
}

/** Reviewing a change request: its changed pages as block diffs, comments, reviews, merge. */
export default function ChangeRequestView({ space, number }: { space: Space; number: string }) {
  const crPath = `/spaces/${space.id}/change-requests/${number}`;
  const client = useQueryClient();
  const cr = useQuery({ queryKey: ['cr', space.id, number], queryFn: () => api.get<ChangeRequest>(crPath) });
  const reviews = useQuery({ queryKey: ['reviews', crPath], queryFn: () => all<Review>(`${crPath}/reviews`) });
  const refresh = () => client.invalidateQueries({ predicate: (q) => ['cr', 'reviews', 'diff', 'comments', 'space', 'pages', 'crs'].includes(q.queryKey[0] as string) });
  const act = useMutation({ mutationFn: (run: () => Promise<unknown>) => run(), onSettled: refresh });

  if (cr.isPending) return <Progress label="Loading the change request" />;
  if (cr.error) return <ErrorState title="Change request not available" message={cr.error.message} />;
  const c = cr.data;
  const open = c.status === 'open' || c.status === 'draft';
  const current = (reviews.data ?? []).filter((r) => !r.outdated);

  return (
    <div className="page wide">
      <p className="small">
        <Link href={paths.changeRequests(space.organization, space.id)}>← Change requests of {space.title}</Link>
      </p>
      <h1>
        #{c.number} {c.subject || 'Untitled change request'}
      </h1>
      <p className="muted">
        <span className="status">{c.status}</span> {c.outdated && <span className="status">outdated: the space changed since</span>} by {c.createdBy.displayName}
      </p>
      <div className="row">
        {open && space.permissions.edit && (
          <Link className="btn" href={paths.edit(space.organization, space.id, c.number)}>
            Edit
          </Link>
        )}
        {open && space.permissions.review && (
          <>
            <button type="button" className="btn" onClick={() => act.mutate(() => api.post(`${crPath}/reviews`, { status: 'approved' }))}>
              Approve
            </button>
            <button type="button" className="btn" onClick={() => act.mutate(() => api.post(`${crPath}/reviews`, { status: 'changes-requested' }))}>
              Request changes
            </button>
          </>
        )}
        {open && space.permissions.edit && (
          <button type="button" className="btn" onClick={() => act.mutate(() => api.post(`${crPath}/update`))}>
            Update from the space
          </button>
        )}
        {open && space.permissions.merge && (
          <button type="button" className="btn primary" onClick={() => act.mutate(() => api.post(`${crPath}/merge`))}>
            Merge
          </button>
        )}
      </div>
      {act.isPending && <Progress label="Working" />}
      {act.error && (
        <div role="alert" className="state-inline error-text">
          <strong>Refused:</strong> {act.error.message}
        </div>
      )}
      {current.length > 0 && (
        <ul aria-label="Reviews" className="reviews">
          {current.map((r) => (
            <li key={r.id}>
              {r.reviewer.displayName}: {r.status === 'approved' ? 'approved' : 'requested changes'}
            </li>
          ))}
        </ul>
      )}
      <Changes space={space} cr={c} crPath={crPath} />
      <Comments crPath={crPath} canComment={space.permissions.comment !== false} />
    </div>
  );
}

interface PageChange {
  page: Page;
  kind: 'added' | 'removed' | 'edited';
  before?: Page;
}

function Changes({ space, cr, crPath }: { space: Space; cr: ChangeRequest; crPath: string }) {
  // Against the revision the change request last started from: its first, or the one an update brought in.
  const baseRevision = (cr as ChangeRequest & { revisionMergedAncestor?: string }).revisionMergedAncestor ?? cr.revisionInitial ?? cr.revision;
  const [mode, setMode] = useState<'inline' | 'side'>('inline');
  const changed = useQuery({
    queryKey: ['diff', crPath, cr.revision, baseRevision],
    queryFn: async () => {
      const [before, after] = await Promise.all([
        // A space created empty has no first revision: everything is new.
        baseRevision ? api.get<{ pages: Page[] }>(`/spaces/${space.id}/revisions/${baseRevision}/pages`) : { pages: [] },
        api.get<{ pages: Page[] }>(`${crPath}/content/pages`),
      ]);
      const old = new Map(flatten(before.pages).map((p) => [p.id, p as Page]));
      const now = flatten(after.pages) as Page[];
      const out: PageChange[] = [];
      for (const p of now) {
        const b = old.get(p.id);
        if (!b) out.push({ page: p, kind: 'added' });
        else if (b.documentId !== p.documentId || b.title !== p.title || b.path !== p.path) out.push({ page: p, kind: 'edited', before: b });
        old.delete(p.id);
      }
      for (const p of old.values()) out.push({ page: p, kind: 'removed' });
      return out;
    },
  });
  return (
    <section aria-labelledby="changes-title">
      <div className="row">
        <h2 id="changes-title">Changes</h2>
        <div role="group" aria-label="Diff layout">
          <button type="button" className="btn small" aria-pressed={mode === 'inline'} onClick={() => setMode('inline')}>
            Inline
          </button>
          <button type="button" className="btn small" aria-pressed={mode === 'side'} onClick={() => setMode('side')}>
            Side by side
          </button>
        </div>
      </div>
      <QueryState query={changed} loading="Comparing pages" failed="Could not compare" empty={changed.data?.length === 0 && 'No changes yet'} />
      {changed.data?.map((ch) => <PageDiff key={ch.page.id} change={ch} space={space} crPath={crPath} baseRevision={baseRevision} mode={mode} />)}
    </section>
  );
}

function PageDiff({ change, space, crPath, baseRevision, mode }: { change: PageChange; space: Space; crPath: string; baseRevision: string; mode: 'inline' | 'side' }) {
  const md = (url: string) => api.get<{ markdown?: string }>(url, { format: 'markdown' }).then((p) => p.markdown ?? '');
  const blocks = useQuery({
    queryKey: ['diff', 'page', crPath, change.page.id, change.page.documentId, change.before?.documentId],
    queryFn: async () => {
      const before = change.kind === 'added' ? '' : await md(`/spaces/${space.id}/revisions/${baseRevision}/page/${change.page.id}`);
      const after = change.kind === 'removed' ? '' : await md(`${crPath}/content/page/${change.page.id}`);
      return diffBlocks(before, after);
    },
    enabled: change.page.type === 'document',
  });
  const label = { added: 'new page', removed: 'deleted', edited: 'edited' }[change.kind];
  return (
    <article className="diff" aria-label={`${change.page.title} (${label})`}>
      <h3>
        {change.page.title} <span className="status">{label}</span>
        {change.before && change.before.title !== change.page.title && <span className="muted small"> was “{change.before.title}”</span>}
      </h3>
      {blocks.isPending && <Progress label="Loading the diff" />}
      {blocks.data &&
        (mode === 'inline' ? (
          <div className="blocks">
            {blocks.data.map((b, i) => (
              <pre key={i} className={`block ${b.kind}`}>
                <span className="visually-hidden">{b.kind === 'same' ? '' : `${b.kind}: `}</span>
                {b.markdown}
              </pre>
            ))}
          </div>
        ) : (
          <div className="side">
            <div aria-label="Before">
              {blocks.data
                .filter((b) => b.kind !== 'added')
                .map((b, i) => (
                  <pre key={i} className={`block ${b.kind}`}>
                    {b.markdown}
                  </pre>
                ))}
            </div>
            <div aria-label="After">
              {blocks.data
                .filter((b) => b.kind !== 'removed')
                .map((b, i) => (
                  <pre key={i} className={`block ${b.kind}`}>
                    {b.markdown}
                  </pre>
                ))}
            </div>
          </div>
        ))}
    </article>
  );
}

function Comments({ crPath, canComment }: { crPath: string; canComment: boolean }) {
  const client = useQueryClient();
  const comments = useQuery({ queryKey: ['comments', crPath], queryFn: () => api.get<List<Comment>>(`${crPath}/comments`, { order: 'asc', limit: 100, format: 'markdown' }) });
  const [text, setText] = useState('');
  const post = useMutation({
    mutationFn: (markdown: string) => api.post(`${crPath}/comments`, { body: { markdown } }),
    onSuccess: () => {
      setText('');
      void client.invalidateQueries({ queryKey: ['comments', crPath] });
    },
  });
  return (
    <section aria-labelledby="comments-title">
      <h2 id="comments-title">Comments</h2>
      {comments.isPending && <Progress label="Loading comments" />}
      {comments.data && comments.data.items.length === 0 && <p className="muted">No comments yet.</p>}
      <ul className="comments">
        {comments.data?.items.map((c) => <CommentItem key={c.id} comment={c} crPath={crPath} canComment={canComment} />)}
      </ul>
      {canComment && (
        <form
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            if (text.trim()) post.mutate(text.trim());
          }}
        >
          <label>
            Add a comment
            <textarea value={text} onChange={(e) => setText(e.target.value)} rows={3} />
          </label>
          <button type="submit" className="btn" disabled={post.isPending}>
            Comment
          </button>
          {post.error && (
            <p role="alert" className="error-text">
              {post.error.message}
            </p>
          )}
        </form>
      )}
    </section>
  );
}

function CommentItem({ comment, crPath, canComment }: { comment: Comment; crPath: string; canComment: boolean }) {
  const client = useQueryClient();
  const [reply, setReply] = useState('');
  const replies = useQuery({
    queryKey: ['comments', crPath, comment.id, 'replies'],
    queryFn: () => all<Comment>(`${crPath}/comments/${comment.id}/replies`, { format: 'markdown' }),
    enabled: comment.replies > 0,
  });
  const refresh = () => client.invalidateQueries({ queryKey: ['comments', crPath] });
  const postReply = useMutation({
    mutationFn: () => api.post(`${crPath}/comments/${comment.id}/replies`, { body: { markdown: reply.trim() } }),
    onSuccess: () => {
      setReply('');
      void refresh();
    },
  });
  const react = useMutation({ mutationFn: () => api.put(`${crPath}/comments/${comment.id}`, { addedReactions: ['👍'] }), onSuccess: refresh });
  const thumbs = comment.reactions?.find((r) => r.reaction === '👍')?.count ?? 0;
  return (
    <li className="comment">
      <p>
        <strong>{comment.postedBy.displayName}</strong>: {comment.body.markdown}
      </p>
      <button type="button" className="btn small" onClick={() => react.mutate()} aria-label={`React with thumbs up to ${comment.postedBy.displayName}'s comment`}>
        👍 {thumbs || ''}
      </button>
      {replies.data && (
        <ul aria-label="Replies">
          {replies.data.map((r) => (
            <li key={r.id}>
              <strong>{r.postedBy.displayName}</strong>: {r.body.markdown}
            </li>
          ))}
        </ul>
      )}
      {canComment && (
        <form
          className="inline"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            if (reply.trim()) postReply.mutate();
          }}
        >
          <label>
            <span className="visually-hidden">Reply to {comment.postedBy.displayName}</span>
            <input value={reply} onChange={(e) => setReply(e.target.value)} placeholder="Reply…" />
          </label>
          <button type="submit" className="btn small">
            Reply
          </button>
        </form>
      )}
    </li>
  );
}
