import type { Caller } from '@quire/service-kit';
import type { JobRow } from '../store/index.ts';
import { JobFailure } from './failure.ts';
import type { RunnerDeps } from './jobs.ts';
import { changedPaths, FETCHED } from './repository.ts';

// Continuous sync's part of a job: what a push changed since the last sync, the refusals when
// both sides changed, and the word that an import's revision is the space's.

/** What a push changed since the last sync (its revision, and the paths by status); undefined for another import, or when git cannot tell. */
export interface PushDiff {
  revisionId: string;
  changed: Map<string, string>;
}

/**
 * The files a push's commit changed since the commit last synced (fetched beside it by the
 * ancestry check): an import of a few changed files rebuilds only their pages (keptPages).
 */
export async function pushDiff(deps: RunnerDeps, job: JobRow, dir: string, deadline: number): Promise<PushDiff | undefined> {
  if (!job.pushOid || job.force) return undefined;
  const last = await deps.store.lastSync(job.spaceId);
  if (!last?.commitOid || !last.revisionId) return undefined;
  const changed = await changedPaths(dir, last.commitOid, FETCHED, deadline);
  return changed && { revisionId: last.revisionId, changed };
}

// Both sides changed (docs/api.md): continuous sync never overwrites one side with the other.
// A merge's export whose branch moved since the last sync, and a push's import while the space has
// changes not yet exported, are refused with the reason in the sync log; a member settles it (an
// import or export with force, which replaces the other side).

/** A merge's export onto a branch that moved since the last sync: refused, the branch's commits kept. */
export async function refuseMovedBranch(deps: RunnerDeps, job: JobRow, head: string | undefined): Promise<void> {
  const last = await deps.store.lastSync(job.spaceId);
  if (!last || job.force || head === last.commitOid) return;
  throw new JobFailure(
    `both sides changed: ${job.ref} is at ${head ?? 'no commit'}, no longer at ${last.commitOid}, the commit last synced; the merge was not exported, so as not to overwrite those commits`,
  );
}

/** A push's import while the space has changes Git does not (a merge not exported yet): refused, the space kept. */
export async function refuseUnexported(deps: RunnerDeps, job: JobRow, current: string): Promise<void> {
  const last = await deps.store.lastSync(job.spaceId);
  if (!last || job.force || current === last.revisionId) return;
  throw new JobFailure(
    `both sides changed: the space's content changed since commit ${last.commitOid} was synced (revision ${current}, not ${last.revisionId}); the push was not imported, so as not to overwrite those changes`,
  );
}

/**
 * Says that an import's revision is the space's now (`git.import_completed`, with the space's
 * organization): the reader reads it ahead, so a site's first visitor after a push waits for no
 * spec. A failure to say so is logged: the import is done.
 */
export async function importCompleted(deps: RunnerDeps, job: JobRow, caller: Caller, details: { revisionId: string; commitOid: string; pagesChanged: number }): Promise<void> {
  const space = await deps.spaces.getSpace({ spaceId: job.spaceId }, caller).catch(() => undefined);
  await deps.events.emit(caller, { entity: 'git', verb: 'import_completed', organizationId: space?.organizationId, target: { type: 'space', id: job.spaceId }, details });
}
