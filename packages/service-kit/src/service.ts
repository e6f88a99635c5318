import type { ServiceIdentity } from './assertion.js';
import { startGrpcServer, type ServiceBinding } from './grpc.js';
import type { HealthChecks } from './health.js';
import { runProcess } from './lifecycle.js';
import type { Logger } from './logger.js';
import { startMetricsServer } from './metrics.js';
import { startTracing } from './tracing.js';

/**
 * A gRPC service process: `start` opens what the service needs and names what to close; the
 * server then binds, and on SIGINT/SIGTERM it drains in-flight calls before those are closed,
 * in the order given. `checks` name the stores it needs: its health is SERVING only while they
 * answer. `/metrics` and `/readyz` answer on `metricsPort` (the gRPC port + 1000 by default).
 */
export function runGrpcService(
  name: string,
  start: () => Promise<{
    log: Logger;
    host: string;
    port: number;
    metricsPort?: number;
    identity: ServiceIdentity;
    services: ServiceBinding[];
    checks?: HealthChecks;
    close?: (() => unknown)[];
  }>,
): Promise<void> {
  return runProcess(name, async () => {
    // Before the service opens anything, so that its first calls are traced too.
    const stopTracing = await startTracing(name);
    const s = await start();
    const grpc = await startGrpcServer({ host: s.host, port: s.port, services: s.services, identity: s.identity, log: s.log, checks: s.checks });
    // The checks run before the port says ready: a process whose stores are away never looks ready.
    await grpc.checkHealth();
    const side = await startMetricsServer(s.host, s.metricsPort ?? grpc.port + 1000, grpc.ready);
    s.log.info({ port: side.port }, 'metrics and readiness on /metrics, /readyz');
    return {
      log: s.log,
      async close() {
        await side.close();
        await grpc.shutdown();
        for (const step of s.close ?? []) await step();
        await stopTracing?.();
      },
    };
  });
}
