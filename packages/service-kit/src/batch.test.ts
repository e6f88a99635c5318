import { setTimeout as sleep } from 'node:timers/promises';
import { Metadata, Server, ServerCredentials, status, type ServiceError } from '@grpc/grpc-js';
import { OrgsServiceClient, OrgsServiceService, TokenScope, type AuthenticateRequest, type AuthenticateResponse } from '@quire/proto/orgs';
import { BatchServiceService, type CallResponse, type InnerCall } from '@quire/proto/rpc';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_CALLS_PER_BATCH } from './batch.js';
import type { CallContext } from './context.js';
import { httpErrorFor, isServiceError, NotFoundError } from './errors.js';
import { createClient, promiseClient } from './client.js';
import { implement } from './grpc.js';
import { createLogger } from './logger.js';
import { testIdentity } from './testing/index.js';
import { startStandIn } from './testing/stand-in.js';

// A stand-in `content` server whose one RPC (orgs' Authenticate, for its small messages) answers
// what its handler saw: "user|chain|request id". The token steers it: `missing` fails with a
// domain error, `slow:<ms>` answers after that long.
const log = createLogger('batch-test', 'silent');
let ran = 0;
const handlers = {
  authenticate: async ({ token }: AuthenticateRequest, ctx: CallContext): Promise<AuthenticateResponse> => {
    ran++;
    if (token === 'missing') throw new NotFoundError('No such thing', 'thing_not_found');
    if (token.startsWith('slow:')) await sleep(Number(token.slice(5)));
    return { userId: `${ctx.userId ?? ''}|${ctx.chain.join('>')}|${ctx.requestId}`, scope: TokenScope.TOKEN_SCOPE_READ };
  },
};

let client: OrgsServiceClient;
let stop: () => Promise<void>;
const gateway = testIdentity('gateway');
const AUTHENTICATE = OrgsServiceService.authenticate;
const BATCH = BatchServiceService.call;

beforeAll(async () => {
  ({ client, stop } = await startStandIn(handlers, log));
});

afterAll(() => stop());

