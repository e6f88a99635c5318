import { ConfigError } from './config.js';

type Step = () => Promise<unknown>;
/** Any pino-shaped logger (a service's, or Fastify's). */
type Log = { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void };

/**
 * Runs a process entry: a config error prints its message and exits 1 (no stack trace to dig
 * through); SIGINT/SIGTERM run the returned close step once, a second signal exits at once.
 */
export async function runProcess(name: string, start: () => Promise<{ log: Log; close: Step }>): Promise<void> {
  let started: { log: Log; close: Step };
  try {
    started = await start();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`${name}: ${err.message}`);
    } else {
      console.error(`${name}: failed to start:`, err);
    }
    process.exit(1);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    started.log.info({ signal }, 'shutting down');
    started.close().then(
      () => process.exit(0),
      (err: unknown) => {
        started.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}
