import fp from 'fastify-plugin';
import { observeHttp } from './metrics.js';
import { traceHttpRequest } from './tracing.js';

declare module 'fastify' {
  interface FastifyRequest {
    telemetry?: { started: number; endSpan?: (route: string, status: number) => void };
  }
}

/**
 * For the gateway and the reader alike (one piece, one series): every request's duration by method, route pattern and status (Prometheus), and its span when
 * tracing is on: the route's service calls run inside it and carry it on.
 */
export default fp(async (app) => {
  app.addHook('onRequest', (req, _reply, done) => {
    const telemetry: NonNullable<typeof req.telemetry> = { started: performance.now() };
    req.telemetry = telemetry;
    // The rest of the request (hooks, handler) runs inside `done`, hence inside the span.
    telemetry.endSpan = traceHttpRequest(req.method, req.headers, done);
  });
  app.addHook('onResponse', async (req, reply) => {
    const t = req.telemetry;
    if (!t) return;
    // The route's pattern, not its path: ids would make a series per object.
    const route = req.routeOptions.url ?? 'unmatched';
    observeHttp(req.method, route, reply.statusCode, (performance.now() - t.started) / 1000);
    t.endSpan?.(route, reply.statusCode);
  });
});
