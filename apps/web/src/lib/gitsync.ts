import type { GitJob } from '../types.ts';

/**
 * The repository URL an import or export is sent with: the credentials go into its basic-auth part
 * for this one operation (the API uses them and never stores or answers them). Only http(s)
 * addresses take credentials; the message names the field at fault.
 */
export function repositoryUrl(url: string, username: string, token: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new Error('Repository URL: not a URL (like https://github.com/acme/docs.git)');
  }
  if (parsed.username || parsed.password) throw new Error('Repository URL: put the credentials in their own fields, not in the URL');
  if (!token) return parsed.href;
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('Repository URL: credentials need an http(s) address');
  // Git hosts take any user name with a token; "git" is the usual one.
  parsed.username = encodeURIComponent(username.trim() || 'git');
  parsed.password = encodeURIComponent(token);
  return parsed.href;
}

/** A branch name as the ref the API takes; a full ref stays as it is. */
export function branchRef(branch: string): string {
  const b = branch.trim();
  if (!b) throw new Error('Branch: required');
  return b.startsWith('refs/') ? b : `refs/heads/${b}`;
}

export const jobOver = (job: GitJob | undefined) => job?.state === 'done' || job?.state === 'failed';

/** What the job is doing, in words (progress once the total is known). */
export function jobSummary(job: GitJob): string {
  const what = job.direction === 'import' ? 'Import' : 'Export';
  const files = job.filesTotal ? ` (${job.filesDone} of ${job.filesTotal} files)` : '';
  switch (job.state) {
    case 'queued':
      return `${what} queued`;
    case 'running':
      return `${what} running${files}`;
    case 'done':
      return `${what} done${files}${job.commit ? `, commit ${job.commit.slice(0, 10)}` : ''}`;
    case 'failed':
      return `${what} failed: ${job.error ?? 'no reason given'}`;
  }
}
