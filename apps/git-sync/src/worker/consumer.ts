import { timeJob, type Logger } from '@quire/service-kit';
import { ensurePullConsumer, ensureStream, STREAMS, traceHeaders, traceMessage, type NatsConnection } from '@quire/service-kit/nats';
import { AckPolicy, JSONCodec, type JsMsg } from 'nats';
import { runJob, type JobMessage, type RunnerDeps } from './jobs.ts';

export interface QueueConfig {
  subject: string;
  consumer: string;
  ackWaitMs: number;
  maxDeliver: number;
  /** Removes the consumer after this long without a worker pulling (test runs that died); never when unset. */
  inactiveMs?: number;
}

const codec = JSONCodec<JobMessage>();
const ms = (n: number) => n * 1_000_000;

/** The JOBS stream and this service's durable consumer on its subject, created or brought up to date. */
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
export async function publishJob(nc: NatsConnection, subject: string, msg: JobMessage): Promise<void> {
  await nc.jetstream().publish(subject, codec.encode(msg), { msgID: msg.jobId, headers: traceHeaders() });
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
 * once its outcome is recorded. A message not acked is redelivered after the ack wait.
 */
export async function startWorkers(nc: NatsConnection, q: QueueConfig, count: number, deps: RunnerDeps, log: Logger): Promise<Workers> {
  const consumer = await nc.jetstream().consumers.get(STREAMS.jobs.name, q.consumer);
  let stopped = false;
  let killed = false;
  const beats = new Set<NodeJS.Timeout>();

  const handle = async (m: JsMsg) => {
    let msg: JobMessage;
    try {
      msg = codec.decode(m.data);
    } catch {
      log.warn({ seq: m.seq }, 'unreadable job message dropped');
      m.term();
      return;
    }
    const beat = setInterval(() => m.working(), Math.max(100, q.ackWaitMs / 3));
    beats.add(beat);
    const timed = timeJob('git-sync');
    try {
      const outcome = await traceMessage('git-sync job', m.headers, () => runJob(deps, msg, m.info.redeliveryCount >= q.maxDeliver));
      timed(outcome);
      if (killed) return;
      if (outcome === 'ack') await m.ackAck();
      else if (outcome === 'retry') m.nak(Math.min(60_000, 1000 * 2 ** m.info.redeliveryCount));
      // 'abandon': another delivery holds the job; this one is left to expire.
    } catch (err) {
      // The job's state could not be read or written (database down): try again later.
      timed('error');
      log.error({ err, jobId: msg.jobId }, 'git job delivery failed');
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
        log.warn({ err }, 'fetching a git job failed');
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      // Fetched while stopping: back to the stream at once rather than after the ack wait.
      if (m && stopped) m.nak();
      else if (m) await handle(m);
    }
  };
  const loops = Array.from({ length: count }, loop);
  log.info({ workers: count, subject: q.subject, consumer: q.consumer }, 'git-sync workers started');
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
