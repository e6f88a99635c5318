import { credentials, makeGenericClientConstructor, type Client, type ServiceError } from '@grpc/grpc-js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { service as healthService } from 'grpc-health-check';
import type { RouteDeps } from './context.ts';

const HealthClient = makeGenericClientConstructor(healthService, 'Health');

type Check = (req: { service: string }, opts: { deadline: number }, cb: (err: ServiceError | null, res: { status: string }) => void) => void;

/** Asks one service's standard health check, over the channel the gateway already holds. */
function check(client: Client, service: string, timeoutMs: number): Promise<boolean> {
  const health = new HealthClient('unused', credentials.createInsecure(), { channelOverride: client.getChannel() }) as unknown as { check: Check };
  return new Promise((resolve) => {
    health.check({ service }, { deadline: Date.now() + timeoutMs }, (err, res) => resolve(!err && res?.status === 'SERVING'));
  });
}

const Status = Type.Object({ status: Type.String(), services: Type.Optional(Type.Record(Type.String(), Type.String())) });

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services }) => {
  app.get('/healthz', { schema: { hide: true, response: { 200: Status } } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true, response: { 200: Status, 503: Status } } }, async (_req, reply) => {
    const results = await Promise.all(services.channels.map(async (c) => [c.name, await check(c.client, c.name, 1000)] as const));
    const ready = results.every(([, ok]) => ok);
    return reply.code(ready ? 200 : 503).send({
      status: ready ? 'ready' : 'not ready',
      services: Object.fromEntries(results.map(([name, ok]) => [name, ok ? 'serving' : 'unavailable'])),
    });
  });
};

export default routes;
