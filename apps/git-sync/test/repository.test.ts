import { access, chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitError } from '../src/worker/git.ts';
import { CommitWriter, FETCHED, fetchRef, GitObjects, parseCommit, treeEntries, type CommitFile } from '../src/worker/repository.ts';
import { gitIn as git } from './git-server.ts';

// One repository read by git's own commands and by GitObjects: both must say the same.
describe('GitObjects: one cat-file process reads a commit, its trees and its blobs', () => {
  let dir: string;
  const big = Buffer.alloc(3 * 1024 * 1024 + 17, 7);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quire-objects-'));
    await git(dir, 'init', '--quiet');
    const files: Record<string, string | Buffer> = {
      'README.md': '# Hello\n',
      'docs/guide/deep/page.md': '# Deep\n',
      'docs/screen shot.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]),
      'docs/中文/页面.md': '# 页面\n',
      'assets/big.bin': big,
    };
    for (const [path, data] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), data);
    }
    await chmod(join(dir, 'README.md'), 0o755);
    await symlink('README.md', join(dir, 'link.md'));
    await git(dir, 'add', '--all');
    // A submodule's entry (a commit in the tree), as a repository with submodules has.
    await git(dir, 'update-index', '--add', '--cacheinfo', `160000,${'a'.repeat(40)},vendor/lib`);
    await git(dir, 'commit', '--quiet', '-m', 'Subject line\n\nBody line one.\nBody line two.');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('lists the regular files of every folder as ls-tree does, without links and submodules', async () => {
    const expected = new Map<string, string>();
    for (const entry of (await git(dir, '-c', 'core.quotePath=false', 'ls-tree', '-r', '-z', '--full-tree', 'HEAD')).split('\0')) {
      const m = /^(\d+) blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
      if (m && m[1] !== '120000') expected.set(m[3]!, m[2]!);
    }
    const objects = new GitObjects(dir, Date.now() + 10_000);
    try {
      const commit = await objects.commit('HEAD');
      expect(commit.oid).toBe((await git(dir, 'rev-parse', 'HEAD')).trim());
      expect(commit.tree).toBe((await git(dir, 'rev-parse', 'HEAD^{tree}')).trim());
      expect(commit.message.trim()).toBe((await git(dir, 'log', '-1', '--format=%B', 'HEAD')).trim());
      const files = await objects.files(commit.tree);
      expect(files).toEqual(expected);
      expect([...files.keys()].sort()).toEqual(['README.md', 'assets/big.bin', 'docs/guide/deep/page.md', 'docs/screen shot.png', 'docs/中文/页面.md']);
    } finally {
      objects.close();
    }
  });

  it('fetches a ref into a repository it lays out itself, which git and GitObjects read; a missing ref is false', async () => {
    const into = await mkdtemp(join(tmpdir(), 'quire-fetch-'));
    try {
      const target = { url: `file://${dir}`, resolve: [] };
      expect(await fetchRef(into, target, 'refs/heads/none', Date.now() + 10_000)).toBe(false);
      const branch = (await git(dir, 'symbolic-ref', 'HEAD')).trim();
      expect(await fetchRef(into, target, branch, Date.now() + 10_000)).toBe(true);
      expect((await git(into, 'rev-parse', FETCHED)).trim()).toBe((await git(dir, 'rev-parse', 'HEAD')).trim());
      expect((await git(into, 'rev-parse', '--is-bare-repository')).trim()).toBe('true');
      // A throwaway repository: no FETCH_HEAD written.
      await expect(access(join(into, 'FETCH_HEAD'))).rejects.toThrow();
      const objects = new GitObjects(into, Date.now() + 10_000);
      try {
        const commit = await objects.commit(FETCHED);
        expect((await objects.files(commit.tree)).get('docs/中文/页面.md')).toBe((await git(dir, 'rev-parse', 'HEAD:docs/中文/页面.md')).trim());
      } finally {
        objects.close();
      }
    } finally {
      await rm(into, { recursive: true, force: true });
    }
  });

  it('reads many blobs at once, each request answered in order, and names a file that is missing', async () => {
    const objects = new GitObjects(dir, Date.now() + 10_000);
    try {
      const files = await objects.files((await objects.commit('HEAD')).tree);
      const [blobs, again] = await Promise.all([objects.blobs(files), objects.blobs([['docs/中文/页面.md', files.get('docs/中文/页面.md')!]])]);
      expect(blobs.get(files.get('assets/big.bin')!)!.equals(big)).toBe(true);
      expect(blobs.get(files.get('README.md')!)!.toString()).toBe('# Hello\n');
      expect(again.get(files.get('docs/中文/页面.md')!)!.toString()).toBe('# 页面\n');
      await expect(objects.blobs([['gone.md', 'b'.repeat(40)]])).rejects.toThrow('gone.md could not be read from the repository');
      // The process still answers after a missing object.
      expect((await objects.blobs([['README.md', files.get('README.md')!]])).size).toBe(1);
    } finally {
      objects.close();
    }
  });

  it('never holds an object over its bound: the file is named, its bytes skipped, and later answers still read', async () => {
    const objects = new GitObjects(dir, Date.now() + 10_000, 1024 * 1024);
    try {
      const files = await objects.files((await objects.commit('HEAD')).tree);
      const readme = files.get('README.md')!;
      // The large one between two small ones, in one request and in requests of their own.
      const [over, after] = await Promise.allSettled([objects.blobs([['assets/big.bin', files.get('assets/big.bin')!]]), objects.blobs([['README.md', readme]])]);
      expect(over.status === 'rejected' && String(over.reason)).toMatch('assets/big.bin is 3.0 MiB, over the 1 MiB a file may have');
      expect(after.status === 'fulfilled' && after.value.get(readme)!.toString()).toBe('# Hello\n');
      const read = await objects.read([files.get('assets/big.bin')!, readme]);
      expect(read.get(files.get('assets/big.bin')!)).toEqual({ oid: files.get('assets/big.bin'), type: 'blob', size: big.length });
      expect(read.get(readme)!.data!.toString()).toBe('# Hello\n');
    } finally {
      objects.close();
    }
  });

  it('fails its requests when git is gone, and when asked after', async () => {
    const objects = new GitObjects(join(dir, 'no-such-folder'), Date.now() + 10_000);
    await expect(objects.commit('HEAD')).rejects.toBeInstanceOf(GitError);
    await expect(objects.blobs([['a.md', 'c'.repeat(40)]])).rejects.toBeInstanceOf(GitError);
    objects.close();
  });

  it('fails at its deadline instead of waiting on git', async () => {
    const objects = new GitObjects(dir, Date.now() + 1);
    await new Promise((r) => setTimeout(r, 20));
    await expect(objects.commit('HEAD')).rejects.toThrow(/did not finish in time/);
    objects.close();
  });
});

