import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { JSONDocument } from '@quire/document';
import { all, api } from '../api.ts';
import { EditableTree } from '../components/EditableTree.tsx';
import { Field } from '../components/Field.tsx';
import { MutationStatus } from '../components/MutationStatus.tsx';
import { EmptyState, ErrorState, Progress } from '../components/states.tsx';
import { Autosaver, type SaveState } from '../editor/autosave.ts';
import { collabReady, memberColor, SYNC_LABEL, useCollaboration } from '../editor/collab.ts';
import { Editor } from '../editor/Editor.tsx';
import type { EditorProps } from '../editor/Editor.tsx';
import { flatten, pageAt } from '../lib/pages.ts';
import type { TreeMove } from '../lib/tree.ts';
import { ensureDocumentStyles, renderDocument } from '../lib/render.ts';
import { paths } from '../paths.ts';
import { useSession } from '../session.tsx';
import type { ChangeRequest, Member, RevisionFile, RevisionPage, Space } from '../types.ts';

type PageMeta = { title: string; emoji: string; icon: string };

const SAVE_LABEL: Record<SaveState, string> = { saved: 'All changes saved', unsaved: 'Unsaved changes', saving: 'Saving…', error: 'Not saved' };

/** Writing in a change request: its page tree (new, delete), and the chosen page in the block editor, saved as one types. */
export default function EditView({ space, number, path }: { space: Space; number: string; path: string }) {
  const crPath = `/spaces/${space.id}/change-requests/${number}`;
  const base = `${crPath}/content`;
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const cr = useQuery({ queryKey: ['cr', space.id, number], queryFn: () => api.get<ChangeRequest>(crPath) });
  const pages = useQuery({ queryKey: ['pages', base], queryFn: () => api.get<{ pages: RevisionPage[] }>(`${base}/pages`).then((r) => r.pages) });
  const page = pages.data ? pageAt(pages.data, path) : undefined;
  // What the editor's pickers offer: the change request's files and reusable contents, the organization's members.
  const files = useQuery({ queryKey: ['files', base], queryFn: () => all<RevisionFile>(`${base}/files`) });
  const reusable = useQuery({
    queryKey: ['reusable-contents', base],
    queryFn: () => api.get<{ reusableContents: { id: string; title: string; document: string }[] }>(base).then((r) => r.reusableContents),
  });
  // Listing members may be refused to some roles: mentions then offer pages only.
  const members = useQuery({ queryKey: ['members', space.organization], queryFn: () => all<Member>(`/orgs/${space.organization}/members`).catch(() => []) });
  const edit = (p: RevisionPage) => paths.edit(space.organization, space.id, number, p.path);

  const changes = useMutation({
    mutationFn: (body: { changes: unknown[] }) => api.post<ChangeRequest>(`${crPath}/content`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['pages', base] }),
  });

  // The open page moved (its path is its place, so the address names it no more): follow it.
  const open = useRef<{ id: string; path: string } | undefined>(undefined);
  if (page) open.current = { id: page.id, path };
  const moved = pages.data && !page && open.current?.path === path ? flatten(pages.data).find((p) => p.id === open.current!.id) : undefined;
  useEffect(() => {
    if (moved) navigate(edit(moved), { replace: true });
  });
  const updatePage = (change: { page: string; title?: string } & TreeMove) => changes.mutate({ changes: [{ operation: 'update_page', ...change }] });

  const newPage = async () => {
    const before = new Set(flatten(pages.data ?? []).map((p) => p.id));
    await changes.mutateAsync({ changes: [{ operation: 'insert_page', title: 'Untitled', document: { markdown: '' } }] });
    const after = await api.get<{ pages: RevisionPage[] }>(`${base}/pages`);
    const created = flatten(after.pages).find((p) => !before.has(p.id));
    if (created) navigate(edit(created));
  };

  if (cr.error) return <ErrorState title="Change request not available" message={cr.error.message} />;
  if (cr.data && cr.data.status !== 'open' && cr.data.status !== 'draft')
    return (
      <ErrorState
        title={`Change request #${cr.data.number} is ${cr.data.status}`}
        message="Its content can no longer change. Open a new change request to edit."
        action={<Link href={paths.changeRequests(space.organization, space.id)}>Change requests</Link>}
      />
    );

  return (
    <div className="space">
      <aside aria-label="Pages">
        <p className="small">
          <Link href={paths.changeRequest(space.organization, space.id, number)}>
            ← #{number} {cr.data?.subject || 'Untitled change request'}
          </Link>
        </p>
        {pages.isPending && <Progress label="Loading pages" />}
        {pages.data && <EditableTree pages={pages.data} current={page?.id} href={edit} update={updatePage} busy={changes.isPending} />}
        <button type="button" className="btn" onClick={() => void newPage()} disabled={changes.isPending}>
          New page
        </button>
        <MutationStatus of={changes} />
      </aside>
      <div>
        {pages.data && !page && !moved && (
          <EmptyState title={path ? `No page at “${path}”` : 'No pages yet'}>
            <p>Use New page to start writing.</p>
          </EmptyState>
        )}
        {page && page.type === 'document' && (
          <PageEditor
            key={page.id}
            crPath={crPath}
            name={cr.data ? `${space.id}/${cr.data.id}/${page.id}` : undefined}
            readOnly={!space.permissions?.edit}
            organizationId={space.organization}
            base={base}
            page={page}
            // Until they are in, the page's body loads alongside (the editor opens with both).
            choices={
              files.isPending || reusable.isPending || members.isPending
                ? undefined
                : {
                    pages: flatten(pages.data!)
                      .filter((p) => p.type === 'document')
                      .map((p) => ({ id: p.id, title: p.title })),
                    files: (files.data ?? []).map((f) => ({ id: f.id, title: f.name, url: f.downloadURL })),
                    users: (members.data ?? []).map((m) => ({ id: m.user.id, title: m.user.displayName })),
                    reusableContents: reusable.data ?? [],
                    render: async (id) => {
                      const found = reusable.data?.find((r) => r.id === id);
                      if (!found) return '';
                      const doc = await api.get<JSONDocument>(`/spaces/${space.id}/documents/${found.document}`);
                      return renderDocument(doc, space.id, pages.data!, files.data ?? []);
                    },
                  }
            }
            onDeleted={() => {
              void client.invalidateQueries({ queryKey: ['pages', base] });
              navigate(paths.edit(space.organization, space.id, number));
            }}
          />
        )}
      </div>
    </div>
  );
}

