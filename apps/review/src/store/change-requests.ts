import { newId } from '@quire/service-kit/ids';
import { rowsAfter, type Page } from '@quire/service-kit';
import type { Prisma } from '../generated/prisma/client.ts';
import type { Status } from '../domain/change-requests.ts';
import type { Db } from './index.ts';

export type ChangeRequestRow = Prisma.ChangeRequestGetPayload<object>;

/** Change requests: numbered per space, and their merges. */
export function changeRequestStore(database: Db) {
  const db = database.prisma;
  return {
    /**
     * A new change request with the space's next number: the sequence row is bumped in the same
     * transaction (the row lock orders concurrent creations), so numbers are never given twice.
     */
    async createChangeRequest(data: {
      spaceId: string;
      organizationId: string;
      subject: string;
      agentTaskId: string;
      createdBy: string;
      revision: string;
    }): Promise<ChangeRequestRow> {
      return db.$transaction(async (tx) => {
        const [row] = await tx.$queryRaw<{ last: number }[]>`
          INSERT INTO space_sequence (space_id, last) VALUES (${data.spaceId}, 1)
          ON CONFLICT (space_id) DO UPDATE SET last = space_sequence.last + 1 RETURNING last`;
        return tx.changeRequest.create({
          data: { id: newId(), ...data, number: row!.last, status: 'open', revisionInitial: data.revision },
        });
      });
    },

    findChangeRequest(spaceId: string, ref: { id: string } | { number: number }): Promise<ChangeRequestRow | null> {
      return 'id' in ref
        ? db.changeRequest.findFirst({ where: { spaceId, id: ref.id } })
        : db.changeRequest.findUnique({ where: { spaceId_number: { spaceId, number: ref.number } } });
    },

    async changeRequestsByIds(ids: string[]): Promise<Map<string, ChangeRequestRow>> {
      const rows = ids.length ? await db.changeRequest.findMany({ where: { id: { in: ids } } }) : [];
      return new Map(rows.map((r) => [r.id, r]));
    },

    /** Newest first. */
    listChangeRequests(spaceId: string, status: Status | undefined, filter: { contributor?: string; mergedRevisions?: string[] }, page: Page): Promise<ChangeRequestRow[]> {
      const { contributor, mergedRevisions } = filter;
      return db.changeRequest.findMany({
        where: {
          spaceId,
          ...(status ? { status } : {}),
          ...(contributor ? { createdBy: contributor } : {}),
          ...(mergedRevisions?.length ? { revisionMerged: { in: mergedRevisions } } : {}),
        },
        orderBy: { number: 'desc' },
        ...rowsAfter(page),
      });
    },

    /**
     * Updates the change request only while it still has `expected` fields (its status and
     * revision as read): null when another write changed it meanwhile.
     */
    async updateChangeRequest(id: string, expected: { status?: Status; revision?: string }, data: Prisma.ChangeRequestUpdateManyMutationInput): Promise<ChangeRequestRow | null> {
      const { count } = await db.changeRequest.updateMany({ where: { id, ...expected }, data });
      return count ? db.changeRequest.findUnique({ where: { id } }) : null;
    },

    /**
     * Marks a merge of the open change request as under way, unless another one is (started after
     * `since`): when it started, or null when it is not open or another merge is under way.
     */
    async startMerge(id: string, since: Date): Promise<Date | null> {
      const startedAt = new Date();
      const { count } = await db.changeRequest.updateMany({
        where: { id, status: 'open', OR: [{ mergeStartedAt: null }, { mergeStartedAt: { lt: since } }] },
        data: { mergeStartedAt: startedAt },
      });
      return count ? startedAt : null;
    },

    /** The merge started at `startedAt` did not happen: the mark goes (not one a later merge set). */
    async endMerge(id: string, startedAt: Date): Promise<void> {
      await db.changeRequest.updateMany({ where: { id, mergeStartedAt: startedAt, status: { not: 'merged' } }, data: { mergeStartedAt: null } });
    },

    /**
     * Records the change request as merged as `revision` (once: false when it already was). Whatever
     * its status meanwhile: the space has its content.
     */
    async recordMerged(id: string, spaceId: string, revision: string): Promise<boolean> {
      const { count } = await db.changeRequest.updateMany({
        where: { id, spaceId, status: { not: 'merged' } },
        data: { status: 'merged', revisionMerged: revision, mergeStartedAt: null },
      });
      return count > 0;
    },

    /** Change requests whose merge started and was not recorded as ended. */
    mergesUnderWay(): Promise<ChangeRequestRow[]> {
      return db.changeRequest.findMany({ where: { mergeStartedAt: { not: null }, status: { not: 'merged' } }, orderBy: { mergeStartedAt: 'asc' } });
    },
  };
}
