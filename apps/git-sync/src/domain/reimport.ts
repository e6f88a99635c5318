/** What decides an import's result besides the commit: the repository and the job's options. */
export interface ImportSource {
  url: string;
  ref: string;
  repoTreeUrl: string | null;
  repoCommitUrl: string | null;
  repoProjectDirectory: string | null;
}

/** A finished import of the space: the source it read, the commit and the revision it made. */
export interface PastImport extends ImportSource {
  commitOid: string | null;
  revisionId: string | null;
}

/**
 * The commit `ref` names in `git ls-remote <url> <ref> <ref>^{}` output: an annotated tag's
 * peeled line when listed, else the ref's own line; undefined when the remote has no such ref.
 */
export function remoteCommit(lsRemote: string, ref: string): string | undefined {
  const oids = new Map<string, string>();
  for (const line of lsRemote.split('\n')) {
    const [oid, name] = line.split('\t');
    if (oid && name) oids.set(name, oid);
  }
  return oids.get(`${ref}^{}`) ?? oids.get(ref);
}

const SOURCE_FIELDS = ['url', 'ref', 'repoTreeUrl', 'repoCommitUrl', 'repoProjectDirectory'] as const;

/**
 * Whether a past import may answer for this one, before the space and the remote are asked: it
 * read the same source and recorded the revision it made and its commit. It answers when that
 * revision is still the space's active one (no edit, other import or merge since) and the remote's
 * ref still names that commit. Forced imports always run: force is also how to write the revision
 * again whatever the skip would say.
 */
export function mayBeUnchanged(job: ImportSource & { force: boolean }, past: PastImport | undefined | null): past is PastImport & { commitOid: string; revisionId: string } {
  if (job.force || !past?.commitOid || !past.revisionId) return false;
  return SOURCE_FIELDS.every((f) => (job[f] ?? '') === (past[f] ?? ''));
}
