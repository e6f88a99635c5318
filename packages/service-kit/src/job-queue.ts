import { AckPolicy, JSONCodec, type JsMsg, type NatsConnection } from 'nats';
import type { Logger } from './logger.js';
import { timeJob } from './metrics.js';
import { ensurePullConsumer, ensureStream, STREAMS, traceHeaders, traceMessage } from './nats.js';

// A service's jobs on the JOBS work-queue stream: a durable pull consumer shared by every replica,
// each message a job whose state the service keeps in its own database (the message only names it).

export interface QueueConfig {
  subject: string;
  consumer: string;
  ackWaitMs: number;
  maxDeliver: number;
  /** Removes the consumer after this long without a worker pulling (test runs that died); never when unset. */
  inactiveMs?: number;
}

/** What the worker does with a message: ack it, let it be redelivered later, or drop it (another delivery has the job). */
export type JobOutcome = 'ack' | 'retry' | 'abandon';

/** Runs one delivery of a job; `lastDelivery` when no redelivery will follow a retry. */
export type JobRunner<M> = (msg: M, lastDelivery: boolean) => Promise<JobOutcome>;

const ms = (n: number) => n * 1_000_000;

/** The JOBS stream and the durable consumer on the queue's subject, created or brought up to date. */
export async function ensureQueue(nc: NatsConnection, q: QueueConfig): Promise<void> {
  await ensureStream(nc, STREAMS.jobs);
  await ensurePullConsumer(nc, STREAMS.jobs.name, {
    durable_name: q.consumer,
    filter_subject: q.subject,
    ack_policy: AckPolicy.Explicit,
    ack_wait: ms(q.ackWaitMs),
    max_deliver: q.maxDeliver,
    ...(q.inactiveMs ? { inactive_threshold: ms(q.inactiveMs) } : {}),
  });
}

/** Puts a job on the stream and waits for JetStream to have stored it. The job id is the message id: a retried publish is one message. */
export async function publishJob<M extends { jobId: string }>(nc: NatsConnection, subject: string, msg: M): Promise<void> {
  await nc.jetstream().publish(subject, JSONCodec<M>().encode(msg), { msgID: msg.jobId, headers: traceHeaders() });
}

export interface Workers {
  /** Stops taking jobs and waits for the running ones. */
  stop(): Promise<void>;
  /** Stops at once as a killed process would: running jobs are neither acked nor extended (fault tests). */
  kill(): void;
}

/**
 * `count` loops, each taking one message at a time from the shared durable consumer (so any number
 * of replicas share the jobs), extending the ack deadline while the job runs and acking only
 * once `run` says its outcome is recorded. A message not acked is redelivered after the ack wait.
 * `kind` names the jobs in metrics, traces and logs.
 */
export async function startWorkers<M extends { jobId: string }>(nc: NatsConnection, q: QueueConfig, count: number, kind: string, run: JobRunner<M>, log: Logger): Promise<Workers> {
  const consumer = await nc.jetstream().consumers.get(STREAMS.jobs.name, q.consumer);
  const codec = JSONCodec<M>();
  let stopped = false;
  let killed = false;
  const beats = new Set<NodeJS.Timeout>();

  const handle = async (m: JsMsg) => {
    let msg: M;
    try {
      msg = codec.decode(m.data);
    } catch {
      log.warn({ seq: m.seq }, `unreadable ${kind} job message dropped`);
      m.term();
      return;
    }
    const beat = setInterval(() => m.working(), Math.max(100, q.ackWaitMs / 3));
    beats.add(beat);
    const timed = timeJob(kind);
    try {
      const outcome = await traceMessage(`${kind} job`, m.headers, () => run(msg, m.info.redeliveryCount >= q.maxDeliver));
      timed(outcome);
      if (killed) return;
      if (outcome === 'ack') await m.ackAck();
      else if (outcome === 'retry') m.nak(Math.min(60_000, 1000 * 2 ** m.info.redeliveryCount));
      // 'abandon': another delivery holds the job; this one is left to expire.
    } catch (err) {
      // The job's state could not be read or written (database down): try again later.
      timed('error');
      log.error({ err, jobId: msg.jobId }, `${kind} job delivery failed`);
      if (!killed) m.nak(5000);
    } finally {
      clearInterval(beat);
      beats.delete(beat);
    }
  };

  const loop = async () => {
    while (!stopped) {
      let m: JsMsg | null;
      try {
        m = await consumer.next({ expires: 2000 });
      } catch (err) {
        if (stopped) return;
        log.warn({ err }, `fetching a ${kind} job failed`);
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      // Fetched while stopping: back to the stream at once rather than after the ack wait.
      if (m && stopped) m.nak();
      else if (m) await handle(m);
    }
  };
  const loops = Array.from({ length: count }, loop);
  log.info({ workers: count, subject: q.subject, consumer: q.consumer }, `${kind} workers started`);
  return {
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
    kill() {
      stopped = true;
      killed = true;
      for (const b of beats) clearInterval(b);
      beats.clear();
    },
  };
}