interface PageEditorProps {
  crPath: string;
  base: string;
  page: RevisionPage;
  /** The page's name on the collaboration server, once the change request's id is known. */
  name: string | undefined;
  readOnly: boolean;
  organizationId: string;
  choices: EditorProps['choices'];
  onDeleted: () => void;
}

function PageEditor({ crPath, base, page, name, readOnly, organizationId, choices, onDeleted }: PageEditorProps) {
  const client = useQueryClient();
  const { user } = useSession();
  // Edited together where the collaboration server answers: the body is then its document, and
  // the whole-document autosave below keeps the title, emoji and icon only.
  const ready = useQuery({ queryKey: ['collab-ready'], queryFn: collabReady, staleTime: Infinity });
  const together = ready.data === true && name !== undefined;
  const collab = useCollaboration(name ?? '', user?.id, together);
  const body = useQuery({
    queryKey: ['page', base, page.id, 'edit'],
    queryFn: () => api.get<RevisionPage & { document?: JSONDocument }>(`${base}/page/${page.id}`, { format: 'document' }),
    staleTime: Infinity,
    gcTime: 0,
  });
  const [state, setState] = useState<{ s: SaveState; error?: string }>({ s: 'saved' });
  const saver = useMemo(
    () =>
      new Autosaver({
        key: `quire-draft:${crPath}:${page.id}`,
        save: async (d) => {
          await api.post(`${crPath}/content`, {
            changes: [{ operation: 'update_page', page: page.id, title: d.title, emoji: d.emoji, icon: d.icon, ...(together ? {} : { document: d.document }) }],
          });
          void client.invalidateQueries({ queryKey: ['pages', base] });
        },
      }),
    [crPath, base, page.id, client, together],
  );
  const restored = useMemo(() => saver.restore(), [saver]);
  const readOnlyNow = readOnly || collab.readOnly;
  // The page's title, emoji and icon, edited above its body and saved with it.
  const [meta, setMeta] = useState<PageMeta>({ title: restored?.title ?? page.title, emoji: restored?.emoji ?? page.emoji ?? '', icon: restored?.icon ?? page.icon ?? '' });
  const metaRef = useRef(meta);
  metaRef.current = meta;
  const title = meta.title;
  const readDoc = useRef<(() => JSONDocument) | undefined>(undefined);

  useEffect(() => {
    ensureDocumentStyles();
    const off = saver.subscribe((s, error) => setState({ s, error }));
    const warn = (e: BeforeUnloadEvent) => {
      saver.keep();
      if (saver.state !== 'saved') e.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => {
      off();
      window.removeEventListener('beforeunload', warn);
      void saver.flush().finally(() => saver.dispose());
    };
  }, [saver]);

  // A draft a reload left behind is sent again, and shown instead of the server's older copy.
  useEffect(() => {
    if (restored) saver.change(() => restored);
  }, [restored, saver]);

  const deletePage = useMutation({
    mutationFn: () => api.post(`${crPath}/content`, { changes: [{ operation: 'delete_page', page: page.id }] }),
    onSuccess: onDeleted,
  });

  if (body.isPending || !choices || ready.isPending || (together && !collab.provider)) return <Progress label="Loading the page" />;
  if (body.error) return <ErrorState title="Could not load the page" message={body.error.message} />;
  if (collab.refused) return <ErrorState title="Could not open the page for editing" message={collab.refused} />;
  const initial = (restored?.document as JSONDocument | undefined) ?? body.data.document ?? { object: 'document', data: {}, nodes: [] };
  const draft = (m: PageMeta, document: JSONDocument) => ({ ...m, title: m.title || 'Untitled', document });
  const changeMeta = (change: Partial<PageMeta>) => {
    const next = { ...metaRef.current, ...change };
    metaRef.current = next;
    setMeta(next);
    saver.change(() => draft(next, (readDoc.current ?? (() => initial))()));
  };

  return (
    <article aria-label="Editing">
      <div className="row">
        <label className="grow">
          <span className="visually-hidden">Page title</span>
          <input className="title-input" value={title} onChange={(e) => changeMeta({ title: e.target.value })} maxLength={256} readOnly={readOnlyNow} />
        </label>
        <Field
          label="Page emoji"
          hideLabel
          value={meta.emoji}
          onChange={(e) => changeMeta({ emoji: e.target.value })}
          maxLength={50}
          size={4}
          placeholder="Emoji"
          readOnly={readOnlyNow}
        />
        <Field
          label="Page icon"
          hideLabel
          value={meta.icon}
          onChange={(e) => changeMeta({ icon: e.target.value.trim() })}
          maxLength={50}
          size={10}
          placeholder="Icon name"
          readOnly={readOnlyNow}
        />
        <span role="status" aria-live="polite" className={`save-state ${state.s}`} title={state.error}>
          {together && state.s === 'saved' ? SYNC_LABEL[collab.state] : SAVE_LABEL[state.s]}
          {state.error ? `: ${state.error}` : ''}
        </span>
        <button
          type="button"
          className="btn small danger"
          onClick={() => confirm(`Delete the page “${title}” in this change request?`) && deletePage.mutate()}
          disabled={deletePage.isPending || readOnlyNow}
        >
          Delete page
        </button>
      </div>
      {collab.notice && <p role="alert">{collab.notice}</p>}
      <Editor
        label={`Content of ${title || 'the page'}`}
        document={initial}
        onChange={(read) => {
          readDoc.current = read;
          if (!together) saver.change(() => draft(metaRef.current, read()));
        }}
        uploadFile={async (file) => uploadFile(crPath, base, file)}
        choices={choices}
        readOnly={readOnlyNow}
        organizationId={organizationId}
        {...(together && collab.provider ? { collab: { provider: collab.provider, user: { name: user?.displayName ?? 'Member', color: memberColor(user?.id ?? '') } } } : {})}
      />
    </article>
  );
}

/** Adds the file to the change request (insert_files, base64) and answers its download URL and ref. */
async function uploadFile(crPath: string, base: string, file: File): Promise<{ src: string; ref: unknown }> {
  if (file.size > 1_000_000) throw new Error('Files are limited to 1 MB');
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const name = `${Date.now().toString(36)}-${file.name.replace(/[^\w.-]+/g, '-')}`;
  await api.post(`${crPath}/content`, { changes: [{ operation: 'insert_files', files: [{ name, contentType: file.type || 'application/octet-stream', base64: btoa(binary) }] }] });
  const files = await all<RevisionFile>(`${base}/files`);
  const stored = files.find((f) => f.name === name);
  if (!stored) throw new Error('The uploaded file is missing from the change request');
  return { src: stored.downloadURL, ref: { kind: 'file', file: stored.id } };
}
