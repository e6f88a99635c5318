import { useEffect, useMemo, useState, type MouseEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { mentionedUsers, type JSONDocument } from '@quire/document';
import { all, api } from '../api.ts';
import { ListTable } from '../components/ListTable.tsx';
import { EmptyState, ErrorState, Progress, QueryState } from '../components/states.tsx';
import { PageTree } from '../components/PageTree.tsx';
import { contentBase, flatten, pageAt } from '../lib/pages.ts';
import { ensureDocumentStyles, renderDocument } from '../lib/render.ts';
import { paths } from '../paths.ts';
import type { RevisionFile, RevisionPage, Space, User } from '../types.ts';

type Tab = 'page' | 'files' | 'links';

/** GitBook's ContentLocation: a page, a file or a URL. */
interface Location {
  kind: 'page' | 'file' | 'url';
  url?: string;
  page?: { id: string; title: string; path: string };
  file?: { id: string; name: string };
}

interface LinkItem {
  status: 'ok' | 'broken' | 'in-app';
  targetReference: Location;
  locationReferences: Location[];
}

export function usePages(base: string) {
  return useQuery({ queryKey: ['pages', base], queryFn: () => api.get<{ pages: RevisionPage[] }>(`${base}/pages`).then((r) => r.pages) });
}

export function useFiles(base: string) {
  return useQuery({ queryKey: ['files', base], queryFn: () => all<RevisionFile>(`${base}/files`) });
}

/** Reading a space: its page tree, the page rendered as the reader renders it, files and links. */
export default function SpaceView({ space, path, revision }: { space: Space; path: string; revision?: string }) {
  const base = contentBase(space.id, revision);
  const pages = usePages(base);
  const files = useFiles(base);
  const [tab, setTab] = useState<Tab>('page');
  const page = pages.data ? pageAt(pages.data, path) : undefined;
  const canEdit = space.permissions.edit === true;

  return (
    <div className="space">
      <aside aria-label="Pages">
        <h2 className="small muted">{space.title}</h2>
        {pages.isPending && <Progress label="Loading pages" />}
        {pages.data && <PageTree pages={pages.data} current={page?.id} href={(p) => paths.page(space.id, p.path)} />}
      </aside>
      <div>
        {revision && (
          <p className="notice" role="status">
            You are reading revision <code>{revision}</code>. <Link href={paths.space(space.organization, space.id)}>Back to the current content</Link>
          </p>
        )}
        <div className="row">
          <div className="tabs" role="tablist" aria-label="Space views">
            {(['page', 'files', 'links'] as const).map((t) => (
              <button key={t} type="button" role="tab" aria-selected={tab === t} onClick={() => setTab(t)}>
                {t === 'page' ? 'Page' : t === 'files' ? 'Files' : 'Links'}
              </button>
            ))}
          </div>
          <Link className="btn" href={paths.changeRequests(space.organization, space.id)}>
            Change requests
          </Link>
          <Link className="btn" href={paths.history(space.organization, space.id)}>
            History
          </Link>
          {space.permissions.admin && (
            <Link className="btn" href={paths.spaceSettings(space.organization, space.id)}>
              Space settings
            </Link>
          )}
          {canEdit && !revision && (
            <Link className="btn primary" href={paths.changeRequests(space.organization, space.id) + `?edit=${encodeURIComponent(page?.path ?? '')}`}>
              Edit
            </Link>
          )}
        </div>
        {pages.error && <ErrorState title="Could not load the pages" message={pages.error.message} />}
        {tab === 'page' &&
          pages.data &&
          (page ? (
            <PageBody base={base} space={space} page={page} pages={pages.data} files={files} />
          ) : path ? (
            <ErrorState title="Page not found" message={`No page at “${path}” in this space.`} />
          ) : (
            <EmptyState title="This space has no pages yet">{canEdit && <p>Use Edit to write the first one in a change request.</p>}</EmptyState>
          ))}
        {tab === 'files' && <FilesPanel space={space} files={files} base={base} />}
        {tab === 'links' && <LinksPanel space={space} />}
      </div>
    </div>
  );
}

/**
 * The mentioned members' names from their queries: one value, made again only when a query's
 * result changes (a stable function, so React Query keeps it), so the page is not rendered again for nothing.
 */
const namesOf = (results: UseQueryResult<User>[]) => ({
  pending: results.some((q) => q.isPending),
  names: new Map(results.flatMap((q) => (q.data ? [[q.data.id, q.data.displayName] as const] : []))),
});

function PageBody({ base, space, page, pages, files }: { base: string; space: Space; page: RevisionPage; pages: RevisionPage[]; files: ReturnType<typeof useFiles> }) {
  const [, navigate] = useLocation();
  const body = useQuery({
    queryKey: ['page', base, page.id],
    queryFn: () => api.get<RevisionPage & { document?: JSONDocument }>(`${base}/page/${page.id}`, { format: 'document' }),
    enabled: page.type === 'document',
  });
  useEffect(ensureDocumentStyles, []);
  // The members the page mentions, by name (one the caller may not see shows none); found once per page read.
  const pageDocument = body.data?.document;
  const mentionedIds = useMemo(() => (pageDocument ? mentionedUsers(pageDocument) : []), [pageDocument]);
  const mentioned = useQueries({
    queries: mentionedIds.map((id) => ({
      queryKey: ['user', id],
      queryFn: () => api.get<User>(`/users/${id}`),
      staleTime: 60_000,
    })),
    combine: namesOf,
  });
  // Rendered once the files and names are known too: an image without its URL, a mention without
  // its name, would show late or not at all.
  const loading = body.isPending || files.isPending || mentioned.pending;
  const html = useMemo(
    () => (pageDocument && !loading ? renderDocument(pageDocument, space.id, pages, files.data ?? [], mentioned.names) : ''),
    [pageDocument, loading, space.id, pages, files.data, mentioned.names],
  );
  // Links between pages stay in the app; others leave it.
  const follow = (e: MouseEvent) => {
    const a = (e.target as HTMLElement).closest('a');
    if (!a || a.target || e.metaKey || e.ctrlKey || e.shiftKey) return;
    const url = new URL(a.href, location.href);
    if (url.origin === location.origin && url.pathname.startsWith('/s/')) {
      e.preventDefault();
      navigate(url.pathname + url.hash);
    }
  };
  return (
    <article aria-labelledby="page-title">
      <h1 id="page-title">
        {page.emoji && <span aria-hidden="true">{page.emoji} </span>}
        {page.title}
      </h1>
      {page.description && <p className="lead muted">{page.description}</p>}
      {loading && page.type === 'document' && <Progress label="Loading the page" />}
      {body.error && <ErrorState title="Could not load the page" message={body.error.message} />}
      {page.type === 'link' && page.href && <a href={page.href}>{page.href}</a>}
      {/* toHtml's output is sanitized (hast-util-sanitize, GitHub's rules) before it gets here. */}
      <div className="document" onClick={follow} dangerouslySetInnerHTML={{ __html: html }} />
      {flatten(page.pages ?? []).length > 0 && (
        <nav aria-label="Subpages">
          <ul>
            {(page.pages ?? []).map((p) => (
              <li key={p.id}>
                <Link href={paths.page(space.id, p.path)}>{p.title}</Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </article>
  );
}

function FilesPanel({ space, files, base }: { space: Space; files: ReturnType<typeof useFiles>; base: string }) {
  const [open, setOpen] = useState<string>();
  const backlinks = useQuery({
    queryKey: ['backlinks', base, open],
    queryFn: () => all<Location>(`${base}/files/${open}/backlinks`),
    enabled: open !== undefined && !base.includes('/revisions/'),
  });
  if (files.isPending) return <Progress label="Loading files" />;
  if (files.error) return <ErrorState title="Could not load the files" message={files.error.message} />;
  if (!files.data.length) return <EmptyState title="No files in this space" />;
  return (
    <ListTable caption={`Files of ${space.title}`} columns={['Name', 'Type', 'Used by']} items={files.data}>
      {(f) => (
        <tr key={f.id}>
          <td>
            <a href={f.downloadURL}>{f.name}</a>
          </td>
          <td>{f.contentType}</td>
          <td>
            {open === f.id ? (
              backlinks.isPending ? (
                <Progress label="Loading backlinks" />
              ) : (
                <ul aria-label={`Pages using ${f.name}`}>
                  {(backlinks.data ?? []).map((b, i) => (
                    <li key={b.page?.id ?? i}>{b.page ? <Link href={paths.page(space.id, b.page.path)}>{b.page.title}</Link> : 'another space'}</li>
                  ))}
                  {backlinks.data?.length === 0 && <li>No page links to it.</li>}
                </ul>
              )
            ) : (
              <button type="button" className="btn small" onClick={() => setOpen(f.id)} aria-label={`Backlinks of ${f.name}`}>
                Show backlinks
              </button>
            )}
          </td>
        </tr>
      )}
    </ListTable>
  );
}

function LinksPanel({ space }: { space: Space }) {
  const [status, setStatus] = useState<'broken' | 'ok' | 'in-app'>('broken');
  const links = useQuery({ queryKey: ['links', space.id, status], queryFn: () => all<LinkItem>(`/spaces/${space.id}/links`, { status }) });
  const label = (l: Location) => l.url ?? l.page?.title ?? l.file?.name ?? l.kind;
  return (
    <section aria-label="Links">
      <label>
        Show{' '}
        <select value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
          <option value="broken">Broken links</option>
          <option value="ok">Working links</option>
          <option value="in-app">Links into the app</option>
        </select>
      </label>
      <QueryState
        query={links}
        loading="Loading links"
        failed="Could not load the links"
        empty={links.data?.length === 0 && (status === 'broken' ? 'No broken links' : 'No links')}
      />
      {links.data && links.data.length > 0 && (
        <ul>
          {links.data.map((l, i) => (
            <li key={i}>
              <code>{label(l.targetReference)}</code>
              {' in '}
              {l.locationReferences.map((s, j) =>
                s.page ? (
                  <Link key={j} href={paths.page(space.id, s.page.path)}>
                    {s.page.title}{' '}
                  </Link>
                ) : null,
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
