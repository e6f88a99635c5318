import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { status, type ServiceError } from '@grpc/grpc-js';
import type { ContentServiceClient } from '@quire/proto/content';
import type { Revision, SpaceContentServiceClient } from '@quire/proto/space-content';
import { DomainError, isServiceError, MAX_BLOBS_PER_CALL, type Caller, type Logger, type PromiseClient } from '@quire/service-kit';
import type { EventSink } from '@quire/service-kit/nats';
import type { JobOutcome } from '@quire/service-kit/job-queue';
import type { SealingKeys } from '@quire/service-kit/sealed';
import pLimit from 'p-limit';
import {
  gitBlobOid,
  isInside,
  isWritablePath,
  joinPath,
  knownIds,
  planExport,
  planImport,
  plannedContent,
  RepositoryError,
  type ImportPlan,
  type RepoSnapshot,
} from '@quire/gitbook-layout';
import { GIT_SYNC } from '@quire/proto/limits';
import { pagesChanged, pagesWritten } from '../domain/changes.ts';
import { contentOf, filesOfUnread, keptPages, unreadPlanHolds, unreadSources } from '../domain/incremental.ts';
import { mayBeUnchanged } from '../domain/reimport.ts';
import { openCredentials } from '../domain/sealed.ts';
import type { JobRow, Store } from '../store/index.ts';
import { importCompleted, pushDiff, refuseMovedBranch, refuseUnexported, type PushDiff } from './continuous.ts';
import { JobFailure } from './failure.ts';
import { phaseTimer, progressOf, type Mark, type Progress } from './progress.ts';
import { GitError, pinnedTarget, type GitTarget } from './git.ts';
import { configOf, snapshotOf } from './snapshot.ts';
import { CommitWriter, FETCHED, fetchRef, GitObjects, isAncestorOf, push, remoteRef, type CommitFile, type Fetched } from './repository.ts';

/** A job message: the job's id (also the message id) and its credentials, sealed, if any. */
export interface JobMessage {
  jobId: string;
  credentials?: string;
}

export interface RunnerDeps {
  store: Store;
  /** `git.import_completed` once an import's revision is the space's (the reader reads it ahead). */
  events: EventSink;
  content: PromiseClient<SpaceContentServiceClient>;
  /** A space's active revision, which a reimport compares with the one its last import made. */
  spaces: Pick<PromiseClient<ContentServiceClient>, 'getSpace'>;
  /** Opens the credentials a job message carries: the current key, or a previous one for jobs queued before a rotation. */
  secretsKey: SealingKeys;
  newId: () => string;
  workDir?: string;
  jobTimeoutMs: number;
  allowPrivateNetwork: boolean;
  /** `file:` repository URLs (QUIRE_ALLOW_FILE_REMOTES). */
  allowFileRemotes: boolean;
  log: Logger;
  /** Runs after the repository is read, before anything is written (fault tests stop a worker here). */
  beforeApply?: (jobId: string) => Promise<void>;
}

const TRANSIENT = new Set([status.UNAVAILABLE, status.DEADLINE_EXCEEDED, status.INTERNAL, status.UNKNOWN, status.RESOURCE_EXHAUSTED, status.CANCELLED]);
// Files go to content in PutBlobs calls of up to PUT_BLOBS_BYTES (a larger file alone), read from
// git BLOBS_READ_AT_ONCE at a time, PUT_BLOBS_IN_FLIGHT calls at once: the job holds at most about
// that much of them, whatever the repository's size. A repository's small images take one call
// where they took one each (each call costs both services about a millisecond of CPU).
const BLOBS_READ_AT_ONCE = 8;
const PUT_BLOBS_BYTES = 4 * 1024 * 1024;
const PUT_BLOBS_IN_FLIGHT = 2;
const CREATE_ATTEMPTS = 3;
// The pushed commit's parents looked at first for the last synced commit (see olderPush).
const NEWER_PUSH_DEPTH = 4;

function reasonOf(err: unknown): string | undefined {
  if (err instanceof JobFailure || err instanceof GitError || err instanceof RepositoryError) return err.message;
  if (err instanceof DomainError) return err.message;
  if (isServiceError(err) && !TRANSIENT.has((err as ServiceError).code)) return `content service: ${(err as ServiceError).details}`;
  return undefined;
}

