import type { CreateRevisionRequest, GitCommit, SpaceContentServiceServer } from '@quire/proto/space-content';
import { callerOf, callsAsItself, checkOneOf, InvalidArgumentError, PermissionDeniedError, type Handlers } from '@quire/service-kit';
import { allow } from '@quire/policy';
import { newId } from '@quire/service-kit/ids';
import { applyChanges, revertTargets } from '../domain/changes.ts';
import { treeFromContent } from '../domain/content-tree.ts';
import { documentsToMerge, mergeTrees } from '../domain/merge.ts';
import { checkRedirects, mergeWhole } from '../domain/redirects.ts';
import { checkReusableContents } from '../domain/reusable.ts';
import type { Tree } from '../domain/tree.ts';
import type { SpaceRow } from '../store/index.ts';
import { spaceMovedOn, type GitCommitInfo, type RevisionRow } from '../store/revisions.ts';
import { visibleSpace } from './deps.ts';
import { storedMatters } from './front-matter.ts';
import { readRevision, requireEdit, requireLive, revisionOf, type RevisionDeps } from './revision-access.ts';
import { blobHandlers, describeBlobs, fileStore } from './revision-files.ts';
import { revisionReadHandlers } from './revision-reads.ts';
import { presentFile, presentRevision, revisionHeader } from './revision-presenters.ts';

type H = Pick<
  Handlers<SpaceContentServiceServer>,
  'applyChanges' | 'createRevision' | 'mergeRevisions' | 'setSpaceRevision' | 'mergeChangeRequestIntoSpace' | 'getChangeRequestMerge'
>;

export const REVISION_TYPES = ['edits', 'merge', 'update', 'rollback', 'computed'] as const;

const gitOf = (g: GitCommit | undefined): GitCommitInfo | undefined => g && { oid: g.oid, message: g.message, createdByService: g.createdByService, url: g.url, ref: g.ref };

/** Whole content as a new revision of `space` (the caller has checked it may edit it). */
export function contentWriter(deps: RevisionDeps) {
  const now = deps.now ?? (() => new Date());

  return async function writeContent(space: SpaceRow, req: Omit<CreateRevisionRequest, 'spaceId'>): Promise<RevisionRow> {
    if (req.setActive) requireLive(space);
    // Checked (bounds first) before any blob is read.
    const reusable = req.reusableContents && checkReusableContents(req.reusableContents.items, newId);
    const parent = await revisionOf(deps, space, req.parentRevisionId, 'parentRevisionId');
    const described = await describeBlobs(deps.blobs, req.files, parent.tree);
    const files = req.files.map((f, i) => ({ ...f, ...described[i]! }));
    const { tree, documents } = treeFromContent(req.pages, files, parent.tree, { now: now(), newId });
    const redirects = req.redirects ? checkRedirects(req.redirects.items, tree.pages) : parent.redirects;
    for (const [id, body] of reusable?.documents ?? []) documents.set(id, body);
    return deps.store.revisions.writeRevision(
      { spaceId: space.id, parents: [parent.id], type: req.type, tree, git: gitOf(req.git), redirects, reusableContents: reusable?.contents ?? parent.reusableContents },
      documents,
      req.setActive ? { expected: parent.id } : undefined,
    );
  };
}

/** The space content calls on revisions: reads, the blob store, and the writes below. */
export function revisionHandlers(deps: RevisionDeps) {
  return { ...revisionReadHandlers(deps), ...blobHandlers(deps), ...revisionWriteHandlers(deps) };
}

