import type { Logger } from '@quire/service-kit';
import type { JobRow, Store } from '../store/index.ts';

/**
 * Milliseconds spent in each step of a job, for the log line that ends it: wall time, and the
 * process's CPU time meanwhile (git's own processes not included; other jobs' work, when several
 * run at once, is).
 */
export function phaseTimer() {
  const ms: Record<string, number> = {};
  const cpuMs: Record<string, number> = {};
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  return {
    mark: (name: string) => {
      const now = performance.now();
      const cpu = process.cpuUsage(lastCpu);
      ms[name] = Math.round(now - last);
      cpuMs[name] = Math.round((cpu.user + cpu.system) / 1000);
      last = now;
      lastCpu = process.cpuUsage();
    },
    done: () => ({ ms, cpuMs }),
  };
}

export type Mark = (phase: string) => void;

const PROGRESS_EVERY_MS = 500;

/**
 * The job's progress (files processed of total) as it goes: recorded at most every
 * PROGRESS_EVERY_MS, and when the total is known or reached. A failed write does not fail the job.
 */
export function progressOf(store: Store, job: JobRow, log: Logger) {
  let done = 0;
  let total = 0;
  let at = 0;
  // One write at a time, in order: the last one says the most.
  let last = Promise.resolve();
  const write = () => {
    at = Date.now();
    const [d, t] = [done, total];
    last = last.then(() => store.progress(job, d, t)).catch((err: unknown) => log.warn({ err }, 'recording git job progress failed'));
  };
  return {
    /** Waits for the writes made so far (before the job is recorded done: later ones would be refused). */
    flush: () => last,
    total(n: number) {
      total = n;
      write();
    },
    add(n = 1) {
      done = Math.min(total, done + n);
      if (done === total || Date.now() - at >= PROGRESS_EVERY_MS) write();
    },
  };
}

export type Progress = ReturnType<typeof progressOf>;
