import { CHANGE_REQUEST, COMMON } from '@quire/proto/limits';
import type { ChangeRequest, ReviewServiceServer } from '@quire/proto/review';
import type { MergeChangeRequestIntoSpaceResponse, MergeConflict } from '@quire/proto/space-content';
import {
  absentIfNull,
  checkLength,
  ConflictError,
  GrpcStatus,
  InvalidArgumentError,
  isRefusal,
  isServiceError,
  pageArgs,
  pageOf,
  type CallContext,
  type Handlers,
} from '@quire/service-kit';
import { baseOf, checkOpen, checkTransition, checkWritable, isOutdated, MERGE_TIMEOUT_MS, parseStatus, statusFilter } from '../domain/change-requests.ts';
import type { ChangeRequestRow } from '../store/index.ts';
import { callerOf, changeRequestIn, countersChanged, need, refusedOnlyToMergers, spaceAndChangeRequest, spaceOf, usersById, type Deps } from './deps.ts';
import { settleMerge } from './merges.ts';

type CrHandlers = Pick<
  Handlers<ReviewServiceServer>,
  | 'createChangeRequest'
  | 'importChangeRequestContent'
  | 'listChangeRequests'
  | 'getChangeRequest'
  | 'updateChangeRequest'
  | 'updateChangeRequestContent'
  | 'mergeChangeRequest'
  | 'updateChangeRequestFromSpace'
  | 'getChangeRequestRevision'
>;

/** Change requests as the API shows them: their authors and open comments fetched once for the whole list. */
export async function presentChangeRequests(deps: Deps, rows: ChangeRequestRow[], spaceRevision: string, ctx: CallContext): Promise<ChangeRequest[]> {
  const [user, open] = await Promise.all([
    usersById(
      deps,
      rows.map((r) => r.createdBy),
      ctx,
    ),
    deps.store.openComments(rows.map((r) => r.id)),
  ]);
  return rows.map((r) => ({
    id: r.id,
    spaceId: r.spaceId,
    organizationId: r.organizationId,
    number: r.number,
    status: r.status,
    subject: r.subject,
    agentTaskId: r.agentTaskId,
    createdBy: user(r.createdBy),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    revision: r.revision,
    revisionInitial: r.revisionInitial,
    ...absentIfNull(r, 'revisionMergedAncestor', 'revisionMerged'),
    comments: open.get(r.id) ?? 0,
    outdated: isOutdated(r, spaceRevision),
  }));
}

const presentOne = async (deps: Deps, row: ChangeRequestRow, spaceRevision: string, ctx: CallContext) => (await presentChangeRequests(deps, [row], spaceRevision, ctx))[0]!;

const changedMeanwhile = (number: number) => new ConflictError(`Change request #${number} was changed by another request meanwhile; read it again and retry`);

function conflictError(number: number, into: string, conflicts: MergeConflict[]): ConflictError {
  const pages = conflicts.map((c) => `"${c.title}" (${c.pageId}): ${c.reason}`).join('; ');
  return new ConflictError(`Change request #${number} conflicts with ${into} on ${conflicts.length} page(s): ${pages}`, 'merge_conflict');
}

/** The space's newer content brought into the change request by content's 3-way merge; a conflict leaves everything as it was. */
async function updateFromSpace(deps: Deps, cr: ChangeRequestRow, revisions: { base: string; ours: string; theirs: string }, ctx: CallContext) {
  const res = await deps.spaceContent.mergeRevisions(
    { spaceId: cr.spaceId, baseRevisionId: revisions.base, oursRevisionId: revisions.ours, theirsRevisionId: revisions.theirs, type: 'update' },
    ctx,
  );
  if (res.conflicts.length || !res.revision) throw conflictError(cr.number, "the space's newer content", res.conflicts);
  return res.revision.id;
}

