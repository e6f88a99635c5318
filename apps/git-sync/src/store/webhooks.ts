import { preparedStatements, UTC_NOW, type Database } from '@quire/service-kit/prisma';
import { InvalidArgumentError, type Page } from '@quire/service-kit';
import { reseal, type SealingKeys } from '@quire/service-kit/sealed';
import { webhookCredentialsContext, webhookSecretContext } from '../domain/sealed.ts';
import type { PrismaClient, Prisma } from '../generated/prisma/client.ts';

export type WebhookRow = Prisma.GitWebhookGetPayload<object>;
export type NewWebhook = Omit<WebhookRow, 'createdAt' | 'updatedAt' | 'polledAt'>;

/** A webhook delivery as recorded; `replayed` and `rejected` ones never queue a job. */
export interface NewDelivery {
  id: string;
  spaceId: string;
  provider: string;
  deliveryId: string;
  event: string;
  ref?: string;
  commitOid?: string;
  result: 'queued' | 'ignored' | 'replayed' | 'rejected';
  reason?: string;
  jobId?: string;
}

/** One line of the sync log: a job (with the delivery that queued it, if one did) or a delivery that queued none. */
export interface LogRow {
  id: string;
  direction: string;
  trigger: 'api' | 'webhook' | 'poll' | 'merge';
  userId: string | null;
  provider: string | null;
  deliveryId: string | null;
  ref: string | null;
  commitOid: string | null;
  result: string;
  reason: string | null;
  pagesChanged: number | null;
  attempts: number;
  jobId: string | null;
  createdAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
  changeRequestId: string | null;
}

const sql = preparedStatements('git-sync-webhooks', {
  // A verified delivery's id is taken once (the partial unique index): a replay inserts nothing.
  delivery: `INSERT INTO "GitDelivery" (id, "spaceId", provider, "deliveryId", event, ref, "commitOid", result, reason, "jobId")
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
    ON CONFLICT ("spaceId", provider, "deliveryId") WHERE result IN ('queued', 'ignored') DO NOTHING`,
  // The job a push of this commit already queued, unless it failed (then a push may try again).
  // Links due a poll, taken by one replica (the others skip them) and marked polled now.
  duePolls: `UPDATE "GitWebhook" SET "polledAt" = ${UTC_NOW} WHERE "spaceId" IN (
      SELECT "spaceId" FROM "GitWebhook" WHERE "pollSeconds" IS NOT NULL
        AND ("polledAt" IS NULL OR "polledAt" + make_interval(secs => "pollSeconds") <= ${UTC_NOW})
      ORDER BY "polledAt" NULLS FIRST LIMIT $1 FOR UPDATE SKIP LOCKED)
    RETURNING *`,
  commitJob: `SELECT id FROM "GitJob" WHERE "spaceId" = $1 AND "pushOid" = $2 AND state <> 'failed' LIMIT 1`,
  log: `SELECT * FROM (
      SELECT j.id, j.direction::text AS direction,
        CASE WHEN j."changeRequestId" IS NOT NULL THEN 'merge' WHEN d.id IS NULL THEN 'api' WHEN d.provider = 'poll' THEN 'poll' ELSE 'webhook' END AS trigger, j."userId",
        d.provider, d."deliveryId", j.ref, coalesce(j."commitOid", j."pushOid") AS "commitOid",
        CASE WHEN j."skipReason" IS NOT NULL THEN 'skipped' WHEN j.state = 'applying' THEN 'running' ELSE j.state::text END AS result,
        coalesce(j.error, j."skipReason") AS reason, j."pagesChanged", j.attempt AS attempts, j.id AS "jobId", j."createdAt", j."startedAt", j."completedAt", j."changeRequestId"
      FROM "GitJob" j LEFT JOIN "GitDelivery" d ON d."jobId" = j.id WHERE j."spaceId" = $1
      UNION ALL
      SELECT d.id, 'import', 'webhook', NULL, d.provider, d."deliveryId", d.ref, d."commitOid",
        CASE WHEN d.result = 'replayed' THEN 'ignored' ELSE d.result END, d.reason, NULL, 0, NULL, d."createdAt", NULL, NULL, NULL
      FROM "GitDelivery" d WHERE d."spaceId" = $1 AND d."jobId" IS NULL) e
    WHERE $2::timestamp IS NULL OR ("createdAt", id) < ($2::timestamp, $3)
    ORDER BY "createdAt" DESC, id DESC LIMIT $4`,
});

