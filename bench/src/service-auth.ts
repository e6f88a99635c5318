import { OrgsServiceClient, OrgsServiceService, TokenScope, type OrgsServiceServer } from '@quire/proto/orgs';
import { createClient, createLogger, implement, promiseClient, startGrpcServer, type Handlers } from '@quire/service-kit';
import { testIdentity } from '@quire/service-kit/testing';
import { percentiles, writeResult } from './lib/results.ts';

// What a signed service assertion adds to a gRPC call: signing and verifying one (a new user and
// audience, or a renewal every 30 s), the cached path every other call takes, and a loopback
// round trip through the verifying interceptor for scale. In-process, bounded, a few seconds.

const COLD = Number(process.env.BENCH_COLD ?? 3000);
const CACHED = Number(process.env.BENCH_CACHED ?? 200_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 3000);

const gateway = testIdentity('gateway');
const content = testIdentity('content');

/** Runs `op` n times one after the other: operations per second and microseconds per operation. */
async function rate(n: number, op: (i: number) => Promise<unknown>) {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await op(i);
  const ms = performance.now() - t0;
  return { perSecond: Math.round((n / ms) * 1000), microseconds: Math.round((ms / n) * 1000 * 100) / 100 };
}

// Every user new: nothing cached on either side.
const tokens: string[] = [];
const sign = await rate(COLD, async (i) => tokens.push(await gateway.sign('content', { userId: `cold-${i}` })));
const verify = await rate(COLD, (i) => content.verify(tokens[i]!));
// The steady state: one user's assertion, signed and verified once, then served from both caches.
await content.verify(await gateway.sign('content', { userId: 'warm' }));
const cached = await rate(CACHED, async () => content.verify(await gateway.sign('content', { userId: 'warm' })));

// A loopback server running the interceptor, answering from the verified caller. Typed as the
// service's handlers: an answer missing a field of the proto fails to serialize at run time.
const log = createLogger('bench', 'silent');
const handlers: Partial<Handlers<OrgsServiceServer>> = {
  authenticate: async (_req, ctx) => ({ userId: ctx.userId ?? '', scope: TokenScope.TOKEN_SCOPE_READ }),
};
const server = await startGrpcServer({
  host: '127.0.0.1',
  port: 0,
  services: [
    {
      definition: OrgsServiceService,
      implementation: implement(handlers as Handlers<OrgsServiceServer>, log),
      name: 'bench',
    },
  ],
  identity: content,
  log,
});
const client = createClient(OrgsServiceClient, `127.0.0.1:${server.port}`);
const stub = promiseClient(client, OrgsServiceService, { identity: gateway, audience: 'content' });
const times: number[] = [];
for (let i = 0; i < CALLS + 200; i++) {
  const t0 = performance.now();
  await stub.authenticate({ token: '' }, { userId: 'warm' });
  if (i >= 200) times.push(performance.now() - t0);
}
client.close();
await server.shutdown(1000);

writeResult('service-auth', {
  date: new Date().toISOString(),
  signUncached: sign,
  verifyUncached: verify,
  signAndVerifyCached: cached,
  loopbackCallMs: percentiles(times),
});
