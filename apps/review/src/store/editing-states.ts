import type { Db } from './index.ts';

/** Pages' co-editing states (Yjs), one per change request's page. */
export function editingStateStore(database: Db) {
  const db = database.prisma;
  return {
    async editingState(changeRequestId: string, pageId: string): Promise<Buffer | null> {
      const row = await db.pageEditingState.findUnique({ where: { changeRequestId_pageId: { changeRequestId, pageId } }, select: { state: true } });
      return row && Buffer.from(row.state);
    },

    async storeEditingState(changeRequestId: string, pageId: string, state: Buffer): Promise<void> {
      const data = { state: new Uint8Array(state) };
      await db.pageEditingState.upsert({ where: { changeRequestId_pageId: { changeRequestId, pageId } }, create: { changeRequestId, pageId, ...data }, update: data });
    },

    /** Stores `state` unless one is there already; the state stored, either way (the first of two racing wins). */
    async storeEditingStateIfAbsent(changeRequestId: string, pageId: string, state: Buffer): Promise<Buffer> {
      await db.pageEditingState.createMany({ data: [{ changeRequestId, pageId, state: new Uint8Array(state) }], skipDuplicates: true });
      return (await this.editingState(changeRequestId, pageId))!;
    },
  };
}