/** The key of a log line for the next page's cursor. */
export const logKey = (row: Pick<LogRow, 'createdAt' | 'id'>) => `${row.createdAt.toISOString()}|${row.id}`;

export function webhookStore(database: Database<PrismaClient>) {
  const db = database.prisma;
  return {
    /** Sets the space's webhook, its secret and source replaced. */
    setWebhook: (w: NewWebhook) => db.gitWebhook.upsert({ where: { spaceId: w.spaceId }, create: w, update: w }),

    getWebhook: (spaceId: string) => db.gitWebhook.findUnique({ where: { spaceId } }),

    /** Records a delivery; false when it is a replay of a verified one (nothing recorded). */
    recordDelivery: async (d: NewDelivery): Promise<boolean> =>
      (await sql.changed(database, 'delivery', [
        d.id,
        d.spaceId,
        d.provider,
        d.deliveryId,
        d.event,
        d.ref ?? null,
        d.commitOid ?? null,
        d.result,
        d.reason?.slice(0, 1000) ?? null,
        d.jobId ?? null,
      ])) > 0,

    /** A delivery whose job could not be queued: failed, so that the host's redelivery is taken. */
    deliveryFailed: (jobId: string, reason: string) => db.gitDelivery.update({ where: { jobId }, data: { result: 'failed', reason, jobId: null } }),

    /** Up to `limit` links due a poll, marked polled: this replica polls them. */
    duePolls: (limit: number) => sql.rows<WebhookRow>(database, 'duePolls', [limit]),

    /** The job a push of `commitOid` already queued on the space, unless it failed. */
    jobForCommit: async (spaceId: string, commitOid: string) => (await sql<{ id: string }>(database, 'commitJob', [spaceId, commitOid]))?.id,

    /**
     * Every webhook's secret and credentials sealed again with the current key (those a previous
     * key sealed); answers how many rows changed and the spaces whose values no configured key opens.
     */
    async resealWebhooks(keys: SealingKeys): Promise<{ resealed: number; unreadable: string[] }> {
      const result = { resealed: 0, unreadable: [] as string[] };
      for (const row of await db.gitWebhook.findMany({ select: { spaceId: true, secretSealed: true, credentialsSealed: true } })) {
        try {
          const secret = reseal(row.secretSealed, webhookSecretContext(row.spaceId), keys);
          const credentials = row.credentialsSealed && reseal(row.credentialsSealed, webhookCredentialsContext(row.spaceId), keys);
          if (!secret && !credentials) continue;
          const data = { ...(secret ? { secretSealed: new Uint8Array(secret) } : {}), ...(credentials ? { credentialsSealed: new Uint8Array(credentials) } : {}) };
          // Only if no one set the webhook again meanwhile: that value is already current.
          await db.gitWebhook.updateMany({ where: { spaceId: row.spaceId, secretSealed: row.secretSealed }, data });
          result.resealed++;
        } catch {
          result.unreadable.push(row.spaceId);
        }
      }
      return result;
    },

    /** The space's sync log, newest first, from after the page's key. */
    log(spaceId: string, page: Page): Promise<LogRow[]> {
      const [at, id] = page.after ? splitKey(page.after) : [null, ''];
      return sql.rows<LogRow>(database, 'log', [spaceId, at, id, page.take]);
    },
  };
}

function splitKey(key: string): [string, string] {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)\|(.+)$/.exec(key);
  if (!m) throw new InvalidArgumentError('page: not a cursor this API gave out');
  return [m[1]!, m[2]!];
}
