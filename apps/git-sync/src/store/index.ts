import { openDatabaseStore, preparedStatements, type Database } from '@quire/service-kit/prisma';
import { PrismaClient, type Prisma } from '../generated/prisma/client.ts';

export type Db = Database<PrismaClient>;
export type JobRow = Prisma.GitJobGetPayload<object>;
export type GitSyncRow = Prisma.SpaceGitSyncGetPayload<object>;

const hot = preparedStatements('git-sync', {
  links: 'SELECT * FROM "SpaceGitSync" WHERE "spaceId" = ANY($1)',
  latestJobs: 'SELECT DISTINCT ON ("spaceId") * FROM "GitJob" WHERE "spaceId" = ANY($1) ORDER BY "spaceId", "createdAt" DESC, id DESC',
});

export const openStore = (connectionString: string, poolSize?: number, log?: Parameters<typeof openDatabaseStore>[4]) =>
  openDatabaseStore(PrismaClient, createStore, connectionString, poolSize, log);

export interface NewJob {
  id: string;
  spaceId: string;
  direction: 'import' | 'export';
  userId: string;
  url: string;
  ref: string;
  commitMessage?: string;
  repoTreeUrl?: string;
  repoCommitUrl?: string;
  repoProjectDirectory?: string;
  standalone: boolean;
  force: boolean;
  timestamp: Date;
}

export interface LinkInfo {
  repoName: string;
  installationProvider?: string;
  integration: string;
  url: string;
}

/** What starting to apply a job answered: go on, another delivery has it, or a newer operation ran. */
export type ApplyGate = 'ok' | 'stale' | 'superseded';

const LIVE = ['queued', 'running', 'applying'] as const;

export function createStore(database: Db) {
  const db = database.prisma;
  return {
    /** The job and the space's Git link (the link's details as the request gave them, at its next version), at once. */
    async createJob(job: NewJob, link: LinkInfo): Promise<{ job: JobRow; link: GitSyncRow }> {
      const [linked, row] = await db.$transaction([
        db.spaceGitSync.upsert({
          where: { spaceId: job.spaceId },
          create: { spaceId: job.spaceId, ...link },
          update: { ...link, installationProvider: link.installationProvider ?? null, version: { increment: 1 } },
        }),
        db.gitJob.create({ data: job }),
      ]);
      return { job: row, link: linked };
    },

    getJob: (id: string) => db.gitJob.findUnique({ where: { id } }),

    /** The space's latest finished import that set its revision (not a standalone one). */
    lastImport: (spaceId: string) =>
      db.gitJob.findFirst({ where: { spaceId, direction: 'import', state: 'done', standalone: false }, orderBy: [{ completedAt: 'desc' }, { id: 'desc' }] }),

    /**
     * A delivery takes the job: the attempt is raised so an earlier delivery that is still
     * running (its worker stalled) can no longer apply it. Undefined when the job is over.
     */
    async claim(id: string): Promise<JobRow | undefined> {
      const rows = await db.$queryRaw<JobRow[]>`
        UPDATE "GitJob" SET attempt = attempt + 1,
          state = CASE WHEN state = 'applying' THEN state ELSE 'running'::"JobState" END,
          "startedAt" = COALESCE("startedAt", now()), "updatedAt" = now()
        WHERE id = ${id} AND state::text = ANY(${[...LIVE]}) RETURNING *`;
      return rows[0];
    },

    /**
     * Starts the step that writes outside this database, in one transaction with the space's
     * order check: refused when another delivery took the job, or when a newer operation already
     * ran on the space (unless forced). The space's newest timestamp moves to this job's.
     */
    async beginApply(
      job: Pick<JobRow, 'id' | 'attempt' | 'spaceId' | 'timestamp' | 'force'>,
      marks: { parentRevisionId?: string; commitOid?: string },
    ): Promise<{ gate: ApplyGate; newer?: Date }> {
      return db.$transaction(async (tx) => {
        const link = await tx.$queryRaw<{ lastTimestamp: Date | null }[]>`SELECT "lastTimestamp" FROM "SpaceGitSync" WHERE "spaceId" = ${job.spaceId} FOR UPDATE`;
        const last = link[0]?.lastTimestamp ?? null;
        if (last && last > job.timestamp && !job.force) return { gate: 'superseded' as const, newer: last };
        const taken = await tx.gitJob.updateMany({
          where: { id: job.id, attempt: job.attempt, state: { in: ['running', 'applying'] } },
          data: { state: 'applying', parentRevisionId: marks.parentRevisionId ?? null, commitOid: marks.commitOid ?? null },
        });
        if (taken.count === 0) return { gate: 'stale' as const };
        // In SQL: Prisma's update would move the link's updatedAt, which says when the link was set.
        if (!last || job.timestamp > last) await tx.$executeRaw`UPDATE "SpaceGitSync" SET "lastTimestamp" = ${job.timestamp} WHERE "spaceId" = ${job.spaceId}`;
        return { gate: 'ok' as const };
      });
    },

    /** The job's progress, recorded by the delivery that holds it. */
    async progress(job: Pick<JobRow, 'id' | 'attempt'>, filesDone: number, filesTotal: number): Promise<void> {
      await db.gitJob.updateMany({ where: { id: job.id, attempt: job.attempt, state: { in: ['running', 'applying'] } }, data: { filesDone, filesTotal } });
    },

    /** Done, if this delivery still holds the job; false otherwise. */
    async complete(job: Pick<JobRow, 'id' | 'attempt'>, result: { revisionId?: string; commitOid?: string }): Promise<boolean> {
      const n = await db.gitJob.updateMany({
        where: { id: job.id, attempt: job.attempt, state: { in: ['running', 'applying'] } },
        data: { state: 'done', revisionId: result.revisionId ?? null, commitOid: result.commitOid ?? null, completedAt: new Date(), error: null },
      });
      return n.count > 0;
    },

    /** Failed with the reason shown to users; `attempt` undefined fails it whoever holds it (queueing failed). */
    async fail(job: { id: string; attempt?: number }, error: string): Promise<boolean> {
      const n = await db.gitJob.updateMany({
        where: { id: job.id, ...(job.attempt !== undefined ? { attempt: job.attempt } : {}), state: { in: [...LIVE] } },
        data: { state: 'failed', error: error.slice(0, 1000), completedAt: new Date() },
      });
      return n.count > 0;
    },

    /** The Git links of the spaces that have one, with each one's latest job. */
    async batchInfo(spaceIds: string[]): Promise<{ link: GitSyncRow; job?: JobRow }[]> {
      if (spaceIds.length === 0) return [];
      // Behind every Space the gateway shows: most spaces have no link, and then one query is all.
      const links = await hot.rows<GitSyncRow>(database, 'links', [spaceIds]);
      if (links.length === 0) return [];
      const jobs = await hot.rows<JobRow>(database, 'latestJobs', [links.map((l) => l.spaceId)]);
      const latest = new Map(jobs.map((j) => [j.spaceId, j]));
      return links.map((link) => ({ link, ...(latest.has(link.spaceId) ? { job: latest.get(link.spaceId)! } : {}) }));
    },
  };
}

export type Store = ReturnType<typeof createStore>;
