import { GIT_SYNC } from '@quire/proto/limits';
import { checkLength, InvalidArgumentError } from '@quire/service-kit';

/** A repository URL split into what may be stored and shown, and the credentials for one job. */
export interface RemoteUrl {
  /** The URL without user name and password: stored, logged, shown. */
  url: string;
  credentials?: { username: string; password: string };
}

const FULL_REF = /^refs\/(heads|tags)\/[^\s~^:?*[\\]+$/;

/**
 * Parses a repository URL. `file:` only where QUIRE_ALLOW_FILE_REMOTES allows it (tests, one
 * machine); the network check of the host itself happens when the job runs (it resolves DNS).
 */
export function parseRemote(raw: string, allowFile: boolean, field = 'url'): RemoteUrl {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new InvalidArgumentError(`${field}: must be a repository URL`);
  }
  const allowed = allowFile ? ['https:', 'http:', 'file:'] : ['https:', 'http:'];
  if (!allowed.includes(u.protocol)) throw new InvalidArgumentError(`${field}: ${u.protocol} URLs are not allowed (${allowed.join(', ')})`);
  if (u.protocol === 'file:' && (u.username || u.password)) throw new InvalidArgumentError(`${field}: file URLs take no credentials`);
  const credentials = u.username || u.password ? { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) } : undefined;
  u.username = '';
  u.password = '';
  u.hash = '';
  return { url: u.href, ...(credentials ? { credentials } : {}) };
}

/** `refs/heads/<branch>` or `refs/tags/<tag>`, as git check-ref-format would take it. */
export function checkRef(ref: string, field = 'ref'): string {
  checkLength(field, ref, GIT_SYNC.ref);
  if (!FULL_REF.test(ref) || ref.includes('..') || ref.endsWith('/') || ref.endsWith('.lock') || ref.includes('//') || ref.includes('@{')) {
    throw new InvalidArgumentError(`${field}: must be a full Git ref such as refs/heads/main`);
  }
  return ref;
}

/** `owner/name` from the URL's path (without `.git`), the last path segment when there is one only. */
export function repoNameOf(url: string): string {
  const parts = new URL(url).pathname.split('/').filter(Boolean);
  const tail = parts.slice(-2).join('/');
  return tail.replace(/\.git$/, '') || new URL(url).host;
}

/** The Git host provider: what the request says, else guessed from well-known hosts. */
export function providerOf(url: string, given?: string): string | undefined {
  if (given) return given;
  const host = new URL(url).hostname;
  if (host === 'github.com' || host.endsWith('.github.com')) return 'github';
  if (host === 'gitlab.com' || host.startsWith('gitlab.')) return 'gitlab';
  return undefined;
}

/** A project directory inside the repository: relative, normalized, without `..`; '' for the root. */
export function checkProjectDirectory(dir: string, field = 'repoProjectDirectory'): string {
  const parts = dir.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..' || p === '.git') || dir.includes('\\') || dir.includes('\0')) {
    throw new InvalidArgumentError(`${field}: must be a folder inside the repository`);
  }
  return parts.join('/');
}
