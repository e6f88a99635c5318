import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitObjects } from '../src/worker/repository.ts';
import { snapshotOf } from '../src/worker/snapshot.ts';
import { gitIn as git } from './git-server.ts';

// What a push's import leaves unread is never asked of git: the repository here lacks the kept
// page's blob (its object file deleted), so any read of it fails.
describe('snapshotOf: the pages a push left as they were are not read', () => {
  let dir: string;
  const blobs = new Map<string, string>();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quire-snapshot-'));
    await git(dir, 'init', '--quiet');
    const files = {
      'README.md': '# Handbook\n\nKept words.\n',
      'guide.md': '# Guide\n\nPushed steps.\n',
      'SUMMARY.md': '# Summary\n\n* [Handbook](README.md)\n* [Guide](guide.md)\n',
    };
    for (const [path, text] of Object.entries(files)) await writeFile(join(dir, path), text);
    await git(dir, 'add', '--all');
    await git(dir, 'commit', '--quiet', '-m', 'Docs');
    for (const line of (await git(dir, 'ls-tree', '-r', 'HEAD')).trim().split('\n')) {
      const [, oid, path] = /^\d+ blob ([0-9a-f]+)\t(.+)$/.exec(line)!;
      blobs.set(path!, oid!);
    }
    const kept = blobs.get('README.md')!;
    await unlink(join(dir, '.git', 'objects', kept.slice(0, 2), kept.slice(2)));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads the changed and layout files, and lists the unread page with no text', async () => {
    const objects = new GitObjects(dir, Date.now() + 10_000);
    try {
      const snapshot = await snapshotOf(objects, blobs, '', new Set(['README.md']));
      expect(Object.fromEntries(snapshot.texts)).toEqual({
        'README.md': '',
        'guide.md': '# Guide\n\nPushed steps.\n',
        'SUMMARY.md': '# Summary\n\n* [Handbook](README.md)\n* [Guide](guide.md)\n',
      });
      // The control: read whole, the missing blob fails the snapshot, named.
      await expect(snapshotOf(objects, blobs, '')).rejects.toThrow('README.md could not be read from the repository');
    } finally {
      objects.close();
    }
  });
});