/** Writing a space's revisions: changes, whole content, merges, and which one is active. */
function revisionWriteHandlers(deps: RevisionDeps): H {
  const revisions = deps.store.revisions;
  const now = deps.now ?? (() => new Date());
  const writeContent = contentWriter(deps);
  const { storeFiles } = fileStore(deps);

  /** The 3-way merge of `theirs` into `ours` from `base`, revisions of `space` (`fields` name them in errors). */
  async function merge3(space: SpaceRow, ids: { base: string; ours: string; theirs: string }, fields: [string, string, string]) {
    const [base, ours, theirs] = await Promise.all([
      revisionOf(deps, space, ids.base, fields[0]),
      revisionOf(deps, space, ids.ours, fields[1]),
      revisionOf(deps, space, ids.theirs, fields[2]),
    ]);
    const markdown = await revisions.getDocuments(documentsToMerge(base.tree, ours.tree, theirs.tree));
    const merged = mergeTrees({ base: base.tree, ours: ours.tree, theirs: theirs.tree, markdown });
    return {
      ...merged,
      parents: [ours.id, theirs.id],
      redirects: mergeWhole(base.redirects, ours.redirects, theirs.redirects),
      reusableContents: mergeWhole(base.reusableContents, ours.reusableContents, theirs.reusableContents),
    };
  }

  return {
    async applyChanges(req, ctx) {
      callerOf(ctx);
      const { space, role, revision: base } = await readRevision(deps, req.spaceId, req.revisionId, ctx);
      requireEdit(space, role);
      const changes = await storeFiles(req.changes, base.tree);
      const trees = new Map<string, Tree>();
      for (const id of revertTargets(changes)) trees.set(id, id === '' ? base.tree : (await revisionOf(deps, space, id, 'changes.revision')).tree);
      const applied = applyChanges(base.tree, changes, { now: now(), newId, revisions: trees, matters: await storedMatters(deps, base.tree, changes) });
      const revision = await revisions.writeRevision(
        { spaceId: space.id, parents: [base.id], type: 'edits', tree: applied.tree, redirects: base.redirects, reusableContents: base.reusableContents },
        applied.documents,
      );
      return { revision: revisionHeader(revision), changes: applied.changes, insertedFiles: applied.insertedFiles.map((f) => presentFile(f, true)) };
    },

    async createRevision(req, ctx) {
      callerOf(ctx);
      const type = checkOneOf('type', req.type || 'edits', REVISION_TYPES);
      const { space, role } = await visibleSpace(deps, req.spaceId, ctx);
      requireEdit(space, role);
      return revisionHeader(await writeContent(space, { ...req, type }));
    },

    async mergeRevisions(req, ctx) {
      callerOf(ctx);
      const type = checkOneOf('type', req.type || 'merge', ['merge', 'update'] as const);
      const { space, role } = await visibleSpace(deps, req.spaceId, ctx);
      requireEdit(space, role);
      const merged = await merge3(space, { base: req.baseRevisionId, ours: req.oursRevisionId, theirs: req.theirsRevisionId }, [
        'baseRevisionId',
        'oursRevisionId',
        'theirsRevisionId',
      ]);
      if (!merged.tree) return { conflicts: merged.conflicts };
      const row = await revisions.writeRevision(
        { spaceId: space.id, parents: merged.parents, type, tree: merged.tree, redirects: merged.redirects, reusableContents: merged.reusableContents },
        merged.documents,
      );
      return { revision: presentRevision(row, { metadata: true }), conflicts: [] };
    },

    async mergeChangeRequestIntoSpace(req, ctx) {
      callerOf(ctx);
      // Review records the change request as merged from this revision: no one else may name one.
      if (ctx.chain.at(-1) !== 'review') throw new PermissionDeniedError('Only the review service merges change requests');
      if (!req.changeRequestId) throw new InvalidArgumentError('changeRequestId: the change request being merged is needed');
      // Review reads nothing of the space before this call: the caller's right to merge is checked here.
      const { space, role } = await visibleSpace(deps, req.spaceId, ctx);
      if (!allow(role, 'merge', 'space', space)) throw new PermissionDeniedError(`You need the merge permission on space "${space.id}" to merge a change request`);
      // Merged already (a retry after the answer was lost): the same answer, nothing written again.
      const done = await revisions.changeRequestMerge(space.id, req.changeRequestId);
      if (done) return { revision: revisionHeader((await revisions.getRevision(done))!), conflicts: [] };
      const expected = req.expectedRevisionId || space.revisionId;
      if (space.revisionId !== expected) throw spaceMovedOn(space.id);
      const merged = await merge3(space, { base: req.baseRevisionId, ours: expected, theirs: req.headRevisionId }, ['baseRevisionId', 'expectedRevisionId', 'headRevisionId']);
      if (!merged.tree) return { conflicts: merged.conflicts };
      const row = await revisions.writeRevision(
        {
          spaceId: space.id,
          parents: merged.parents,
          type: 'merge',
          tree: merged.tree,
          redirects: merged.redirects,
          reusableContents: merged.reusableContents,
          changeRequestId: req.changeRequestId,
        },
        merged.documents,
        { expected },
      );
      // Review records the merge from this event when its own write after this call did not happen;
      // git-sync commits it to a Git-synced space's branch (its subject the commit's message).
      await deps.events.emit(ctx, {
        entity: 'change_request',
        verb: 'merged',
        organizationId: space.organizationId,
        target: { type: 'change_request', id: req.changeRequestId },
        details: { spaceId: space.id, revisionId: row.id, subject: req.subject },
      });
      return { revision: revisionHeader(row), conflicts: [] };
    },

    // Review's, as itself (settling a merge it did not see end, with or without a caller): a revision id only.
    async getChangeRequestMerge(req, ctx) {
      if (!callsAsItself(ctx, 'review')) throw new PermissionDeniedError('Only the review service asks which revision a change request was merged as');
      return { revisionId: (await revisions.changeRequestMerge(req.spaceId, req.changeRequestId)) ?? '' };
    },

    async setSpaceRevision(req, ctx) {
      callerOf(ctx);
      const { space, role } = await visibleSpace(deps, req.spaceId, ctx);
      requireEdit(space, role);
      requireLive(space);
      if (!req.revisionId) throw new InvalidArgumentError('revisionId: the revision to make active is needed');
      const revision = await revisionOf(deps, space, req.revisionId);
      if (!req.expectedRevisionId) throw new InvalidArgumentError('expectedRevisionId: the revision the space is expected to be on is needed');
      await revisions.setSpaceRevision(space.id, revision, req.expectedRevisionId);
      return {};
    },
  };
}
