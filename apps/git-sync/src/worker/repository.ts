import { spawn } from 'node:child_process';
import { remoteCommit } from '../domain/reimport.ts';
import { git, GitError, type GitTarget } from './git.ts';

const FETCHED = 'refs/quire/fetched';

export interface Fetched {
  oid: string;
  message: string;
}

/**
 * Fetches `ref`'s commit (depth 1) into a new repository at `dir`; undefined when the remote
 * has no such ref (an export may create it).
 */
export async function fetchRef(dir: string, target: GitTarget, ref: string, deadline: number): Promise<Fetched | undefined> {
  await git(dir, ['init', '--quiet'], { deadline });
  try {
    await git(dir, ['fetch', '--quiet', '--depth=1', '--no-tags', '--no-recurse-submodules', '--', target.url, `+${ref}:${FETCHED}`], { target, deadline });
  } catch (err) {
    if (err instanceof GitError && /couldn't find remote ref/i.test(err.message)) return undefined;
    throw err;
  }
  const [oid, message] = (await git(dir, ['log', '-1', '--format=%H%n%B', FETCHED], { deadline })).split(/\n([\s\S]*)/);
  return { oid: oid!.trim(), message: (message ?? '').trim() };
}

/** The commit `ref` names on the remote (one `git ls-remote`, nothing fetched); undefined when it has no such ref. */
export async function remoteRef(dir: string, target: GitTarget, ref: string, deadline: number): Promise<string | undefined> {
  return remoteCommit(await git(dir, ['ls-remote', '--', target.url, ref, `${ref}^{}`], { target, deadline }), ref);
}

/** Every regular file of the fetched commit: path -> blob oid (links and submodules left out). */
export async function listBlobs(dir: string, deadline: number): Promise<Map<string, string>> {
  const out = await git(dir, ['ls-tree', '-r', '-z', '--full-tree', FETCHED], { deadline });
  const blobs = new Map<string, string>();
  for (const entry of out.split('\0')) {
    const m = /^(\d+) blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (m && m[1] !== '120000') blobs.set(m[3]!, m[2]!);
  }
  return blobs;
}

/** The bytes of blobs, read in one `git cat-file --batch` process. */
export function readBlobs(dir: string, oids: string[], deadline: number): Promise<Map<string, Buffer>> {
  const wanted = [...new Set(oids)];
  const result = new Map<string, Buffer>();
  if (wanted.length === 0) return Promise.resolve(result);
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], { cwd: dir, env: { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
    const timer = setTimeout(() => child.kill('SIGKILL'), Math.max(1, deadline - Date.now()));
    let buf: Buffer = Buffer.alloc(0);
    let i = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      for (;;) {
        const nl = buf.indexOf(10);
        if (nl < 0) return;
        const header = buf.subarray(0, nl).toString('utf8').split(' ');
        if (header[1] === 'missing') {
          buf = buf.subarray(nl + 1);
          i++;
          continue;
        }
        const size = Number(header[2]);
        if (buf.length < nl + 1 + size + 1) return;
        result.set(header[0]!, Buffer.from(buf.subarray(nl + 1, nl + 1 + size)));
        buf = buf.subarray(nl + 1 + size + 1);
        i++;
      }
    });
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      if (i < wanted.length) reject(new GitError("reading the repository's files did not finish in time"));
      else resolve(result);
    });
    child.stdin.end(wanted.map((o) => `${o}\n`).join(''));
  });
}

const EXPORTED = 'refs/quire/exported';

/** A path as fast-import takes it: C-style quoted, so spaces, quotes and newlines are safe. */
const quote = (path: string) => `"${path.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, '\\n')}"`;

/**
 * The export's commit on top of the fetched one (or a first commit), made by `git fast-import`
 * straight from memory: no checkout, no loose object per file: `files` written, `remove` deleted,
 * everything else as it was. Undefined when the tree comes out the same: no empty commit.
 */
export async function commitDocs(
  dir: string,
  change: { parent?: string; remove: string[]; files: Map<string, string | Buffer>; message: string },
  deadline: number,
): Promise<string | undefined> {
  const now = Math.floor(Date.now() / 1000);
  const message = Buffer.from(change.message, 'utf8');
  const parts: Buffer[] = [
    Buffer.from(`commit ${EXPORTED}\ncommitter Quire <git-sync@quire.invalid> ${now} +0000\ndata ${message.length}\n`),
    message,
    Buffer.from(`\n${change.parent ? `from ${change.parent}\n` : ''}`),
    ...change.remove.map((p) => Buffer.from(`D ${quote(p)}\n`)),
  ];
  for (const [path, data] of change.files) {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    parts.push(Buffer.from(`M 100644 inline ${quote(path)}\ndata ${bytes.length}\n`), bytes, Buffer.from('\n'));
  }
  parts.push(Buffer.from('done\n'));
  await git(dir, ['fast-import', '--quiet', '--done', '--force'], { deadline, input: Buffer.concat(parts) });
  const tree = (ref: string) => git(dir, ['rev-parse', `${ref}^{tree}`], { deadline }).then((t) => t.trim());
  if (change.parent && (await tree(EXPORTED)) === (await tree(change.parent))) return undefined;
  return (await git(dir, ['rev-parse', EXPORTED], { deadline })).trim();
}

export async function push(dir: string, target: GitTarget, ref: string, force: boolean, deadline: number): Promise<void> {
  await git(dir, ['push', '--quiet', '--no-verify', '--', target.url, `${force ? '+' : ''}${EXPORTED}:${ref}`], { target, deadline });
}