describe('parsing git objects', () => {
  it('reads a commit whose headers continue over lines (a signature) and keeps its message whole', () => {
    const data = Buffer.from(`tree ${'1'.repeat(40)}\nparent ${'2'.repeat(40)}\ngpgsig -----BEGIN-----\n \n line\n -----END-----\n\nTitle\n\nBody\n`);
    expect(parseCommit(data)).toEqual({ tree: '1'.repeat(40), message: 'Title\n\nBody\n' });
    expect(() => parseCommit(Buffer.from('author x\n\nNo tree'))).toThrow(GitError);
  });

  it('reads tree entries and refuses a truncated tree', () => {
    const oid = Buffer.alloc(20, 0xab);
    const data = Buffer.concat([Buffer.from('100644 a b.md\0'), oid, Buffer.from('40000 dir\0'), oid]);
    expect(treeEntries(data, 20)).toEqual([
      { mode: '100644', name: 'a b.md', oid: 'ab'.repeat(20) },
      { mode: '40000', name: 'dir', oid: 'ab'.repeat(20) },
    ]);
    expect(() => treeEntries(data.subarray(0, data.length - 3), 20)).toThrow(GitError);
  });
});

describe('CommitWriter: one fast-import process, file bytes streamed in before the commit', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quire-commit-'));
    await git(dir, 'init', '--quiet', '--bare');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const show = (rev: string) => git(dir, 'show', rev);

  it('commits blobs taken earlier beside texts, deletes, and makes no commit when the tree is the same', async () => {
    const first = new CommitWriter(dir, Date.now() + 10_000);
    const picture = Buffer.alloc(2 * 1024 * 1024 + 5, 9);
    const files = new Map<string, CommitFile>([
      ['docs/page one.md', '# One\n'],
      ['docs/"quoted".md', '# Quoted\n'],
      ['assets/picture.bin', await first.blob(picture)],
      ['assets/small.txt', await first.blob(Buffer.from('small'))],
    ]);
    const base = await first.commit({ remove: [], files, message: 'First' });
    expect(base).toMatch(/^[0-9a-f]{40}$/);
    expect(await show(`${base}:docs/page one.md`)).toBe('# One\n');
    expect(await show(`${base}:docs/"quoted".md`)).toBe('# Quoted\n');
    expect(await show(`${base}:assets/small.txt`)).toBe('small');
    expect((await git(dir, 'cat-file', '-s', `${base}:assets/picture.bin`)).trim()).toBe(String(picture.length));

    const second = new CommitWriter(dir, Date.now() + 10_000);
    const next = await second.commit({ parent: base, remove: ['assets/small.txt'], files: new Map([['docs/page one.md', '# One, again\n']]), message: 'Second' });
    expect((await git(dir, 'ls-tree', '-r', '-z', '--name-only', next!)).split('\0').filter(Boolean).sort()).toEqual([
      'assets/picture.bin',
      'docs/"quoted".md',
      'docs/page one.md',
    ]);
    expect((await git(dir, 'log', '-1', '--format=%P%n%B', next!)).trim()).toBe(`${base}\nSecond`);

    const same = new CommitWriter(dir, Date.now() + 10_000);
    expect(await same.commit({ parent: next, remove: [], files: new Map([['docs/page one.md', '# One, again\n']]), message: 'Nothing' })).toBeUndefined();
  });

  it('leaves no process behind when closed before its commit, and a commit after fails', async () => {
    const writer = new CommitWriter(dir, Date.now() + 10_000);
    await writer.blob(Buffer.from('never committed'));
    writer.close();
    await expect(writer.commit({ remove: [], files: new Map(), message: 'Late' })).rejects.toThrow(GitError);
  });

  it("fails with git's words when the commit names what does not exist", async () => {
    const writer = new CommitWriter(dir, Date.now() + 10_000);
    await expect(writer.commit({ parent: 'f'.repeat(40), remove: [], files: new Map([['a.md', 'a']]), message: 'Orphan' })).rejects.toThrow(GitError);
  });
});
