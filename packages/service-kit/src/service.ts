import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { loadServiceIdentity, type ServiceIdentity } from './assertion.js';
import type { ServiceName } from './callers.js';
import { startGrpcServer, type ServiceBinding } from './grpc.js';
import type { HealthChecks } from './health.js';
import { runProcess } from './lifecycle.js';
import { createLogger, type Logger } from './logger.js';
import { startMetricsServer } from './metrics.js';
import { startTracing } from './tracing.js';

/** The settings every service has (`serviceConfigFields`). */
export interface ServiceSettings {
  LOG_LEVEL: string;
  GRPC_HOST: string;
  METRICS_PORT?: number;
  QUIRE_SERVICE_KEY?: string;
  QUIRE_SERVICE_KEY_FILE?: string;
  QUIRE_SERVICE_TRUST?: string;
  QUIRE_SERVICE_TRUST_FILE?: string;
}

/** What a service's composition root (`compose` in its `src/main.ts`) builds: its gRPC services, the stores its health needs, and the steps that close it, in order. */
export interface ComposedService {
  services: ServiceBinding[];
  checks?: HealthChecks;
  close: (() => unknown)[];
}

/** True when `moduleUrl` (a module's `import.meta.url`) is the script node was started with, not a module a test imported. */
export function isProcessEntry(moduleUrl: string): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return pathToFileURL(realpathSync(script)).href === moduleUrl;
  } catch {
    return false;
  }
}

/**
 * The process of gRPC service `name`, when `entry` (its `src/main.ts`) is what node runs: its
 * settings loaded, its logger and identity made, `compose` building the rest, the server bound on
 * `port`. On SIGINT/SIGTERM it drains in-flight calls before the composed close steps run, in
 * their order. `/metrics` and `/readyz` answer on METRICS_PORT (the gRPC port + 1000 by default).
 * Imported anywhere else (a test harness composing the service itself), it does nothing.
 */
export async function serveGrpcService<C extends ServiceSettings>(
  entry: string,
  name: ServiceName,
  settings: { load: () => C; port: (config: C) => number },
  compose: (config: C, identity: ServiceIdentity, log: Logger) => Promise<ComposedService>,
): Promise<void> {
  if (!isProcessEntry(entry)) return;
  await runProcess(name, async () => {
    // Before the service opens anything, so that its first calls are traced too.
    const stopTracing = await startTracing(name);
    const config = settings.load();
    const log = createLogger(name, config.LOG_LEVEL);
    const identity = loadServiceIdentity(name, config);
    const composed = await compose(config, identity, log);
    const grpc = await startGrpcServer({ host: config.GRPC_HOST, port: settings.port(config), services: composed.services, identity, log, checks: composed.checks });
    // The checks run before the port says ready: a process whose stores are away never looks ready.
    await grpc.checkHealth();
    const side = await startMetricsServer(config.GRPC_HOST, config.METRICS_PORT ?? grpc.port + 1000, grpc.ready);
    log.info({ port: side.port }, 'metrics and readiness on /metrics, /readyz');
    return {
      log,
      async close() {
        await side.close();
        await grpc.shutdown();
        for (const step of composed.close) await step();
        await stopTracing?.();
      },
    };
  });
}
