import type { Database } from '@quire/service-kit/prisma';
import type { PrismaClient, Prisma } from '../generated/prisma/client.ts';
import { exportReuseKey } from '../domain/exports.ts';

// Export jobs: the job row carries its file once done (bytea, at most an export's 16 MiB) so the
// job, its state and its result are written together and removed together when the links die.

/** A job without its file (what progress and state reads need). */
export type ExportJobRow = Omit<Prisma.ExportJobGetPayload<object>, 'data'>;

export interface NewExportJob {
  id: string;
  spaceId: string;
  changeRequestId: string;
  revision: string;
  format: string;
  userId: string;
  chain: string[];
}

const LIVE = ['queued', 'running'] as const;
const withoutData = { data: true } as const;

export function exportStore(database: Database<PrismaClient>) {
  const db = database.prisma;
  return {
    /**
     * The user's live job for this content and format, kept at least until `expiresAt`, or else
     * `job` new (queued); `created` says which. A failed job no longer holds the key.
     */
    async startExportJob(job: NewExportJob, expiresAt: Date): Promise<{ job: ExportJobRow; created: boolean }> {
      const reuseKey = exportReuseKey(job);
      // One statement (INSERT … ON CONFLICT): two asks at once get one job. An expired job not yet
      // removed is kept alive again: its removal re-checks the expiry under the row's lock.
      const row = await db.exportJob.upsert({
        where: { reuseKey },
        create: { ...job, reuseKey, expiresAt },
        update: { expiresAt },
        omit: withoutData,
      });
      return { job: row, created: row.id === job.id };
    },

    /** The job without its file; its file alone. */
    getExportJob: (id: string) => db.exportJob.findUnique({ where: { id }, omit: withoutData }),
    exportFile: (id: string) => db.exportJob.findUnique({ where: { id }, select: { data: true, filename: true, contentType: true } }),

    /** A delivery takes the job, raising its attempt so an earlier delivery still running can no longer write it. Undefined when it is over. */
    async claimExportJob(id: string): Promise<ExportJobRow | undefined> {
      const rows = await db.exportJob.updateManyAndReturn({
        where: { id, state: { in: [...LIVE] } },
        data: { attempt: { increment: 1 }, state: 'running', startedAt: new Date() },
        omit: withoutData,
      });
      return rows[0];
    },

    /** Progress, written by the delivery that holds the job. */
    async exportProgress(job: Pick<ExportJobRow, 'id' | 'attempt'>, progress: { pagesDone?: number; pagesTotal?: number; filesDone?: number; filesTotal?: number }): Promise<void> {
      await db.exportJob.updateMany({ where: { id: job.id, attempt: job.attempt, state: 'running' }, data: progress });
    },

    /** Done with its file, if this delivery still holds the job; false otherwise. */
    async completeExportJob(
      job: Pick<ExportJobRow, 'id' | 'attempt'>,
      file: { data: Buffer; filename: string; contentType: string; pages: number; files: number },
    ): Promise<boolean> {
      const n = await db.exportJob.updateMany({
        where: { id: job.id, attempt: job.attempt, state: 'running' },
        // A Buffer's memory is an ArrayBuffer (never shared), as Prisma's Bytes wants.
        data: {
          state: 'done',
          data: file.data as Uint8Array<ArrayBuffer>,
          filename: file.filename,
          contentType: file.contentType,
          pagesDone: file.pages,
          filesDone: file.files,
          completedAt: new Date(),
        },
      });
      return n.count > 0;
    },

    /** Failed with the error the download answers; `attempt` undefined fails it whoever holds it (queueing failed). */
    async failExportJob(job: { id: string; attempt?: number }, error: { code: number; message: string }): Promise<boolean> {
      const n = await db.exportJob.updateMany({
        where: { id: job.id, ...(job.attempt !== undefined ? { attempt: job.attempt } : {}), state: { in: [...LIVE] } },
        data: { state: 'failed', errorCode: error.code, error: error.message.slice(0, 1000), reuseKey: null, completedAt: new Date() },
      });
      return n.count > 0;
    },

    /** Removes the jobs (and files) past their time; how many. */
    async removeExpiredExports(now = new Date()): Promise<number> {
      return (await db.exportJob.deleteMany({ where: { expiresAt: { lt: now } } })).count;
    },
  };
}
