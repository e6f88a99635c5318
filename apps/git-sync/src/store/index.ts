import { openDatabaseStore, preparedStatements, UTC_NOW, type Database } from '@quire/service-kit/prisma';
import { PrismaClient, type Prisma } from '../generated/prisma/client.ts';
import { webhookStore } from './webhooks.ts';

export type Db = Database<PrismaClient>;
export type JobRow = Prisma.GitJobGetPayload<object>;
export type GitSyncRow = Prisma.SpaceGitSyncGetPayload<object>;

const LIVE = ['queued', 'running', 'applying'] as const;
const inStates = (states: readonly string[]) => `state IN (${states.map((s) => `'${s}'`).join(', ')})`;
// The job as the delivery holding it ($1 id, $2 attempt) left it, still under way.
const HELD = `id = $1 AND attempt = $2 AND ${inStates(['running', 'applying'])}`;

const hot = preparedStatements('git-sync', {
  links: 'SELECT * FROM "SpaceGitSync" WHERE "spaceId" = ANY($1)',
  latestJobs: 'SELECT DISTINCT ON ("spaceId") * FROM "GitJob" WHERE "spaceId" = ANY($1) ORDER BY "spaceId", "createdAt" DESC, id DESC',
  // A job's way, from the call that queues it through a worker, each step one statement: through
  // Prisma, its query compiling and transaction round trips cost every import 20-25 ms (bench/README.md, git-sync).
  // The link set (at its next version) and the job, at once.
  createJob: `WITH link AS (
      INSERT INTO "SpaceGitSync" ("spaceId", "repoName", "installationProvider", integration, url, "updatedAt")
      VALUES ($2, $14, $15, $16, $17, ${UTC_NOW})
      ON CONFLICT ("spaceId") DO UPDATE SET "repoName" = EXCLUDED."repoName", "installationProvider" = EXCLUDED."installationProvider",
        integration = EXCLUDED.integration, url = EXCLUDED.url, "updatedAt" = EXCLUDED."updatedAt", version = "SpaceGitSync".version + 1
      RETURNING *),
    job AS (
      INSERT INTO "GitJob" (id, "spaceId", direction, "userId", url, ref, "commitMessage", "repoTreeUrl", "repoCommitUrl", "repoProjectDirectory", standalone, force, timestamp, "pushOid",
        "changeRequestId", "authorName", "authorEmail", "createdAt", "updatedAt")
      VALUES ($1, $2, $3::"Direction", $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::timestamp, $18, $19, $20, $21, ${UTC_NOW}, ${UTC_NOW}))
    SELECT * FROM link`,
  claim: `UPDATE "GitJob" SET attempt = attempt + 1, state = CASE WHEN state = 'applying' THEN state ELSE 'running'::"JobState" END,
      "startedAt" = COALESCE("startedAt", ${UTC_NOW}), "updatedAt" = ${UTC_NOW}
    WHERE id = $1 AND ${inStates(LIVE)} RETURNING *`,
  lastImport: `SELECT * FROM "GitJob" WHERE "spaceId" = $1 AND direction = 'import' AND state = 'done' AND NOT standalone AND "skipReason" IS NULL ORDER BY "completedAt" DESC, id DESC LIMIT 1`,
  // The last job that left the space and the branch the same: an import, or an export that recorded both.
  lastSync: `SELECT * FROM "GitJob" WHERE "spaceId" = $1 AND state = 'done' AND NOT standalone AND "skipReason" IS NULL
      AND "commitOid" IS NOT NULL AND "revisionId" IS NOT NULL ORDER BY "completedAt" DESC, id DESC LIMIT 1`,
  // A job whose queueing failed (never started) does not count: the event's redelivery queues another.
  mergeJob: `SELECT * FROM "GitJob" WHERE "spaceId" = $1 AND "changeRequestId" = $2 AND NOT (state = 'failed' AND "startedAt" IS NULL) LIMIT 1`,
  progress: `UPDATE "GitJob" SET "filesDone" = $3, "filesTotal" = $4, "updatedAt" = ${UTC_NOW} WHERE ${HELD}`,
  // The space's link row locked first: jobs of one space start applying one at a time, in order.
  beginApply: `WITH link AS (SELECT "lastTimestamp" AS last FROM "SpaceGitSync" WHERE "spaceId" = $3 FOR UPDATE),
    gate AS (SELECT (SELECT last FROM link) AS last, coalesce((SELECT last FROM link) > $4::timestamp AND NOT $5::boolean, false) AS superseded),
    taken AS (
      UPDATE "GitJob" SET state = 'applying', "parentRevisionId" = $6, "commitOid" = $7, "updatedAt" = ${UTC_NOW}
      WHERE ${HELD} AND NOT (SELECT superseded FROM gate) RETURNING id),
    moved AS (
      UPDATE "SpaceGitSync" SET "lastTimestamp" = $4::timestamp
      WHERE "spaceId" = $3 AND EXISTS (SELECT 1 FROM taken) AND ("lastTimestamp" IS NULL OR "lastTimestamp" < $4::timestamp))
    SELECT last, superseded, EXISTS (SELECT 1 FROM taken) AS taken FROM gate`,
  // The commit an export is about to push, so that the push's own webhook delivery imports nothing.
  pushing: `UPDATE "GitJob" SET "commitOid" = $3, "updatedAt" = ${UTC_NOW} WHERE ${HELD}`,
  exported: `SELECT id FROM "GitJob" WHERE "spaceId" = $1 AND direction = 'export' AND "commitOid" = $2 AND state IN ('applying', 'done') LIMIT 1`,
  complete: `UPDATE "GitJob" SET state = 'done', "revisionId" = $3, "commitOid" = $4, "pagesChanged" = $5, "skipReason" = $6, "completedAt" = ${UTC_NOW}, error = NULL, "updatedAt" = ${UTC_NOW} WHERE ${HELD}`,
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
  /** A push's job: the commit the push named. */
  pushOid?: string;
  /** A merge's export: the change request merged, and its merger (the commit's author). */
  changeRequestId?: string;
  author?: { name: string; email: string };
}

export interface LinkInfo {
  repoName: string;
  installationProvider?: string;
  integration: string;
  url: string;
}

/** What starting to apply a job answered: go on, another delivery has it, or a newer operation ran. */
export type ApplyGate = 'ok' | 'stale' | 'superseded';

export function createStore(database: Db) {
  const db = database.prisma;
  return {
    ...webhookStore(database),
    /** Queues the job and sets the space's Git link (the link's details as the request gave them, at its next version), at once: answers the link. */
    createJob: async (job: NewJob, link: LinkInfo): Promise<GitSyncRow> =>
      (await hot<GitSyncRow>(database, 'createJob', [
        job.id,
        job.spaceId,
        job.direction,
        job.userId,
        job.url,
        job.ref,
        job.commitMessage ?? null,
        job.repoTreeUrl ?? null,
        job.repoCommitUrl ?? null,
        job.repoProjectDirectory ?? null,
        job.standalone,
        job.force,
        // As UTC text: a Date would be sent in the process's time zone.
        job.timestamp.toISOString(),
        link.repoName,
        link.installationProvider ?? null,
        link.integration,
        link.url,
        job.pushOid ?? null,
        job.changeRequestId ?? null,
        job.author?.name ?? null,
        job.author?.email ?? null,
      ]))!,

    getJob: (id: string) => db.gitJob.findUnique({ where: { id } }),

    /** The space's latest finished import that set its revision (not a standalone one). */
    lastImport: (spaceId: string) => hot<JobRow>(database, 'lastImport', [spaceId]),

    /**
     * The space's last sync that left it and its branch the same (an import, or an export that
     * recorded the revision it wrote): what a merge's export and a push's import compare with.
     */
    lastSync: (spaceId: string) => hot<JobRow>(database, 'lastSync', [spaceId]),

    /** The export a merge of the change request queued, if any (one whose queueing failed aside). */
    mergeJob: (spaceId: string, changeRequestId: string) => hot<JobRow>(database, 'mergeJob', [spaceId, changeRequestId]),

    /**
     * A delivery takes the job: the attempt is raised so an earlier delivery that is still
     * running (its worker stalled) can no longer apply it. Undefined when the job is over.
     */
    claim: (id: string) => hot<JobRow>(database, 'claim', [id]),

    /**
     * Starts the step that writes outside this database, in one statement with the space's order
     * check: refused when another delivery took the job, or when a newer operation already ran on
     * the space (unless forced). The space's newest timestamp moves to this job's.
     */
    async beginApply(
      job: Pick<JobRow, 'id' | 'attempt' | 'spaceId' | 'timestamp' | 'force'>,
      marks: { parentRevisionId?: string; commitOid?: string },
    ): Promise<{ gate: ApplyGate; newer?: Date }> {
      const gate = (await hot<{ last: Date | null; superseded: boolean; taken: boolean }>(database, 'beginApply', [
        job.id,
        job.attempt,
        job.spaceId,
        job.timestamp.toISOString(),
        job.force,
        marks.parentRevisionId ?? null,
        marks.commitOid ?? null,
      ]))!;
      if (gate.superseded) return { gate: 'superseded', newer: gate.last! };
      return { gate: gate.taken ? 'ok' : 'stale' };
    },

    /** The job's progress, recorded by the delivery that holds it. */
    async progress(job: Pick<JobRow, 'id' | 'attempt'>, filesDone: number, filesTotal: number): Promise<void> {
      await hot.changed(database, 'progress', [job.id, job.attempt, filesDone, filesTotal]);
    },

    /** Records the commit an export is about to push (before the push: the host's webhook for it may come first). */
    async pushing(job: Pick<JobRow, 'id' | 'attempt'>, commitOid: string): Promise<void> {
      await hot.changed(database, 'pushing', [job.id, job.attempt, commitOid]);
    },

    /** Whether an export of the space pushed (or is pushing) `commitOid`. */
    exported: async (spaceId: string, commitOid: string) => !!(await hot<{ id: string }>(database, 'exported', [spaceId, commitOid])),

    /** Done, if this delivery still holds the job; false otherwise. `skipped`: why a push's job imported nothing. */
    async complete(job: Pick<JobRow, 'id' | 'attempt'>, result: { revisionId?: string; commitOid?: string; pagesChanged?: number; skipped?: string }): Promise<boolean> {
      const values = [job.id, job.attempt, result.revisionId ?? null, result.commitOid ?? null, result.pagesChanged ?? null, result.skipped ?? null];
      return (await hot.changed(database, 'complete', values)) > 0;
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
