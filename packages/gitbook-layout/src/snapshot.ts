import { createHash } from 'node:crypto';
import type { RepoSnapshot } from './importer.ts';

/** The files whose text the layout reads (pages, SUMMARY.md, .gitbook.yaml); the others are read as bytes, when used. */
export const isLayoutText = (path: string) => /\.(md|ya?ml)$/i.test(path);

/** The id git gives these bytes as a blob: equal ids, equal files. */
export const gitBlobOid = (data: Uint8Array) => createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');

/**
 * Files that are no commit (a ZIP's) as the snapshot a commit of them would be: blobs by their
 * git ids, so that what planImport makes of them is what a Git import of the same files makes.
 */
export function snapshotOfFiles(files: Iterable<{ path: string; data: Uint8Array }>): RepoSnapshot {
  const snapshot: RepoSnapshot = { blobs: new Map(), texts: new Map() };
  for (const { path, data } of files) {
    snapshot.blobs.set(path, gitBlobOid(data));
    if (isLayoutText(path)) snapshot.texts.set(path, Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8'));
  }
  return snapshot;
}
