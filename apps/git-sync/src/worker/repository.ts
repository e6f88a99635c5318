import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_BLOB_BYTES } from '@quire/service-kit';
import { identity, type Person } from '../domain/author.ts';
import { parseNameStatus } from '../domain/incremental.ts';
import { remoteCommit } from '../domain/reimport.ts';
import { git, GitError, startGit, type GitTarget } from './git.ts';

/** Where a job's fetch puts the commit it reads. */
export const FETCHED = 'refs/quire/fetched';

/** The commit a fetch brought: its id, tree and message. */
export interface Fetched {
  oid: string;
  tree: string;
  message: string;
}

/**
 * An empty bare repository at `dir`, laid out as git's repository layout says one is (HEAD,
 * objects/, refs/ and the core settings): `git init` is a process of its own, about 4 ms of every
 * job, and starting it blocks the service's thread while it forks.
 */
async function initBare(dir: string): Promise<void> {
  await Promise.all([mkdir(join(dir, 'objects'), { recursive: true }), mkdir(join(dir, 'refs'), { recursive: true })]);
  await Promise.all([writeFile(join(dir, 'HEAD'), 'ref: refs/heads/main\n'), writeFile(join(dir, 'config'), '[core]\n\trepositoryformatversion = 0\n\tbare = true\n')]);
}

/**
 * Fetches `ref`'s commit (and `depth` - 1 of its ancestors) into a new repository at `dir`; false
 * when the remote has no such ref (an export may create it). Its objects are then read with
 * `GitObjects`. `ref` may also be a commit's id (a push's), which the Git hosts serve when a branch
 * or tag reaches it.
 */
export async function fetchRef(dir: string, target: GitTarget, ref: string, deadline: number, depth = 1): Promise<boolean> {
  await initBare(dir);
  return fetchInto(dir, target, ref, FETCHED, depth, deadline);
}

