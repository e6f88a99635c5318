import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';
import { Field } from '../components/Field.tsx';
import { MutationStatus } from '../components/MutationStatus.tsx';
import { QueryState } from '../components/states.tsx';
import { branchRef, repositoryUrl } from '../lib/gitsync.ts';
import type { GitLogEntry, GitWebhook, Space } from '../types.ts';

const LOG_POLL_MS = 5000;

const TRIGGERS: Record<GitLogEntry['trigger'], string> = { api: 'Started here', webhook: 'Push', poll: 'Polling', merge: 'Merged change request' };

/** The space's sync log, newest first: each import and export, and each push delivery that started none. */
export function GitSyncLog({ space }: { space: Space }) {
  const log = useQuery({
    queryKey: ['git-log', space.id],
    queryFn: () => api.get<{ items: GitLogEntry[] }>(`/spaces/${space.id}/git/log`),
    refetchInterval: LOG_POLL_MS,
  });
  return (
    <section aria-label="Sync log">
      <h3>Sync log</h3>
      <QueryState query={log} loading="Loading the sync log" failed="Could not load the sync log" />
      {log.data && log.data.items.length === 0 && <p className="muted">Nothing synced yet.</p>}
      {log.data && log.data.items.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th>When</th>
              <th>What</th>
              <th>Commit</th>
              <th>Result</th>
              <th>Pages</th>
            </tr>
          </thead>
          <tbody>
            {log.data.items.map((e) => (
              <tr key={e.id}>
                <td>{new Date(e.createdAt).toLocaleString()}</td>
                <td>
                  {e.direction === 'import' ? 'Import' : 'Export'} · {TRIGGERS[e.trigger]}
                </td>
                <td>
                  <code>{e.commit?.slice(0, 7) ?? '-'}</code>
                </td>
                <td>
                  {e.result}
                  {e.reason && <div className="muted small">{e.reason}</div>}
                </td>
                <td>{e.pagesChanged}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/**
 * Continuous sync's setup (admins): the repository and branch whose pushes update the space and
 * whose branch merges are committed to; the answer's payload URL and secret are shown this once.
 */
export function GitWebhookSetup({ space, url: linked }: { space: Space; url?: string }) {
  const [url, setUrl] = useState('');
  const [branch, setBranch] = useState('main');
  const [username, setUsername] = useState('');
  const [token, setToken] = useState('');
  const setUp = useMutation({
    mutationFn: () => api.post<GitWebhook>(`/spaces/${space.id}/git/webhook`, { url: repositoryUrl(url || linked || '', username, token), ref: branchRef(branch) }),
    onSettled: () => setToken(''),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setUp.mutate();
  };
  return (
    <section aria-label="Continuous sync">
      <h3>Continuous sync</h3>
      <p className="muted">Pushes to the branch update the space; each merged change request becomes a commit on it.</p>
      <form className="stack" onSubmit={submit} autoComplete="off">
        <Field
          label="Synced repository URL"
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder={linked || 'https://github.com/acme/docs.git'}
          maxLength={2048}
          required={!linked}
        />
        <Field label="Synced branch" value={branch} onChange={(e) => setBranch(e.target.value)} maxLength={200} required />
        <Field label="Synced user name (optional)" value={username} onChange={(e) => setUsername(e.target.value)} maxLength={200} autoComplete="off" />
        <Field
          label="Access token with write access (kept sealed)"
          type="password"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          maxLength={1000}
          autoComplete="new-password"
        />
        <button type="submit" className="btn" disabled={setUp.isPending}>
          Set up the webhook
        </button>
        <MutationStatus of={setUp} label="Setting up" />
      </form>
      {setUp.data && (
        <div className="notice" role="status">
          <p>Enter these in the Git host's webhook settings (content type application/json, push events). The secret is shown this once.</p>
          <dl className="facts">
            <dt>Payload URL</dt>
            <dd>
              <code>{setUp.data.url}</code>
            </dd>
            <dt>Secret</dt>
            <dd>
              <code>{setUp.data.secret}</code>
            </dd>
          </dl>
        </div>
      )}
    </section>
  );
}
