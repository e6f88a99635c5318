import { isInside, isLayoutText, joinPath, readConfig, type DocsConfig, type RepoSnapshot } from '@quire/gitbook-layout';
import type { GitObjects } from './repository.ts';

/**
 * The commit's files (path -> oid, `blobs`) and the text of the markdown and YAML ones in the
 * project directory; those in `unread` (pages a push left as they were, which content keeps) are
 * listed with an empty text, never read.
 */
export async function snapshotOf(objects: GitObjects, blobs: Map<string, string>, projectDirectory: string, unread?: Set<string>): Promise<RepoSnapshot> {
  const wanted = [...blobs].filter(([p]) => isInside(p, projectDirectory) && isLayoutText(p));
  const bytes = await objects.blobs(unread ? wanted.filter(([p]) => !unread.has(p)) : wanted);
  const snapshot = { blobs, texts: new Map(wanted.map(([p, oid]) => [p, unread?.has(p) ? '' : bytes.get(oid)!.toString('utf8')])) };
  await readReadme(objects, snapshot, projectDirectory);
  return snapshot;
}

/** `.gitbook.yaml` of the project directory read alone: where the docs are, before their files are read. */
export async function configOf(objects: GitObjects, blobs: Map<string, string>, projectDirectory: string): Promise<DocsConfig> {
  const path = joinPath(projectDirectory, '.gitbook.yaml');
  const oid = blobs.get(path);
  const texts = new Map(oid ? [[path, (await objects.blobs([[path, oid]])).get(oid)!.toString('utf8')]] : []);
  return readConfig({ blobs, texts }, projectDirectory);
}

/** The readme `.gitbook.yaml` may name outside the project directory (`readme: ../README.md`), read into the snapshot. */
async function readReadme(objects: GitObjects, snapshot: RepoSnapshot, projectDirectory: string): Promise<void> {
  const { readme } = readConfig(snapshot, projectDirectory);
  const oid = snapshot.blobs.get(readme);
  if (oid && !snapshot.texts.has(readme)) snapshot.texts.set(readme, (await objects.blobs([[readme, oid]])).get(oid)!.toString('utf8'));
}
