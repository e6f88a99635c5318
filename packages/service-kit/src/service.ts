import { startGrpcServer, type ServiceBinding } from './grpc.js';
import { runProcess } from './lifecycle.js';
import type { Logger } from './logger.js';

/**
 * A gRPC service process: `start` opens what the service needs and names what to close; the
 * server then binds, and on SIGINT/SIGTERM it drains in-flight calls before those are closed,
 * in the order given.
 */
export function runGrpcService(
  name: string,
  start: () => Promise<{ log: Logger; host: string; port: number; services: ServiceBinding[]; close?: (() => unknown)[] }>,
): Promise<void> {
  return runProcess(name, async () => {
    const s = await start();
    const grpc = await startGrpcServer({ host: s.host, port: s.port, services: s.services, log: s.log });
    return {
      log: s.log,
      async close() {
        await grpc.shutdown();
        for (const step of s.close ?? []) await step();
      },
    };
  });
}
