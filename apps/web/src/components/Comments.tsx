import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { all, api, type List } from '../api.ts';
import { useSession } from '../session.tsx';
import type { Comment, Reaction } from '../types.ts';
import { Field } from './Field.tsx';
import { InlineForm } from './InlineForm.tsx';
import { MutationStatus } from './MutationStatus.tsx';

const THUMBS = '👍';

/**
 * A change request's comments with their replies and reactions: those on the change request
 * itself, or, given `page`, those on that page (GitBook's comment target).
 */
export function Comments({ crPath, canComment, page }: { crPath: string; canComment: boolean; page?: { id: string; title: string } }) {
  const client = useQueryClient();
  const key = ['comments', crPath, page?.id ?? ''];
  const comments = useQuery({
    queryKey: key,
    queryFn: () => api.get<List<Comment>>(`${crPath}/comments`, { order: 'asc', limit: 100, format: 'markdown', targetPage: page?.id }),
  });
  // The change request's own thread leaves out the comments shown with their pages.
  const shown = comments.data?.items.filter((c) => page || !c.target?.page) ?? [];
  const [text, setText] = useState('');
  const post = useMutation({
    mutationFn: (markdown: string) => api.post(`${crPath}/comments`, { body: { markdown }, ...(page ? { page: page.id } : {}) }),
    onSuccess: () => {
      setText('');
      void client.invalidateQueries({ queryKey: key });
    },
  });
  const Heading = page ? 'h4' : 'h2';
  const headingId = `comments-${page?.id ?? 'all'}`;
  return (
    <section aria-labelledby={headingId} className={page ? 'page-comments' : undefined}>
      <Heading id={headingId}>{page ? `Comments on ${page.title}` : 'Comments'}</Heading>
      <MutationStatus of={comments} label="Loading comments" />
      {comments.data && shown.length === 0 && <p className="muted small">No comments yet.</p>}
      <ul className="comments">
        {shown.map((c) => (
          <CommentItem key={c.id} comment={c} crPath={crPath} canComment={canComment} queryKey={key} />
        ))}
      </ul>
      {canComment && (
        <form
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            if (text.trim()) post.mutate(text.trim());
          }}
        >
          <label>
            {page ? `Comment on ${page.title}` : 'Add a comment'}
            <textarea value={text} onChange={(e) => setText(e.target.value)} rows={page ? 2 : 3} />
          </label>
          <button type="submit" className="btn" disabled={post.isPending}>
            {page ? 'Comment on page' : 'Comment'}
          </button>
          <MutationStatus of={post} label="Posting" />
        </form>
      )}
    </section>
  );
}

function CommentItem({ comment, crPath, canComment, queryKey }: { comment: Comment; crPath: string; canComment: boolean; queryKey: string[] }) {
  const client = useQueryClient();
  const [reply, setReply] = useState('');
  const path = `${crPath}/comments/${comment.id}`;
  const replies = useQuery({
    queryKey: [...queryKey, comment.id, 'replies'],
    queryFn: () => all<Comment>(`${path}/replies`, { format: 'markdown' }),
    enabled: (comment.replies ?? 0) > 0,
  });
  const refresh = () => client.invalidateQueries({ queryKey });
  const postReply = useMutation({
    mutationFn: () => api.post(`${path}/replies`, { body: { markdown: reply.trim() } }),
    onSuccess: () => {
      setReply('');
      void refresh();
    },
  });
  return (
    <li className="comment">
      <p>
        <strong>{comment.postedBy.displayName}</strong>: {comment.body.markdown}
      </p>
      <ReactionButton path={path} reactions={comment.reactions} author={comment.postedBy.displayName} onDone={refresh} />
      {replies.data && (
        <ul aria-label={`Replies to ${comment.postedBy.displayName}`} className="replies">
          {replies.data.map((r) => (
            <li key={r.id}>
              <strong>{r.postedBy.displayName}</strong>: {r.body.markdown}{' '}
              <ReactionButton path={`${path}/replies/${r.id}`} reactions={r.reactions} author={r.postedBy.displayName} onDone={refresh} reply />
            </li>
          ))}
        </ul>
      )}
      {canComment && (
        <InlineForm submit="Reply" buttonClass="btn small" disabled={postReply.isPending} onSubmit={() => reply.trim() && postReply.mutate()}>
          <Field label={`Reply to ${comment.postedBy.displayName}`} hideLabel bind={[reply, setReply]} placeholder="Reply…" />
        </InlineForm>
      )}
    </li>
  );
}

/** 👍 on a comment or a reply: adds the caller's reaction, or takes it back. */
function ReactionButton({ path, reactions, author, onDone, reply }: { path: string; reactions: Reaction[]; author: string; onDone: () => void; reply?: boolean }) {
  const { user } = useSession();
  const thumbs = reactions.find((r) => r.emoji === THUMBS);
  const mine = !!thumbs?.users.some((u) => u.user.id === user?.id);
  const react = useMutation({ mutationFn: () => api.put(path, mine ? { removedReactions: [THUMBS] } : { addedReactions: [THUMBS] }), onSuccess: onDone });
  return (
    <button type="button" className="btn small" aria-pressed={mine} disabled={react.isPending} onClick={() => react.mutate()}>
      {/* The count shown is in the name too, as what is seen should be what is heard. */}
      <span aria-hidden="true">{THUMBS}</span>
      <span className="visually-hidden">
        React with thumbs up to {author}&apos;s {reply ? 'reply' : 'comment'}
      </span>
      {thumbs?.count ? ` ${thumbs.count}` : ''}
    </button>
  );
}