/** Runs one delivery of a job; every outcome is recorded on the job before the message is acked. */
export async function runJob(deps: RunnerDeps, msg: JobMessage, lastDelivery: boolean): Promise<JobOutcome> {
  const claimedAt = Date.now();
  const job = await deps.store.claim(msg.jobId);
  // Over already (done, failed) or unknown: this delivery is a duplicate.
  if (!job) return 'ack';
  const log = deps.log.child({ jobId: job.id, spaceId: job.spaceId, direction: job.direction, attempt: job.attempt });
  const caller: Caller = { userId: job.userId, requestId: `git-sync-${job.id}` };
  const deadline = Date.now() + deps.jobTimeoutMs;
  let dir: string | undefined;
  try {
    if (job.state === 'applying' && (await alreadyApplied(deps, job, caller))) return 'ack';
    const target = await targetOf(deps, job, msg);
    dir = await mkdtemp(join(deps.workDir ?? tmpdir(), 'quire-git-'));
    const phases = phaseTimer();
    const progress = progressOf(deps.store, job, log);
    const outcome =
      job.direction === 'import'
        ? await importJob(deps, job, target, dir, caller, deadline, phases.mark, progress)
        : await exportJob(deps, job, target, dir, caller, deadline, phases.mark, progress);
    // queuedMs: from the job's creation to this delivery taking it (the queue's pickup latency).
    log.info({ outcome, queuedMs: claimedAt - job.createdAt.getTime(), ...phases.done() }, 'git job finished');
    return outcome;
  } catch (err) {
    const reason = reasonOf(err);
    // A network failure or the host's 5xx may pass: retried with JetStream's backoff, then failed with git's words.
    const transient = reason === undefined || (err instanceof GitError && err.transient);
    if (transient && !lastDelivery) {
      log.warn({ err }, 'git job failed, will retry');
      return 'retry';
    }
    log.info({ reason: reason ?? 'internal error' }, 'git job failed');
    await deps.store.fail(job, reason ?? 'Internal error, the job was given up after several attempts');
    return 'ack';
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

/**
 * An import redelivered after it started applying: its revision was made if the space's active
 * revision sits on the recorded parent and carries the commit. Then only the completion is recorded.
 */
async function alreadyApplied(deps: RunnerDeps, job: JobRow, caller: Caller): Promise<boolean> {
  if (job.direction !== 'import' || job.standalone || !job.parentRevisionId) return false;
  const active = await deps.content.getRevision({ spaceId: job.spaceId, revisionId: '', metadata: true, withMarkdown: false, withDocuments: false }, caller);
  if (!active.parents.includes(job.parentRevisionId) || active.git?.oid !== job.commitOid) return false;
  await deps.store.complete(job, { revisionId: active.id, commitOid: job.commitOid ?? undefined });
  return true;
}

/** The remote as git may reach it: the URL checked again now (DNS may have changed) and pinned. */
async function targetOf(deps: RunnerDeps, job: JobRow, msg: JobMessage): Promise<GitTarget> {
  let credentials;
  if (msg.credentials) {
    try {
      credentials = openCredentials(msg.credentials, job.id, deps.secretsKey);
    } catch (err) {
      // A key that differs between replicas, or a previous key removed while jobs it sealed were queued.
      throw new JobFailure(`the repository credentials cannot be read by this worker: ${(err as Error).message}`);
    }
  }
  // Checked again when run: a job queued before the setting changed does not read local paths.
  return pinnedTarget(job.url, credentials, deps);
}

const countPages = (pages: { git?: unknown; pages: { git?: unknown; pages: unknown[] }[] }[]): number =>
  pages.reduce((n, p) => n + (p.git ? 1 : 0) + countPages(p.pages as typeof pages), 0);

const joinUrl = (prefix: string, tail: string) => `${prefix.replace(/(?<!\/)\/+$/, '')}/${tail}`;

async function importJob(deps: RunnerDeps, job: JobRow, target: GitTarget, dir: string, caller: Caller, deadline: number, mark: Mark, progress: Progress): Promise<JobOutcome> {
  // A push's job imports the commit it names, unless that is older than the space's (olderPush).
  const unchanged = job.pushOid ? undefined : await answerUnchanged(deps, job, target, dir, caller, deadline, mark);
  if (unchanged) return unchanged;
  const readCurrent = () => deps.content.getRevision({ spaceId: job.spaceId, revisionId: '', metadata: true, withMarkdown: false, withDocuments: false }, caller);
  // Read while git fetches: the revision the import builds on may be older than the commit read
  // (CreateRevision refuses a parent that is no longer active, and the import runs again).
  const firstCurrent = readCurrent();
  // Awaited below unless the fetch or the read fails first: that failure is the job's.
  firstCurrent.catch(() => undefined);
  // A push's commit with its few parents: the last synced one is usually among them (olderPush, pushDiff).
  if (!(await fetchRef(dir, target, job.pushOid ?? job.ref, deadline, job.pushOid ? NEWER_PUSH_DEPTH : 1)))
    throw new JobFailure(job.pushOid ? `commit ${job.pushOid} not found in the repository` : `ref ${job.ref} not found in the repository`);
  mark('fetch');
  const older = job.pushOid ? await olderPush(deps, job, job.pushOid, target, dir, deadline) : undefined;
  if (older) return older;
  const since = await pushDiff(deps, job, dir, deadline);
  const objects = new GitObjects(dir, deadline);
  try {
    return await importFetched(deps, job, objects, { firstCurrent, readCurrent, since }, caller, mark, progress);
  } finally {
    objects.close();
  }
}

async function importFetched(
  deps: RunnerDeps,
  job: JobRow,
  objects: GitObjects,
  base: { firstCurrent: Promise<Revision>; readCurrent: () => Promise<Revision>; since?: PushDiff },
  caller: Caller,
  mark: Mark,
  progress: Progress,
): Promise<JobOutcome> {
  const fetched = await objects.commit(FETCHED);
  const projectDirectory = job.repoProjectDirectory ?? '';
  const blobs = await objects.files(fetched.tree);
  const inProject = [...blobs].filter(([p]) => isInside(p, projectDirectory));
  if (inProject.length === 0) throw new JobFailure(projectDirectory ? `repoProjectDirectory: "${projectDirectory}" is not a folder of the repository` : 'the repository is empty');
  const config = await configOf(objects, blobs, projectDirectory);
  const assets = joinPath(config.root, '.gitbook/assets');
  const isAsset = (p: string) => isInside(p, assets);
  const docsFiles = { isAsset, layout: new Set([config.summary, joinPath(projectDirectory, '.gitbook.yaml')]) };
  // What a push changed in the docs. While the space is at the revision last synced, the pages
  // whose files it left as they were are neither read nor planned: content keeps them.
  const docs = (p: string) => isInside(p, projectDirectory) || p === config.readme;
  const inDocs = base.since && new Map([...base.since.changed].filter(([p]) => docs(p)));
  const synced = (current: Revision) => inDocs && current.id === base.since!.revisionId;
  const first = await base.firstCurrent;
  let unread = synced(first) ? unreadSources(first.pages, first.reusableContents, blobs, inDocs!, docsFiles) : undefined;
  let snapshot = await snapshotOf(objects, blobs, projectDirectory, unread);
  mark('read');

  // Files go to content as blobs (kept by their bytes: storing one twice is harmless), once per
  // job. Every file of the docs' assets folder is in the revision, linked or not: those go while
  // the pages are planned, the others the pages link to once the plan names them.
  const stored = new Map<string, Promise<string>>();
  // Progress counts the blobs stored once the plan says how many files there are.
  let blobsStored = 0;
  let counting = false;
  const store = (files: (readonly [path: string, oid: string])[]) => {
    // Those not stored yet, each blob once.
    const fresh = [...new Map(files.filter(([, oid]) => !stored.has(oid)).map((f) => [f[1], f])).values()];
    if (fresh.length === 0) return;
    const hashes = putBlobs(deps.content, objects, fresh, caller, (n) => {
      blobsStored += n;
      if (counting) progress.add(n);
    });
    // Awaited once the plan is made; a plan that fails leaves it unawaited.
    hashes.catch(() => undefined);
    for (const [, oid] of fresh)
      stored.set(
        oid,
        hashes.then((h) => h.get(oid)!),
      );
  };
  // The space's files are in content already: an incremental import stores only new bytes.
  const had = new Set(unread ? first.files.flatMap((f) => (f.git ? [f.git.oid] : [])) : []);
  if (unread) for (const f of first.files) if (f.git) stored.set(f.git.oid, Promise.resolve(f.blob));
  store(inProject.filter(([p]) => isAsset(p) && p !== assets));

  let hashes: Map<string, string> | undefined;
  for (let i = 0; ; i++) {
    const current = i === 0 ? first : await base.readCurrent();
    mark('current');
    const planOf = () =>
      planImport(snapshot, {
        projectDirectory,
        repoTreeUrl: job.repoTreeUrl ?? undefined,
        known: knownIds(current.pages, current.files, config.root, current.reusableContents),
        newId: deps.newId,
      });
    // The pages whose files the push left as they were, kept by content as the space has them.
    const keptOf = (p: ImportPlan) => (synced(current) ? keptPages(p.pages, current.pages, inDocs!, docsFiles) : undefined);
    let plan = planOf();
    let kept = keptOf(plan);
    if (unread && !(kept && unreadPlanHolds(plan, unread, kept, current))) {
      // The space moved on, or a page's slug or includes did: the plan needs every page's text.
      unread = undefined;
      snapshot = await snapshotOf(objects, blobs, projectDirectory);
      plan = planOf();
      kept = keptOf(plan);
    }
    mark('plan');
    // Never read (above the docs root, absolute, missing): the include stays in the page as written.
    for (const ignored of plan.ignoredIncludes) deps.log.info({ jobId: job.id, spaceId: job.spaceId, ...ignored }, 'include left as written');
    const oids = [...new Set(plan.files.map((f) => f.git.oid))];
    const firstPass = !hashes;
    if (firstPass) {
      const pages = countPages(plan.pages);
      progress.total(pages + oids.length);
      progress.add(pages + blobsStored + oids.filter((oid) => had.has(oid)).length);
      counting = true;
    }
    // Again on a later pass: a plan made again may name files the first did not.
    store(plan.files.map((f) => [f.git.path, f.git.oid] as const));
    hashes = new Map(await Promise.all(oids.map(async (oid) => [oid, await stored.get(oid)!] as const)));
    if (firstPass) {
      mark('files');
      await deps.beforeApply?.(job.id);
    }
    if (job.pushOid) await refuseUnexported(deps, job, current.id);
    if (kept)
      deps.log.info({ jobId: job.id, spaceId: job.spaceId, pagesKept: kept.size, pagesUnread: unread?.size ?? 0, filesChanged: inDocs!.size }, 'push imported incrementally');
    await progress.flush();
    if ((await beginApply(deps, job, { parentRevisionId: current.id, commitOid: fetched.oid })) === 'abandon') return 'abandon';
    let revision: Revision;
    try {
      revision = await deps.content.createRevision(
        {
          spaceId: job.spaceId,
          parentRevisionId: current.id,
          pages: plan.pages.map((p) => contentOf(plannedContent(p), kept)),
          files: [
            ...plan.files.map((f) => ({ id: f.id, name: f.name, contentType: f.contentType, blob: hashes!.get(f.git.oid)!, git: f.git })),
            // Those the unread pages may link to, as the space has them.
            ...(unread ? filesOfUnread(current.files, new Set(plan.files.map((f) => f.id)), blobs, isAsset) : []).map(({ id, name, contentType, blob, git }) => ({
              id,
              name,
              contentType,
              blob,
              git,
            })),
          ],
          git: { oid: fetched.oid, message: fetched.message.trim(), createdByService: false, url: job.repoCommitUrl ? joinUrl(job.repoCommitUrl, fetched.oid) : '', ref: job.ref },
          setActive: !job.standalone,
          type: '',
          // The repository's redirects replace the space's (none left when `.gitbook.yaml` has none).
          redirects: { items: plan.redirects.map((r) => ({ path: r.from, pageId: r.page, anchor: r.anchor })) },
          // So do its reusable contents (`{% include %}` files); unset, the space's stay (the unread pages include them).
          reusableContents: unread ? undefined : { items: plan.reusableContents.map((r) => ({ ...r, documentId: '' })) },
        },
        caller,
      );
    } catch (err) {
      // The space moved on while the import was read (an edit): import again onto the new revision.
      if (isServiceError(err) && err.code === status.ABORTED && i + 1 < CREATE_ATTEMPTS) continue;
      throw err;
    }
    mark('revision');
    const changed = pagesChanged(current.pages, plan.pages);
    if (!(await deps.store.complete(job, { revisionId: revision.id, commitOid: fetched.oid, pagesChanged: changed }))) return 'abandon';
    if (!job.standalone) await importCompleted(deps, job, caller, { revisionId: revision.id, commitOid: fetched.oid, pagesChanged: changed });
    return 'ack';
  }
}

/**
 * Stores `files` as blobs (see PUT_BLOBS_BYTES): answers each one's blob by its git object id;
 * `stored` hears how many each call stored. The first call that fails fails it.
 */
async function putBlobs(
  content: RunnerDeps['content'],
  objects: GitObjects,
  files: (readonly [path: string, oid: string])[],
  caller: Caller,
  stored: (n: number) => void,
): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  const calls = new Set<Promise<void>>();
  let batch: { oid: string; data: Buffer }[] = [];
  let bytes = 0;
  const send = async () => {
    while (calls.size >= PUT_BLOBS_IN_FLIGHT) await Promise.race(calls);
    const sent = batch;
    batch = [];
    bytes = 0;
    const call = content.putBlobs({ data: sent.map((b) => b.data) }, caller).then(({ blobs }) => {
      sent.forEach((b, i) => hashes.set(b.oid, blobs[i]!.blob));
      stored(sent.length);
    });
    calls.add(call);
    // A failed call stays in the set: the next wait for a free call, or for all, throws its error.
    call.then(
      () => calls.delete(call),
      () => undefined,
    );
  };
  for (let i = 0; i < files.length; i += BLOBS_READ_AT_ONCE) {
    const group = files.slice(i, i + BLOBS_READ_AT_ONCE);
    const read = await objects.blobs(group);
    for (const [, oid] of group) {
      const data = read.get(oid)!;
      if (batch.length > 0 && (bytes + data.byteLength > PUT_BLOBS_BYTES || batch.length === MAX_BLOBS_PER_CALL)) await send();
      batch.push({ oid, data });
      bytes += data.byteLength;
    }
  }
  if (batch.length > 0) await send();
  await Promise.all(calls);
  return hashes;
}

/**
 * Starts applying (see Store.beginApply): 'abandon' when another delivery holds the job; a newer
 * operation on the space fails it unless forced.
 */
async function beginApply(deps: RunnerDeps, job: JobRow, marks: { parentRevisionId?: string; commitOid?: string }): Promise<'ok' | 'abandon'> {
  const gate = await deps.store.beginApply(job, marks);
  if (gate.gate === 'superseded') throw new JobFailure(`a newer operation (${gate.newer!.toISOString()}) already ran on the space; send force to override`);
  return gate.gate === 'stale' ? 'abandon' : 'ok';
}

/**
 * A reimport with nothing new: the space's active revision is the one the previous import of the
 * same source made, and the remote's ref still names that import's commit. The space and the
 * remote (one `git ls-remote`) are asked at once; answered done with that revision, nothing
 * fetched or written; undefined when the import has to run.
 */
async function answerUnchanged(deps: RunnerDeps, job: JobRow, target: GitTarget, dir: string, caller: Caller, deadline: number, mark: Mark): Promise<JobOutcome | undefined> {
  if (job.standalone) return undefined;
  const past = await deps.store.lastImport(job.spaceId);
  if (!mayBeUnchanged(job, past)) return undefined;
  const [space, oid] = await Promise.all([deps.spaces.getSpace({ spaceId: job.spaceId }, caller), remoteRef(dir, target, job.ref, deadline)]);
  mark('unchanged');
  if (space.revisionId !== past.revisionId || oid !== past.commitOid) return undefined;
  if ((await beginApply(deps, job, { parentRevisionId: past.revisionId, commitOid: oid })) === 'abandon') return 'abandon';
  return (await deps.store.complete(job, { revisionId: past.revisionId, commitOid: oid })) ? 'ack' : 'abandon';
}

/**
 * A push's commit that is the space's last synced one, or one of its ancestors (a delivery that
 * arrived late): the job is done, skipped, and the space stays where it is.
 */
async function olderPush(deps: RunnerDeps, job: JobRow, pushed: string, target: GitTarget, dir: string, deadline: number): Promise<JobOutcome | undefined> {
  // The last synced commit, an export's included: the push a merge's export made imports nothing.
  const last = (await deps.store.lastSync(job.spaceId))?.commitOid;
  if (!last) return undefined;
  let skipped: string | undefined;
  if (last === pushed) skipped = `commit ${pushed} is the one last synced`;
  else if (await deps.store.exported(job.spaceId, pushed)) skipped = `commit ${pushed} is the space's own export`;
  // A push usually adds a few commits on top of the last synced one: found among the pushed
  // commit's few parents, it is newer, without fetching the last one's whole history.
  else if (await isAncestorOf(dir, target, last, pushed, NEWER_PUSH_DEPTH, deadline)) return undefined;
  else if (await isAncestorOf(dir, target, pushed, last, GIT_SYNC.ancestryDepth.max, deadline)) skipped = `commit ${pushed} is older than ${last}, the one last synced`;
  if (!skipped) return undefined;
  if ((await beginApply(deps, job, { commitOid: pushed })) === 'abandon') return 'abandon';
  return (await deps.store.complete(job, { commitOid: pushed, pagesChanged: 0, skipped })) ? 'ack' : 'abandon';
}

async function exportJob(deps: RunnerDeps, job: JobRow, target: GitTarget, dir: string, caller: Caller, deadline: number, mark: Mark, progress: Progress): Promise<JobOutcome> {
  let fetched: Fetched | undefined;
  let existing: RepoSnapshot | undefined;
  const projectDirectory = job.repoProjectDirectory ?? '';
  const found = await fetchRef(dir, target, job.ref, deadline);
  mark('fetch');
  if (found) {
    const objects = new GitObjects(dir, deadline);
    try {
      fetched = await objects.commit(FETCHED);
      existing = await snapshotOf(objects, await objects.files(fetched.tree), projectDirectory);
    } finally {
      objects.close();
    }
  }
  mark('read');
  if (job.changeRequestId) await refuseMovedBranch(deps, job, fetched?.oid);
  const revision = await deps.content.getRevision({ spaceId: job.spaceId, revisionId: '', metadata: true, withMarkdown: true, withDocuments: false }, caller);
  const plan = planExport(revision.pages, revision.files, {
    projectDirectory,
    existing,
    repoTreeUrl: job.repoTreeUrl ?? undefined,
    redirects: revision.redirects,
    reusableContents: revision.reusableContents,
  });
  const out = new Map<string, CommitFile>(plan.texts);
  const pages = plan.pageCount;
  progress.total(pages + revision.files.length);
  progress.add(pages);
  // The files' bytes go into git as they are read, at most BLOBS_READ_AT_ONCE held at once.
  const writer = new CommitWriter(dir, deadline);
  try {
    await pLimit(BLOBS_READ_AT_ONCE).map(revision.files, async (f) => {
      const { data } = await deps.content.readBlob({ blob: f.blob }, caller);
      const path = plan.files.get(f.id)!;
      // A file the repository has with these bytes stays as it is.
      if (existing?.blobs.get(path) !== gitBlobOid(data)) out.set(path, await writer.blob(data));
      progress.add();
    });
    const outside = [...out.keys(), ...plan.remove].find((p) => !isWritablePath(p, projectDirectory) && !(p === plan.readme && isWritablePath(p, '')));
    if (outside !== undefined) throw new JobFailure(`the export would write ${JSON.stringify(outside)}, outside the space's folder`);
    mark('render');
    await deps.beforeApply?.(job.id);
    await progress.flush();
    if ((await beginApply(deps, job, { commitOid: fetched?.oid })) === 'abandon') return 'abandon';
    const message = job.commitMessage ?? 'Export from Quire';
    const author = job.authorEmail ? { name: job.authorName ?? '', email: job.authorEmail } : undefined;
    const commit = await writer.commit({ parent: fetched?.oid, remove: plan.remove, files: out, message, author });
    mark('commit');
    if (commit) {
      await deps.store.pushing(job, commit);
      await push(dir, target, job.ref, job.force, deadline);
    }
    mark('push');
    const changed = commit ? pagesWritten([...out.keys(), ...plan.remove]) : 0;
    // The revision written: the branch and the space are the same now (see Store.lastSync).
    return (await deps.store.complete(job, { revisionId: revision.id, commitOid: commit ?? fetched?.oid, pagesChanged: changed })) ? 'ack' : 'abandon';
  } finally {
    writer.close();
  }
}
