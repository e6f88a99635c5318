import { PdfTimeoutError } from '@quire/render/pdf';
import { DomainError, GrpcStatus, isServiceError, type Caller, type Logger, type ServiceName } from '@quire/service-kit';
import { ensureQueue, startWorkers, type JobOutcome, type QueueConfig, type Workers } from '@quire/service-kit/job-queue';
import type { NatsConnection } from '@quire/service-kit/nats';
import type { ExportJobMessage, Deps } from '../rpc/deps.ts';
import { boundedSource, exportedPages, exportFormat, exportRevision, fitAnswer } from '../rpc/exports.ts';
import type { ExportJobRow } from '../store/index.ts';

// The export workers: each job renders the revision it was asked for with the export code the
// ExportSpace call uses, as the user who asked (their read access and the bounds checked again
// now), and stores the file on the job. Old jobs are removed once their links are dead.

/** Progress is written at most this often. */
const PROGRESS_EVERY_MS = 500;
/** How often each process removes the jobs past their time. */
const SWEEP_EVERY_MS = 5 * 60_000;

// Failures that may pass on a later delivery (a service restarting); the others are the job's reason.
const TRANSIENT = new Set([GrpcStatus.UNAVAILABLE, GrpcStatus.DEADLINE_EXCEEDED, GrpcStatus.INTERNAL, GrpcStatus.UNKNOWN, GrpcStatus.RESOURCE_EXHAUSTED, GrpcStatus.CANCELLED]);

/** Why the job failed, as its download will answer it; undefined when another delivery may do better. */
function failureOf(err: unknown): { code: number; message: string } | undefined {
  if (err instanceof DomainError && !TRANSIENT.has(err.code)) return { code: err.code, message: err.message };
  if (isServiceError(err) && !TRANSIENT.has(err.code)) return { code: err.code, message: err.details };
  // The same content would take as long again: a bound of its own, named.
  if (err instanceof PdfTimeoutError) return { code: GrpcStatus.INVALID_ARGUMENT, message: `format: the pdf export could not be made: ${err.message}` };
  return undefined;
}

/** Files read so far, written to the job at most every PROGRESS_EVERY_MS; a failed write does not fail the job. */
function filesProgress(deps: Deps, job: ExportJobRow, log: Logger) {
  let done = 0;
  let at = 0;
  // One write at a time, in order: the last one says the most.
  let last = Promise.resolve();
  return {
    read() {
      done++;
      if (Date.now() - at < PROGRESS_EVERY_MS) return;
      at = Date.now();
      const filesDone = done;
      last = last.then(() => deps.store.exportProgress(job, { filesDone })).catch((err: unknown) => log.warn({ err }, 'recording export progress failed'));
    },
    /** Waits for the writes made so far (before the job is recorded done: later ones would be refused). */
    flush: () => last,
    count: () => done,
  };
}

/** Runs one delivery of an export job; its outcome is recorded on the job before the message is acked. */
export async function runExportJob(deps: Deps, msg: ExportJobMessage, lastDelivery: boolean, log: Logger): Promise<JobOutcome> {
  const job = await deps.store.claimExportJob(msg.jobId);
  // Over already (done, failed) or removed: this delivery is a duplicate.
  if (!job) return 'ack';
  const jobLog = log.child({ jobId: job.id, spaceId: job.spaceId, format: job.format, attempt: job.attempt });
  // The user who asked, behind the services their call came through (as when they asked).
  const caller: Caller = { userId: job.userId, chain: job.chain as ServiceName[], requestId: `export-${job.id}` };
  const started = performance.now();
  try {
    const format = exportFormat(job.format);
    const { revision, title, name } = await boundedSource(
      deps,
      { spaceId: job.spaceId, changeRequest: job.changeRequestId || undefined, revisionId: job.revision },
      format,
      caller,
      true,
    );
    const pages = exportedPages(revision).length;
    await deps.store.exportProgress(job, { pagesTotal: pages, filesTotal: revision.files.length, pagesDone: 0, filesDone: 0 });
    const progress = filesProgress(deps, job, jobLog);
    const file = fitAnswer(await exportRevision(deps, revision, format, title, name, caller, { onRead: progress.read, pdfTimeoutMs: deps.exportPdfTimeoutMs }), format);
    await progress.flush();
    const completed = await deps.store.completeExportJob(job, { ...file, pages, files: progress.count() });
    jobLog.info({ ms: Math.round(performance.now() - started), pages, bytes: file.data.length, queuedMs: job.startedAt!.getTime() - job.createdAt.getTime() }, 'export job done');
    return completed ? 'ack' : 'abandon';
  } catch (err) {
    const failure = failureOf(err);
    if (!failure && !lastDelivery) {
      jobLog.warn({ err }, 'export job failed, will retry');
      return 'retry';
    }
    jobLog.info({ reason: failure?.message ?? 'internal error' }, 'export job failed');
    // ABORTED (409): nothing wrong with the content; a new link starts a new job.
    await deps.store.failExportJob(
      job,
      failure ?? { code: GrpcStatus.ABORTED, message: 'The export failed after several attempts (a service it needs did not answer); ask for a new link' },
    );
    return 'ack';
  }
}

/** The export queue made ready, its workers started, and old jobs removed now and every SWEEP_EVERY_MS. */
export async function startExportWorkers(nc: NatsConnection, queue: QueueConfig, count: number, deps: Deps, log: Logger): Promise<Workers> {
  await ensureQueue(nc, queue);
  const sweep = () =>
    deps.store.removeExpiredExports().then(
      (n) => n > 0 && log.info({ removed: n }, 'expired export jobs removed'),
      (err: unknown) => log.warn({ err }, 'removing expired export jobs failed'),
    );
  void sweep();
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  const workers = await startWorkers<ExportJobMessage>(nc, queue, count, 'export', (msg, last) => runExportJob(deps, msg, last, log), log);
  return {
    async stop() {
      clearInterval(timer);
      await workers.stop();
    },
    kill() {
      clearInterval(timer);
      workers.kill();
    },
  };
}
