import type { HealthImplementation } from 'grpc-health-check';
import type { Logger } from './logger.js';

/** What a service depends on, by name (`database`, `nats`): each answers or throws. */
export type HealthChecks = Record<string, () => Promise<unknown>>;

const timeout = (ms: number) =>
  new Promise<never>((_, reject) => {
    setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref();
  });

/**
 * Asks every dependency every `intervalMs` and sets the standard health service to SERVING only
 * while all of them answered, so probes and callers stop sending work to a process whose database
 * or NATS is gone. Logs each change once.
 */
export function monitorHealth(
  health: HealthImplementation,
  names: string[],
  checks: HealthChecks,
  log: Logger,
  intervalMs = 5000,
): { ready(): boolean; checkNow(): Promise<boolean>; stop(): void } {
  let ready = true;
  const set = (ok: boolean, failures: Record<string, string>) => {
    if (ok !== ready) {
      if (ok) log.info('dependencies answer again: serving');
      else log.error({ failures }, 'a dependency does not answer: not serving');
    }
    ready = ok;
    for (const n of names) health.setStatus(n, ok ? 'SERVING' : 'NOT_SERVING');
  };
  let stopped = false;
  const checkNow = async () => {
    const results = await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          await Promise.race([check(), timeout(Math.max(1000, intervalMs - 500))]);
          return undefined;
        } catch (err) {
          return [name, err instanceof Error ? err.message : String(err)] as const;
        }
      }),
    );
    const failures = Object.fromEntries(results.filter((r) => r !== undefined));
    if (!stopped) set(Object.keys(failures).length === 0, failures);
    return ready;
  };
  const timer = setInterval(() => void checkNow(), intervalMs);
  timer.unref();
  return {
    ready: () => ready,
    checkNow,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