beforeEach(() => {
  ran = 0;
  vi.restoreAllMocks();
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the call succeeded'),
    (err: unknown) => err as ServiceError,
  );

describe('calls made together', () => {
  it('travel as one gRPC call, each answered as its own caller', async () => {
    const orgs = promiseClient(client, OrgsServiceService, { identity: gateway, audience: 'content' });
    // Assertions signed beforehand: a first signature finishes in a later turn of the event loop.
    await Promise.all(['u1', 'u2', 'u3'].map((userId) => gateway.sign('content', { userId })));
    const batches = vi.spyOn(client, 'makeServerStreamRequest');
    const alone = vi.spyOn(client, 'makeUnaryRequest');
    const answers = await Promise.all(['u1', 'u2', 'u3'].map((userId, i) => orgs.authenticate({ token: 'x' }, { userId, requestId: `r${i}` })));
    expect(answers.map((a) => a.userId)).toEqual(['u1|gateway|r0', 'u2|gateway|r1', 'u3|gateway|r2']);
    expect(batches).toHaveBeenCalledTimes(1);
    expect(alone).not.toHaveBeenCalled();
    // A call on its own goes as a plain unary call.
    expect((await orgs.authenticate({ token: 'x' }, { userId: 'u4', requestId: 'r4' })).userId).toBe('u4|gateway|r4');
    expect(alone).toHaveBeenCalledTimes(1);
    expect(batches).toHaveBeenCalledTimes(1);
  });

  it('keep their own status, message and error id', async () => {
    const orgs = promiseClient(client, OrgsServiceService, { identity: gateway, audience: 'content' });
    const [ok, err] = await Promise.all([orgs.authenticate({ token: 'x' }, { userId: 'u1' }), failure(orgs.authenticate({ token: 'missing' }, { userId: 'u1' }))]);
    expect(ok.userId).toMatch(/^u1\|gateway\|/);
    expect(isServiceError(err)).toBe(true);
    expect(err.code).toBe(status.NOT_FOUND);
    expect(err.details).toBe('No such thing');
    expect(err.metadata.get('x-quire-error-id')).toEqual(['thing_not_found']);
    expect(httpErrorFor(err)).toEqual({ statusCode: 404, message: 'No such thing' });
  });

  it('are answered as each finishes: a slow call never holds up a fast one', async () => {
    const orgs = promiseClient(client, OrgsServiceService, { identity: gateway, audience: 'content' });
    const started = performance.now();
    const finished: Record<string, number> = {};
    await Promise.all(['slow:400', 'x'].map((token) => orgs.authenticate({ token }, {}).then(() => (finished[token] = performance.now() - started))));
    expect(finished.x!).toBeLessThan(200);
    expect(finished['slow:400']!).toBeGreaterThanOrEqual(390);
  });

  it('keep their deadline', async () => {
    const orgs = promiseClient(client, OrgsServiceService, { identity: gateway, audience: 'content' }, 100);
    const errors = await Promise.all([failure(orgs.authenticate({ token: 'slow:1000' }, {})), failure(orgs.authenticate({ token: 'slow:1000' }, {}))]);
    expect(errors.map((e) => e.code)).toEqual([status.DEADLINE_EXCEEDED, status.DEADLINE_EXCEEDED]);
  });

  it('go one by one to a server from before batches, and keep going alone for a while', async () => {
    const old = new Server({ interceptors: [testIdentity('content').interceptor()] });
    old.addService(OrgsServiceService, implement(handlers as never, log));
    const port = await new Promise<number>((resolve, reject) => old.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
    const oldClient = createClient(OrgsServiceClient, `127.0.0.1:${port}`);
    try {
      const orgs = promiseClient(oldClient, OrgsServiceService, { identity: gateway, audience: 'content' });
      await Promise.all(['u1', 'u2'].map((userId) => gateway.sign('content', { userId })));
      const batches = vi.spyOn(oldClient, 'makeServerStreamRequest');
      const together = () => Promise.all(['u1', 'u2'].map((userId) => orgs.authenticate({ token: 'x' }, { userId })));
      expect((await together()).map((a) => a.userId.split('|')[0])).toEqual(['u1', 'u2']);
      expect(batches).toHaveBeenCalledTimes(1);
      expect((await together()).map((a) => a.userId.split('|')[0])).toEqual(['u1', 'u2']);
      expect(batches).toHaveBeenCalledTimes(1);
    } finally {
      oldClient.close();
      old.forceShutdown();
    }
  });
});

describe('calls on a closed channel', () => {
  it('fail, together or alone, and the process goes on', async () => {
    const closed = createClient(OrgsServiceClient, `127.0.0.1:${client.getChannel().getTarget().split(':').pop()}`);
    closed.close();
    const orgs = promiseClient(closed, OrgsServiceService, { identity: gateway, audience: 'content' });
    const together = await Promise.allSettled([orgs.authenticate({ token: 'x' }, {}), orgs.authenticate({ token: 'x' }, {})]);
    const alone = await Promise.allSettled([orgs.authenticate({ token: 'x' }, {})]);
    for (const outcome of [...together, ...alone]) {
      expect(outcome.status).toBe('rejected');
      expect(String((outcome as PromiseRejectedResult).reason)).toMatch(/shut down|closed/i);
    }
  });
});

// What an attacker on the network could send: batches made by hand.
async function sendBatch(calls: InnerCall[], metadata?: Metadata): Promise<CallResponse[]> {
  const outer = metadata ?? (await gateway.metadata('content', {}));
  const stream = client.makeServerStreamRequest(BATCH.path, BATCH.requestSerialize, BATCH.responseDeserialize, { calls }, outer, { deadline: Date.now() + 5000 });
  const results: CallResponse[] = [];
  return new Promise((resolve, reject) => {
    stream.on('data', (r: CallResponse) => results.push(r));
    stream.on('error', reject);
    stream.on('end', () => resolve(results.sort((a, b) => a.index - b.index)));
  });
}

async function inner(headers: Metadata | undefined, token = 'x', method: string = AUTHENTICATE.path): Promise<InnerCall> {
  const md = headers ?? new Metadata();
  return {
    method,
    request: AUTHENTICATE.requestSerialize({ token }),
    headers: Object.entries(md.getMap()).map(([key, value]) => ({ key, value: String(value) })),
  };
}

describe('a batch made by hand', () => {
  it('is refused whole without a service assertion of its own', async () => {
    const err = (await sendBatch([await inner(await gateway.metadata('content', { userId: 'u1' }))], new Metadata()).catch((e: unknown) => e)) as ServiceError;
    expect(err.code).toBe(status.UNAUTHENTICATED);
    expect(ran).toBe(0);
  });

  it('answers an inner call without an assertion, or signed by another service, UNAUTHENTICATED and runs the rest', async () => {
    const results = await sendBatch([
      await inner(await gateway.metadata('content', { userId: 'u1' })),
      await inner(undefined),
      await inner(await testIdentity('review').metadata('content', { userId: 'admin', chain: ['gateway'] })),
    ]);
    expect(results.map((r) => r.code)).toEqual([status.OK, status.UNAUTHENTICATED, status.UNAUTHENTICATED]);
    expect(AUTHENTICATE.responseDeserialize(results[0]!.response).userId).toMatch(/^u1\|gateway\|/);
    expect(results[1]!.details).toMatch(/no service assertion/);
    expect(results[2]!.details).toMatch(/signed by the service that sent it/);
    expect(ran).toBe(1);
  });

  it('answers an unknown method, a health check, an undecodable request and a bad header each on its own', async () => {
    const md = await gateway.metadata('content', { userId: 'u1' });
    const garbage = { ...(await inner(md)), request: Buffer.from([0xff, 0xff, 0xff]) };
    const badHeader = await inner(md);
    badHeader.headers.push({ key: 'Not A Key', value: 'x' });
    const results = await sendBatch([await inner(md, 'x', '/quire.orgs.v1.OrgsService/Nope'), await inner(md, 'x', '/grpc.health.v1.Health/Check'), garbage, badHeader]);
    expect(results.map((r) => r.code)).toEqual([status.UNIMPLEMENTED, status.UNIMPLEMENTED, status.INVALID_ARGUMENT, status.INVALID_ARGUMENT]);
    expect(ran).toBe(0);
  });

  it(`refuses more than ${MAX_CALLS_PER_BATCH} calls before running any`, async () => {
    const one = await inner(await gateway.metadata('content', { userId: 'u1' }));
    const err = (await sendBatch(Array.from({ length: MAX_CALLS_PER_BATCH + 1 }, () => one)).catch((e: unknown) => e)) as ServiceError;
    expect(err.code).toBe(status.INVALID_ARGUMENT);
    expect(err.details).toMatch(/at most 64 calls/);
    expect(ran).toBe(0);
    expect(await sendBatch(Array.from({ length: MAX_CALLS_PER_BATCH }, () => one))).toHaveLength(MAX_CALLS_PER_BATCH);
  });
});
