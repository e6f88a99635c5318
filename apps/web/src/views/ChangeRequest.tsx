import { useState } from 'react';
import { Link } from 'wouter';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { all, api } from '../api.ts';
import { Comments } from '../components/Comments.tsx';
import { Options } from '../components/Field.tsx';
import { InlineForm } from '../components/InlineForm.tsx';
import { MutationStatus } from '../components/MutationStatus.tsx';
import { ErrorState, Progress, QueryState } from '../components/states.tsx';
import { diffBlocks, type BlockChange } from '../lib/diff.ts';
import { contentBase, flatten } from '../lib/pages.ts';
import { paths } from '../paths.ts';
import type { ChangeRequest, Member, RequestedReviewer, RevisionPage, Space, User } from '../types.ts';

type Page = RevisionPage & { documentId?: string };
interface Review {
  id: string;
  reviewer: User;
  status: 'approved' | 'changes-requested';
  outdated: boolean;
}

/**
 * A merge changes the space's current content: what was read of it is dropped, not only marked
 * stale, so the space is next shown as merged rather than first as it was (a page's images
 * missing until the files list came back).
 */
function forgetContent(client: QueryClient, spaceId: string) {
  const base = contentBase(spaceId);
  client.removeQueries({ predicate: (q) => ['pages', 'files', 'page'].includes(q.queryKey[0] as string) && q.queryKey[1] === base });
}

/** Reviewing a change request: its changed pages as block diffs, comments, reviews, merge. */
export default function ChangeRequestView({ space, number }: { space: Space; number: string }) {
  const crPath = `/spaces/${space.id}/change-requests/${number}`;
  const client = useQueryClient();
  const cr = useQuery({ queryKey: ['cr', space.id, number], queryFn: () => api.get<ChangeRequest>(crPath) });
  const reviews = useQuery({ queryKey: ['reviews', crPath], queryFn: () => all<Review>(`${crPath}/reviews`) });
  const refresh = () =>
    client.invalidateQueries({ predicate: (q) => ['cr', 'reviews', 'reviewers', 'diff', 'comments', 'space', 'pages', 'crs'].includes(q.queryKey[0] as string) });
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
          <button type="button" className="btn primary" onClick={() => act.mutate(() => api.post(`${crPath}/merge`).then(() => forgetContent(client, space.id)))}>
            Merge
          </button>
        )}
      </div>
      <MutationStatus of={act} label="Working" prefix="Refused:" />
      {current.length > 0 && (
        <ul aria-label="Reviews" className="reviews">
          {current.map((r) => (
            <li key={r.id}>
              {r.reviewer.displayName}: {r.status === 'approved' ? 'approved' : 'requested changes'}
            </li>
          ))}
        </ul>
      )}
      <Reviewers space={space} crPath={crPath} canRequest={open && space.permissions.edit === true} />
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
      {changed.data?.map((ch) => (
        <PageDiff key={ch.page.id} change={ch} space={space} crPath={crPath} baseRevision={baseRevision} mode={mode} />
      ))}
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
            <DiffSide label="Before" blocks={blocks.data.filter((b) => b.kind !== 'added')} />
            <DiffSide label="After" blocks={blocks.data.filter((b) => b.kind !== 'removed')} />
          </div>
        ))}
      {change.kind !== 'removed' && <Comments crPath={crPath} canComment={space.permissions.comment !== false} page={change.page} />}
    </article>
  );
}

/** One side of a side-by-side diff: the blocks before, or after. */
function DiffSide({ label, blocks }: { label: string; blocks: BlockChange[] }) {
  return (
    <div aria-label={label}>
      {blocks.map((b, i) => (
        <pre key={i} className={`block ${b.kind}`}>
          {b.markdown}
        </pre>
      ))}
    </div>
  );
}

/** The users asked to review: listed, and asked or withdrawn by editors while the change request is open. */
function Reviewers({ space, crPath, canRequest }: { space: Space; crPath: string; canRequest: boolean }) {
  const client = useQueryClient();
  const requested = useQuery({ queryKey: ['reviewers', crPath], queryFn: () => all<RequestedReviewer>(`${crPath}/requested-reviewers`) });
  const members = useQuery({ queryKey: ['members', space.organization], queryFn: () => all<Member>(`/orgs/${space.organization}/members`), enabled: canRequest });
  const [chosen, setChosen] = useState('');
  const act = useMutation({
    mutationFn: (run: () => Promise<unknown>) => run(),
    onSuccess: () => {
      setChosen('');
      void client.invalidateQueries({ queryKey: ['reviewers', crPath] });
    },
  });
  const asked = new Set(requested.data?.map((r) => r.user.id));
  const candidates = (members.data ?? []).filter((m) => !asked.has(m.user.id) && !m.disabled);
  return (
    <section aria-labelledby="reviewers-title">
      <h2 id="reviewers-title">Requested reviewers</h2>
      <MutationStatus of={requested} label="Loading reviewers" />
      {requested.data?.length === 0 && <p className="muted small">No review requested yet.</p>}
      {requested.data && requested.data.length > 0 && (
        <ul aria-label="Requested reviewers" className="reviewers">
          {requested.data.map((r) => (
            <li key={r.user.id}>
              {r.user.displayName} <span className="muted small">asked by {r.requestedBy.displayName}</span>{' '}
              {canRequest && (
                <button type="button" className="btn small" disabled={act.isPending} onClick={() => act.mutate(() => api.delete(`${crPath}/requested-reviewers/${r.user.id}`))}>
                  Remove reviewer {r.user.displayName}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canRequest && (
        <InlineForm
          submit="Request review"
          buttonClass="btn small"
          disabled={!chosen || act.isPending}
          onSubmit={() => chosen && act.mutate(() => api.post(`${crPath}/requested-reviewers`, { users: [chosen] }))}
        >
          <label>
            Reviewer to request
            <select value={chosen} onChange={(e) => setChosen(e.target.value)}>
              <option value="">Choose a member</option>
              <Options of={candidates.map((m) => [m.user.id, `${m.user.displayName}${m.user.email ? ` (${m.user.email})` : ''}`] as const)} />
            </select>
          </label>
        </InlineForm>
      )}
      <MutationStatus of={act} />
    </section>
  );
}
