import { Link } from 'wouter';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, type List } from '../api.ts';
import { LoadMoreButton } from '../components/LoadMoreButton.tsx';
import { QueryState } from '../components/states.tsx';
import { paths } from '../paths.ts';
import type { Revision, SemanticChange, Space } from '../types.ts';

const PAGE = 20;
const KIND: Record<Revision['type'], string> = { edits: 'Edited', merge: 'Merged', update: 'Updated', rollback: 'Rolled back', computed: 'Computed' };

/** What one semantic change says, in words. */
export function describeChange(c: SemanticChange): string {
  const page = `“${c.page?.title ?? ''}”`;
  switch (c.type) {
    case 'page_created':
      return `Added page ${page}`;
    case 'page_deleted':
      return `Deleted page ${page}`;
    case 'page_edited':
      return `Edited page ${page}${c.attributes ? ` (${Object.keys(c.attributes).join(', ')})` : ''}`;
    case 'page_moved':
      return `Moved page ${page} from ${c.parent?.before ? `“${c.parent.before.title}”` : 'the top'} to ${c.parent?.after ? `“${c.parent.after.title}”` : 'the top'}`;
    case 'file_created':
      return `Added file ${c.file?.name ?? ''}`;
    case 'file_edited':
      return `Changed file ${c.file?.name ?? ''}`;
    case 'file_deleted':
      return `Deleted file ${c.file?.name ?? ''}`;
    case 'variables_edited':
      return 'Changed variables';
  }
}

/** The space's revisions, newest first, each with what it changed and a link to read it. */
export default function HistoryView({ space }: { space: Space }) {
  // Whole revisions are large: the list asks a page at a time, more on demand.
  const revisions = useInfiniteQuery({
    queryKey: ['revisions', space.id],
    queryFn: ({ pageParam }) => api.get<List<Revision>>(`/spaces/${space.id}/revisions`, { limit: PAGE, page: pageParam, metadata: false }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next?.page,
  });
  const items = revisions.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="page wide">
      <p className="small">
        <Link href={paths.space(space.organization, space.id)}>← {space.title}</Link>
      </p>
      <h1>History of {space.title}</h1>
      <QueryState query={revisions} loading="Loading the history" failed="Could not load the history" empty={revisions.data && items.length === 0 && 'No revisions yet'} />
      <ol className="history" aria-label="Revisions">
        {items.map((r, i) => (
          <RevisionItem key={r.id} space={space} revision={r} current={i === 0} />
        ))}
      </ol>
      <LoadMoreButton query={revisions} label="Older revisions" />
    </div>
  );
}

function RevisionItem({ space, revision: r, current }: { space: Space; revision: Revision; current: boolean }) {
  const changes = useQuery({
    queryKey: ['revision-changes', space.id, r.id],
    queryFn: () => api.get<{ changes: SemanticChange[]; more?: number }>(`/spaces/${space.id}/revisions/${r.id}/changes`, { limit: 50 }),
    staleTime: Infinity,
  });
  const when = new Date(r.createdAt);
  const title = r.mergedFrom ? `#${r.mergedFrom.number} ${r.mergedFrom.subject || 'Untitled change request'}` : (r.git?.message ?? KIND[r.type]);
  return (
    <li className="revision">
      <h2 className="small">
        {/* urls.app is absolute: the app routes its path. */}
        <Link href={new URL(r.urls.app, location.origin).pathname} aria-label={`Open the revision of ${when.toLocaleString()}: ${title}`}>
          {title}
        </Link>{' '}
        <span className="status">{KIND[r.type]}</span> {current && <span className="status">current</span>}
      </h2>
      <p className="muted small">
        <time dateTime={r.createdAt}>{when.toLocaleString()}</time>
        {r.mergedFrom && <> · by {r.mergedFrom.createdBy.displayName}</>}
      </p>
      <QueryState query={changes} loading="Loading its changes" failed="Could not load its changes" />
      {changes.data?.changes.length === 0 && <p className="muted small">No changes</p>}
      {changes.data && changes.data.changes.length > 0 && (
        <ul aria-label="Changes">
          {changes.data.changes.map((c, i) => (
            <li key={i} className={`change ${c.type}`}>
              {describeChange(c)}
            </li>
          ))}
          {changes.data.more ? <li className="muted">and {changes.data.more} more</li> : null}
        </ul>
      )}
    </li>
  );
}