/** `source` (a ref or a commit id) and `depth` commits of its history as `dest`; false when the remote has no such ref or commit. */
async function fetchInto(dir: string, target: GitTarget, source: string, dest: string, depth: number, deadline: number): Promise<boolean> {
  try {
    // The repository lives for one job: no FETCH_HEAD to write, and no maintenance process to start after.
    const oneJob = ['--no-write-fetch-head', '--no-auto-maintenance'];
    await git(dir, ['fetch', '--quiet', ...oneJob, `--depth=${depth}`, '--no-tags', '--no-recurse-submodules', '--', target.url, `+${source}:${dest}`], { target, deadline });
  } catch (err) {
    if (err instanceof GitError && /couldn't find remote ref|not our ref|unadvertised object/i.test(err.message)) return false;
    throw err;
  }
  return true;
}

/**
 * Whether `oid` (fetched) is `newer` or one of its ancestors within `depth` commits of its history:
 * asked of the history fetched already (a push's fetch takes a few commits), then of `newer`'s
 * fetched that deep. False when the remote no longer has it (a force push).
 */
export async function isAncestorOf(dir: string, target: GitTarget, oid: string, newer: string, depth: number, deadline: number): Promise<boolean> {
  if (await ancestorHere(dir, oid, newer, deadline)) return true;
  if (!(await fetchInto(dir, target, newer, 'refs/quire/newer', depth, deadline))) return false;
  return ancestorHere(dir, oid, newer, deadline);
}

async function ancestorHere(dir: string, oid: string, newer: string, deadline: number): Promise<boolean> {
  try {
    await git(dir, ['merge-base', '--is-ancestor', oid, newer], { deadline });
    return true;
  } catch (err) {
    // Exit status 1: not an ancestor (nor one git could reach within the fetched history); 128: not fetched.
    if (err instanceof GitError) return false;
    throw err;
  }
}

/** The commit `ref` names on the remote (one `git ls-remote`, nothing fetched); undefined when it has no such ref. */
export async function remoteRef(dir: string, target: GitTarget, ref: string, deadline: number): Promise<string | undefined> {
  return remoteCommit(await git(dir, ['ls-remote', '--', target.url, ref, `${ref}^{}`], { target, deadline }), ref);
}

/** The paths that differ between two fetched commits, by status (see parseNameStatus); undefined when git cannot tell (one of them is missing). */
export async function changedPaths(dir: string, from: string, to: string, deadline: number): Promise<Map<string, string> | undefined> {
  try {
    return parseNameStatus(await git(dir, ['diff-tree', '-r', '-z', '--no-renames', '--name-status', from, to], { deadline }));
  } catch (err) {
    if (err instanceof GitError) return undefined;
    throw err;
  }
}

interface GitObject {
  oid: string;
  type: string;
  size: number;
  /** Absent when the object is larger than the reader takes. */
  data?: Buffer;
}

const MIB = 1024 * 1024;

/**
 * The objects of the repository at `dir`, read through one `git cat-file --batch` process that
 * a job keeps open: the fetched commit, its trees and the blobs it wants, each a request on the
 * same pipe (a process costs more to start than git takes to answer, and starting one blocks
 * the service's thread while it forks). An object over `maxBytes` is never held: its bytes are
 * skipped as they come. Closed by `close()`, or killed at the deadline.
 */
export class GitObjects {
  readonly #git: ReturnType<typeof startGit>;
  readonly #maxBytes: number;
  // Requests in the order git answers them.
  readonly #waiting: { resolve(o: GitObject | undefined): void; reject(e: Error): void }[] = [];
  #chunks: Buffer[] = [];
  #buffered = 0;
  // Bytes the object being read takes, its header included: nothing is parsed before they are in.
  #needed = 0;
  // Bytes of an object over the bound still to come, dropped as they arrive.
  #skipping = 0;
  #failed: Error | undefined;

  constructor(dir: string, deadline: number, maxBytes = MAX_BLOB_BYTES) {
    this.#maxBytes = maxBytes;
    this.#git = startGit(dir, ['cat-file', '--batch'], { deadline, output: (chunk) => this.#take(chunk) });
    this.#git.done.then(
      () => this.#fail(new GitError('git cat-file stopped before answering')),
      (err: GitError) => this.#fail(err),
    );
  }

  /** The objects `names` (ids or refs) name, by the name asked; a missing one is left out. */
  async read(names: Iterable<string>): Promise<Map<string, GitObject>> {
    const wanted = [...new Set(names)];
    if (this.#failed) throw this.#failed;
    if (wanted.length === 0) return new Map();
    const answers = wanted.map(() => new Promise<GitObject | undefined>((resolve, reject) => this.#waiting.push({ resolve, reject })));
    this.#git.stdin.write(wanted.map((name) => `${name}\n`).join(''));
    const found = new Map<string, GitObject>();
    (await Promise.all(answers)).forEach((o, i) => o && found.set(wanted[i]!, o));
    return found;
  }

  /** The bytes of files, by blob id; a file that is missing or over the bound fails the read, named. */
  async blobs(files: Iterable<readonly [path: string, oid: string]>): Promise<Map<string, Buffer>> {
    const list = [...files];
    const objects = await this.read(list.map(([, oid]) => oid));
    const out = new Map<string, Buffer>();
    for (const [path, oid] of list) {
      const o = objects.get(oid);
      if (!o) throw new GitError(`${path} could not be read from the repository`);
      if (!o.data) throw new GitError(`${path} is ${(o.size / MIB).toFixed(1)} MiB, over the ${(this.#maxBytes / MIB).toFixed(0)} MiB a file may have`);
      out.set(oid, o.data);
    }
    return out;
  }

  /** The commit `ref` names: its id, tree and message (what `git log -1 --format=%B` prints, unstripped). */
  async commit(ref: string): Promise<Fetched> {
    const commit = (await this.read([ref])).get(ref);
    if (commit?.type !== 'commit' || !commit.data) throw new GitError(`${ref} is not a commit`);
    return { oid: commit.oid, ...parseCommit(commit.data) };
  }

  /**
   * Every regular file under `tree`: path -> blob id (symbolic links and submodules left out),
   * read a level of folders at a time.
   */
  async files(tree: string): Promise<Map<string, string>> {
    const files = new Map<string, string>();
    let level = new Map([[tree, '']]);
    while (level.size > 0) {
      const trees = await this.read(level.keys());
      const next = new Map<string, string>();
      for (const [oid, prefix] of level) {
        const object = trees.get(oid);
        if (object?.type !== 'tree' || !object.data) throw new GitError(`tree ${oid} of the fetched commit cannot be read`);
        for (const entry of treeEntries(object.data, oid.length / 2)) {
          const path = prefix + entry.name;
          if (entry.mode === '40000') next.set(entry.oid, `${path}/`);
          else if (entry.mode.startsWith('100')) files.set(path, entry.oid);
        }
      }
      level = next;
    }
    return files;
  }

  close(): void {
    this.#git.stdin.end();
    this.#git.stop();
  }

  #fail(err: Error): void {
    this.#failed ??= err;
    for (const w of this.#waiting.splice(0)) w.reject(this.#failed);
    this.#git.stop();
  }

  // Answers are `<oid> <type> <size>\n<bytes>\n`, or `<name> missing\n`: each completes the oldest
  // request. Chunks are joined only once the object being read is whole.
  #take(chunk: Buffer): void {
    if (this.#skipping > 0) {
      const n = Math.min(this.#skipping, chunk.length);
      this.#skipping -= n;
      chunk = chunk.subarray(n);
      if (chunk.length === 0) return;
    }
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    if (this.#buffered < this.#needed) return;
    let buf = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks, this.#buffered);
    let at = 0;
    this.#needed = 0;
    while (this.#waiting.length > 0) {
      const nl = buf.indexOf(10, at);
      if (nl < 0) break;
      const [oid, type, sizeText] = buf.toString('latin1', at, nl).split(' ') as [string, string, string?];
      if (sizeText === undefined) {
        // missing, ambiguous: nothing follows the line.
        this.#waiting.shift()!.resolve(undefined);
        at = nl + 1;
        continue;
      }
      const size = Number(sizeText);
      const end = nl + 1 + size;
      if (size > this.#maxBytes) {
        this.#waiting.shift()!.resolve({ oid, type, size });
        // Its bytes and the newline after them: those not in yet are dropped as they come.
        this.#skipping = Math.max(0, end + 1 - buf.length);
        at = Math.min(end + 1, buf.length);
        if (this.#skipping > 0) break;
        continue;
      }
      if (buf.length < end + 1) {
        this.#needed = end + 1 - at;
        break;
      }
      // A small object is copied out of the chunk it arrived in, which is then dropped; a large
      // one is most of the buffer its chunks were joined into, and keeps it.
      const data = buf.subarray(nl + 1, end);
      this.#waiting.shift()!.resolve({ oid, type, size, data: size < buf.length / 2 ? Buffer.from(data) : data });
      at = end + 1;
    }
    buf = buf.subarray(at);
    this.#chunks = buf.length > 0 ? [buf] : [];
    this.#buffered = buf.length;
  }
}

/** A commit object's tree and message (the bytes after the headers' blank line). */
export function parseCommit(data: Buffer): { tree: string; message: string } {
  const text = data.toString('utf8');
  const headersEnd = text.indexOf('\n\n');
  const headers = headersEnd < 0 ? text : text.slice(0, headersEnd);
  const tree = /^tree ([0-9a-f]+)$/m.exec(headers)?.[1];
  if (!tree) throw new GitError('the fetched commit names no tree');
  return { tree, message: headersEnd < 0 ? '' : text.slice(headersEnd + 2) };
}

/** A tree object's entries: `<mode> <name>\0<id as oidBytes bytes>` one after the other. */
export function treeEntries(data: Buffer, oidBytes: number): { mode: string; name: string; oid: string }[] {
  const entries = [];
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(32, at);
    const nul = data.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + oidBytes > data.length) throw new GitError('a tree of the fetched commit cannot be read');
    entries.push({ mode: data.toString('latin1', at, space), name: data.toString('utf8', space + 1, nul), oid: data.toString('hex', nul + 1, nul + 1 + oidBytes) });
    at = nul + 1 + oidBytes;
  }
  return entries;
}

const EXPORTED = 'refs/quire/exported';

/** A path as fast-import takes it: C-style quoted, so spaces, quotes and newlines are safe. */
const quote = (path: string) => `"${path.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, '\\n')}"`;

/** A file of a commit: its text or bytes, or a blob the writer took earlier (`CommitWriter.blob`). */
export type CommitFile = string | Buffer | { mark: string };

/**
 * The export's commit on top of the fetched one (or a first commit), made by one `git
 * fast-import` straight from the job: no checkout, no loose object per file. Files' bytes go in
 * as they are read (`blob`), each written to git's input and dropped (so a space's files are
 * never all in memory), before the commit (`commit`) names them with the texts: `files` written,
 * `remove` deleted, everything else as it was.
 */
export class CommitWriter {
  readonly #git: ReturnType<typeof startGit>;
  readonly #dir: string;
  readonly #deadline: number;
  #marks = 0;

  constructor(dir: string, deadline: number) {
    this.#dir = dir;
    this.#deadline = deadline;
    this.#git = startGit(dir, ['fast-import', '--quiet', '--done', '--force'], { deadline });
    // Awaited by commit(); a job that stops before leaves it to its kill.
    this.#git.done.catch(() => undefined);
  }

  /** Stops git if it still runs: a job that ends before its commit leaves no process behind. */
  close(): void {
    this.#git.stop();
  }

  /** Takes a file's bytes into the repository; what names them in the commit. */
  async blob(data: Uint8Array): Promise<{ mark: string }> {
    const mark = `:${++this.#marks}`;
    await this.#write(Buffer.from(`blob\nmark ${mark}\ndata ${data.byteLength}\n`), data, Buffer.from('\n'));
    return { mark };
  }

  /** Writes the commit and waits for git; its id, or undefined when the tree comes out the same (no empty commit). */
  async commit(change: { parent?: string; remove: string[]; files: Map<string, CommitFile>; message: string; author?: Person }): Promise<string | undefined> {
    const now = Math.floor(Date.now() / 1000);
    const message = Buffer.from(change.message, 'utf8');
    const author = change.author ? `author ${identity(change.author)} ${now} +0000\n` : '';
    const parts: (Buffer | Uint8Array)[] = [
      Buffer.from(`commit ${EXPORTED}\n${author}committer Quire <git-sync@quire.invalid> ${now} +0000\ndata ${message.length}\n`),
      message,
      Buffer.from(`\n${change.parent ? `from ${change.parent}\n` : ''}`),
      ...change.remove.map((p) => Buffer.from(`D ${quote(p)}\n`)),
    ];
    for (const [path, file] of change.files) {
      if (typeof file === 'object' && 'mark' in file) {
        parts.push(Buffer.from(`M 100644 ${file.mark} ${quote(path)}\n`));
        continue;
      }
      const bytes = typeof file === 'string' ? Buffer.from(file, 'utf8') : file;
      parts.push(Buffer.from(`M 100644 inline ${quote(path)}\ndata ${bytes.length}\n`), bytes, Buffer.from('\n'));
    }
    await this.#write(...parts, Buffer.from('done\n'));
    this.#git.stdin.end();
    await this.#git.done;
    const [commit, tree, parentTree] = (
      await git(this.#dir, ['rev-parse', EXPORTED, `${EXPORTED}^{tree}`, ...(change.parent ? [`${change.parent}^{tree}`] : [])], { deadline: this.#deadline })
    )
      .trim()
      .split('\n');
    return tree === parentTree ? undefined : commit;
  }

  // Waits for git to take what it was given before more is read: the bytes in flight stay few.
  async #write(...parts: (Buffer | Uint8Array)[]): Promise<void> {
    let ready = true;
    for (const part of parts) ready = this.#git.stdin.write(part);
    // A write that fails (git gone) waits for git's exit, whose failure says why.
    if (!ready) await Promise.race([once(this.#git.stdin, 'drain').catch(() => this.#git.done), this.#git.done]);
  }
}

export async function push(dir: string, target: GitTarget, ref: string, force: boolean, deadline: number): Promise<void> {
  await git(dir, ['push', '--quiet', '--no-verify', '--', target.url, `${force ? '+' : ''}${EXPORTED}:${ref}`], { target, deadline });
}
