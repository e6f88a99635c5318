import { credentials, makeGenericClientConstructor, type Client, type ServiceError } from '@grpc/grpc-js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { service as healthService } from 'grpc-health-check';
import { SERVICE_NAMES } from '@quire/proto';
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

// Every request is authenticated by orgs, and most read spaces from content: without them the API
// cannot answer, so the gateway is not ready. The others serve their own routes only: when one is
// away those answer 503 and readiness says `degraded`, but the API stays in service.
const REQUIRED = new Set<string>([SERVICE_NAMES.orgs, SERVICE_NAMES.content, SERVICE_NAMES.spaceContent]);

const Status = Type.Object({ status: Type.String(), services: Type.Optional(Type.Record(Type.String(), Type.String())) });

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services }) => {
  app.get('/healthz', { schema: { hide: true, response: { 200: Status } } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true, response: { 200: Status, 503: Status } } }, async (_req, reply) => {
    const results = await Promise.all(services.channels.map(async (c) => [c.name, await check(c.client, c.name, 1000)] as const));
    const ready = results.every(([name, ok]) => ok || !REQUIRED.has(name));
    const complete = results.every(([, ok]) => ok);
    return reply.code(ready ? 200 : 503).send({
      status: !ready ? 'not ready' : complete ? 'ready' : 'degraded',
      services: Object.fromEntries(results.map(([name, ok]) => [name, ok ? 'serving' : 'unavailable'])),
    });
  });
};

export default routes;