export function changeRequestHandlers(deps: Deps): CrHandlers {
  const { store } = deps;
  return {
    async createChangeRequest(req, ctx) {
      const userId = callerOf(ctx);
      const space = await spaceOf(deps, req.spaceId, ctx);
      need(space, 'edit', 'create a change request');
      checkLength('subject', req.subject, CHANGE_REQUEST.subject);
      checkLength('agentTaskId', req.agentTaskId, CHANGE_REQUEST.agentTaskId);
      const row = await store.createChangeRequest({
        spaceId: space.id,
        organizationId: space.organizationId,
        subject: req.subject,
        agentTaskId: req.agentTaskId,
        createdBy: userId,
        revision: space.revisionId,
      });
      await countersChanged(deps, space, ctx);
      return presentOne(deps, row, space.revisionId, ctx);
    },

    async listChangeRequests(req, ctx) {
      const space = await spaceOf(deps, req.spaceId, ctx);
      const status = statusFilter(req.status);
      const { limit, page } = pageArgs(req.page);
      const mergedRevisions = [...(req.mergedRevision !== undefined ? [req.mergedRevision] : []), ...req.mergedRevisions];
      if (mergedRevisions.length > COMMON.batchIds.max) throw new InvalidArgumentError(`mergedRevisions: at most ${COMMON.batchIds.max}`);
      const rows = await store.listChangeRequests(space.id, status, { contributor: req.contributor || undefined, mergedRevisions }, page);
      const { items, next } = pageOf(rows, limit, (r) => r.id);
      return { items: await presentChangeRequests(deps, items, space.revisionId, ctx), page: { next } };
    },

    async getChangeRequest(req, ctx) {
      const { space, cr } = await spaceAndChangeRequest(deps, req, ctx);
      return presentOne(deps, await settleMerge(deps, cr, ctx), space.revisionId, ctx);
    },

    async getChangeRequestRevision(req, ctx) {
      const { space, cr } = await spaceAndChangeRequest(deps, req, ctx);
      return { spaceId: space.id, revision: cr.revision, baseRevision: baseOf(cr) };
    },

    async updateChangeRequest(req, ctx) {
      callerOf(ctx);
      const { space, cr } = await spaceAndChangeRequest(deps, req, ctx, ['edit', 'update a change request']);
      if (req.subject !== undefined) checkLength('subject', req.subject, CHANGE_REQUEST.subject);
      const status = req.status === undefined ? undefined : parseStatus('status', req.status);
      if (status) checkTransition(cr.number, cr.status, status);
      if (req.subject === undefined && (status === undefined || status === cr.status)) return presentOne(deps, cr, space.revisionId, ctx);
      const row = await store.updateChangeRequest(cr.id, { status: cr.status }, { ...(req.subject !== undefined ? { subject: req.subject } : {}), ...(status ? { status } : {}) });
      if (!row) throw changedMeanwhile(cr.number);
      if (row.status !== cr.status) await countersChanged(deps, space, ctx);
      return presentOne(deps, row, space.revisionId, ctx);
    },

    async updateChangeRequestContent(req, ctx) {
      callerOf(ctx);
      const { space, cr } = await spaceAndChangeRequest(deps, req, ctx, ['edit', 'edit a change request']);
      if (req.changes.length === 0) throw new InvalidArgumentError('changes: at least one change is required');
      if (req.changes.length > CHANGE_REQUEST.changes.max)
        throw new InvalidArgumentError(`changes: at most ${CHANGE_REQUEST.changes.max} changes per request (got ${req.changes.length})`);
      checkWritable(cr.number, cr.status, 'its content cannot change');
      const { revision } = await deps.spaceContent.applyChanges({ spaceId: space.id, revisionId: cr.revision, changes: req.changes }, ctx).catch((err: unknown) => {
        // A change naming a page that is not there is bad input of this batch (400), not a missing resource.
        if (isServiceError(err) && err.code === GrpcStatus.NOT_FOUND && err.details.startsWith('changes')) throw new InvalidArgumentError(err.details);
        throw err;
      });
      // Two batches racing on one change request: the one that lands second would drop the first's edits.
      const row = await store.updateChangeRequest(cr.id, { revision: cr.revision }, { revision: revision!.id });
      if (!row) throw changedMeanwhile(cr.number);
      return presentOne(deps, row, space.revisionId, ctx);
    },

    async importChangeRequestContent(req, ctx) {
      callerOf(ctx);
      const { space, cr } = await spaceAndChangeRequest(deps, req, ctx, ['edit', 'import into a change request']);
      checkWritable(cr.number, cr.status, 'its content cannot change');
      const res = await deps.spaceContent.importContent({ spaceId: space.id, url: req.url, source: req.source, revisionId: cr.revision }, ctx);
      if (!(await store.updateChangeRequest(cr.id, { revision: cr.revision }, { revision: res.revisionId }))) throw changedMeanwhile(cr.number);
      return res;
    },

    async mergeChangeRequest(req, ctx) {
      callerOf(ctx);
      // A merge is one call to content, which checks that the caller may merge in the space as it
      // merges: the space is not read here first. Review's own refusals wait for that same check
      // (made here then), so that who may not merge in the space learns nothing of its change requests.
      const { cr, startedAt } = await refusedOnlyToMergers(deps, req.spaceId, ctx, async () => {
        const cr = await settleMerge(deps, await changeRequestIn(deps, req.spaceId, req.changeRequest), ctx);
        checkOpen(cr.number, cr.status, 'merged');
        const startedAt = await store.startMerge(cr.id, new Date(Date.now() - MERGE_TIMEOUT_MS));
        if (!startedAt)
          throw new ConflictError(`Change request #${cr.number} is being merged, or was changed, by another request meanwhile; read it again and retry`, 'merge_in_progress');
        return { cr, startedAt };
      });
      const space = { id: cr.spaceId, organizationId: cr.organizationId };
      let res: MergeChangeRequestIntoSpaceResponse;
      try {
        // Content merges onto the space's revision as it reads it, writes the merge revision and moves the space, in one transaction.
        res = await deps.spaceContent.mergeChangeRequestIntoSpace(
          { spaceId: space.id, baseRevisionId: baseOf(cr), headRevisionId: cr.revision, expectedRevisionId: '', changeRequestId: cr.id },
          ctx,
        );
      } catch (err) {
        // Refused, content changed nothing; any other failure (lost answer) leaves the mark for settleMerge.
        if (isRefusal(err)) await store.endMerge(cr.id, startedAt);
        if (isServiceError(err) && err.code === GrpcStatus.ABORTED)
          throw new ConflictError(
            `The content of space "${space.id}" changed while change request #${cr.number} was being merged (another merge or edit won); merge again`,
            'space_moved',
          );
        throw err;
      }
      if (!res.revision) {
        await store.endMerge(cr.id, startedAt);
        throw conflictError(cr.number, "the space's content", res.conflicts);
      }
      // The space has the content now: the change request is merged even if a PATCH raced this merge.
      await store.recordMerged(cr.id, space.id, res.revision.id);
      // Counted before the answer, also when content's event recorded the merge first; content's
      // copy takes them from the state event (no second call to content).
      await countersChanged(deps, space, ctx, { call: false });
      return { revision: res.revision.id, result: 'merge' };
    },

    async updateChangeRequestFromSpace(req, ctx) {
      callerOf(ctx);
      const { space, cr } = await spaceAndChangeRequest(deps, req, ctx, ['edit', 'update a change request']);
      checkWritable(cr.number, cr.status, 'only an open or draft change request can be updated');
      const theirs = space.revisionId;
      // Already on the space's content: nothing to bring in.
      if (baseOf(cr) === theirs) return { revision: cr.revision, result: 'update' };
      const updated = await updateFromSpace(deps, cr, { base: baseOf(cr), ours: cr.revision, theirs }, ctx);
      if (!(await store.updateChangeRequest(cr.id, { revision: cr.revision }, { revision: updated, revisionMergedAncestor: theirs }))) throw changedMeanwhile(cr.number);
      return { revision: updated, result: 'update' };
    },
  };
}
