import { Type } from '@sinclair/typebox';
import type { ServiceDefinition } from '@grpc/grpc-js';
import { loadConfig, port, serviceConfigFields } from './config.js';
import { createLogger } from './logger.js';
import { runGrpcService } from './service.js';

/**
 * Runs a service whose RPCs have not been built yet: it binds its port and answers the standard
 * health check, so the stack, its probes and the gateway's readiness work end to end meanwhile.
 */
export function runPlaceholderService(opts: { name: string; portVar: string; defaultPort: number; definition: ServiceDefinition; serviceName: string }) {
  return runGrpcService(opts.name, async () => {
    const config = loadConfig(Type.Object(serviceConfigFields));
    // Validated under its own name, so a bad value is reported as, say, CONTENT_PORT.
    const ports: Record<string, unknown> = loadConfig(Type.Object({ [opts.portVar]: port(opts.defaultPort) }));
    return {
      log: createLogger(opts.name, config.LOG_LEVEL),
      host: config.GRPC_HOST,
      port: ports[opts.portVar] as number,
      services: [{ definition: opts.definition, implementation: {}, name: opts.serviceName }],
    };
  });
}
