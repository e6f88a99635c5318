import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../api.ts';
import { Field } from '../components/Field.tsx';
import { MutationStatus } from '../components/MutationStatus.tsx';
import { QueryState } from '../components/states.tsx';
import { branchRef, jobOver, jobSummary, repositoryUrl } from '../lib/gitsync.ts';
import type { Space } from '../types.ts';
import type { GitInfo } from '../types.ts';

const POLL_MS = 1000;

/**
 * Git sync of a space: import from or export to a repository, then the job's state, asked again
 * every second until it is done or failed. The credentials are sent with the one operation and
 * cleared from the form; the API never answers them, so they are never shown back.
 */
export function GitSync({ space }: { space: Space }) {
  const client = useQueryClient();
  const can = space.permissions.triggerGitSync === true || space.permissions.admin === true;
  const info = useQuery({
    queryKey: ['git', space.id],
    // No link yet is a 404: an empty state, not an error.
    queryFn: () => api.get<GitInfo>(`/spaces/${space.id}/git/info`).catch((e: unknown) => (e instanceof ApiError && e.status === 404 ? null : Promise.reject(e))),
    refetchInterval: (q) => (q.state.data?.job && !jobOver(q.state.data.job) ? POLL_MS : false),
  });
  const [direction, setDirection] = useState<'import' | 'export'>('import');
  const [url, setUrl] = useState('');
  const [branch, setBranch] = useState('main');
  const [username, setUsername] = useState('');
  const [token, setToken] = useState('');
  const [message, setMessage] = useState('Update from Quire');
  const start = useMutation({
    mutationFn: async () => {
      const body = {
        url: repositoryUrl(url || info.data?.url || '', username, token),
        ref: branchRef(branch),
        ...(direction === 'export' ? { commitMessage: message.trim() || 'Update from Quire' } : {}),
      };
      await api.post(`/spaces/${space.id}/git/${direction}`, body);
    },
    onSettled: () => {
      setToken('');
      return client.invalidateQueries({ queryKey: ['git', space.id] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    start.mutate();
  };
  const job = info.data?.job;

  return (
    <section aria-label="Git sync">
      <QueryState query={info} loading="Loading the Git link" failed="Could not load the Git link" />
      {info.data === null && <p className="muted">This space is not linked to a repository yet.</p>}
      {info.data && (
        <dl className="facts">
          <dt>Repository</dt>
          <dd>
            {info.data.repoName} <span className="muted small">{info.data.url}</span>
          </dd>
          <dt>Last synced</dt>
          <dd>{new Date(info.data.updatedAt).toLocaleString()}</dd>
        </dl>
      )}
      {job && (
        <div className={`notice job ${job.state}`} role="status" aria-live="polite">
          {!jobOver(job) && <span className="spinner" aria-hidden="true" />} <strong>{jobSummary(job)}</strong>
          {job.state === 'running' && job.filesTotal ? <progress aria-label="Files processed" max={job.filesTotal} value={job.filesDone} /> : null}
        </div>
      )}
      {can ? (
        <form className="stack" onSubmit={submit} autoComplete="off">
          <fieldset className="inline">
            <legend>Direction</legend>
            <label>
              <input type="radio" name="direction" checked={direction === 'import'} onChange={() => setDirection('import')} /> Import from the repository
            </label>
            <label>
              <input type="radio" name="direction" checked={direction === 'export'} onChange={() => setDirection('export')} /> Export to the repository
            </label>
          </fieldset>
          <Field label="Repository URL" type="url" bind={[url, setUrl]} placeholder={info.data?.url || 'https://github.com/acme/docs.git'} maxLength={2048} required={!info.data} />
          <Field label="Branch" bind={[branch, setBranch]} maxLength={200} required />
          <Field label="User name (optional)" bind={[username, setUsername]} maxLength={200} autoComplete="off" />
          <Field label="Access token or password (optional, never stored)" type="password" bind={[token, setToken]} maxLength={1000} autoComplete="new-password" />
          {direction === 'export' && <Field label="Commit message" bind={[message, setMessage]} maxLength={4096} required />}
          <button type="submit" className="btn primary" disabled={start.isPending || (job !== undefined && !jobOver(job))}>
            {direction === 'import' ? 'Start import' : 'Start export'}
          </button>
          <MutationStatus of={start} label="Starting" />
        </form>
      ) : (
        <p className="notice">Only those who may sync this space start an import or an export.</p>
      )}
    </section>
  );
}
