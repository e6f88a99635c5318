import { setTimeout as sleep } from 'node:timers/promises';
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { OrgsServiceService, TokenScope, type AuthenticateRequest, type AuthenticateResponse } from '@quire/proto/orgs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { promiseClient } from './client.js';
import { deadlineMiddleware, errorRelayMiddleware, type ClientCall } from './client-middleware.js';
import type { CallContext } from './context.js';
import { INTERNAL_MESSAGE, serviceError } from './errors.js';
import { createLogger, type Logger } from './logger.js';
import { testIdentity } from './testing/index.js';
import { startStandIn } from './testing/stand-in.js';

// A stand-in `content` server (orgs' Authenticate for its small messages) answering what its
// handler saw: "user|chain|request id|deadline". `slow:<ms>` answers after that long.
const log = createLogger('client-middleware-test', 'silent');
const handlers = {
  authenticate: async ({ token }: AuthenticateRequest, ctx: CallContext): Promise<AuthenticateResponse> => {
    if (token.startsWith('slow:')) await sleep(Number(token.slice(5)));
    return { userId: `${ctx.userId ?? ''}|${ctx.chain.join('>')}|${ctx.requestId}|${ctx.deadline ?? ''}`, scope: TokenScope.TOKEN_SCOPE_READ };
  },
};

let standIn: Awaited<ReturnType<typeof startStandIn>>;
beforeAll(async () => {
  standIn = await startStandIn(handlers, log);
});
afterAll(() => standIn.stop());

const seen = (answer: AuthenticateResponse) => {
  const [user, chain, requestId, deadline] = answer.userId.split('|');
  return { user, chain, requestId, deadline: deadline ? Number(deadline) : undefined };
};
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the call succeeded'),
    (err: unknown) => err as ServiceError,
  );

describe('identity', () => {
  it('signs every call for its callee, which verifies the user and the chain of services', async () => {
    const content = promiseClient(standIn.client, OrgsServiceService, { identity: testIdentity('review'), audience: 'content', log });
    const answer = seen(await content.authenticate({ token: 'x' }, { userId: 'u1', chain: ['gateway'], requestId: 'r1' }));
    expect(answer).toMatchObject({ user: 'u1', chain: 'gateway>review', requestId: 'r1' });
  });

  it('is refused by a server that is not the audience it signed for, and the refusal passes on as it is', async () => {
    const wrong = promiseClient(standIn.client, OrgsServiceService, { identity: testIdentity('gateway'), audience: 'orgs', log });
    const err = await failure(wrong.authenticate({ token: 'x' }, { requestId: 'r2' }));
    expect(err.code).toBe(status.UNAUTHENTICATED);
    expect(err.details).toContain('service assertion is not valid');
  });
});

describe('deadline', () => {
  const content = () => promiseClient(standIn.client, OrgsServiceService, { identity: testIdentity('gateway'), audience: 'content', log }, 5_000);

  it('is the RPC time bound when the caller has no deadline, and reaches the server', async () => {
    const before = Date.now();
    const { deadline } = seen(await content().authenticate({ token: 'x' }, {}));
    expect(deadline).toBeGreaterThanOrEqual(before + 5_000 - 50);
    expect(deadline).toBeLessThanOrEqual(Date.now() + 5_000 + 50);
  });

  it("is the caller's own when sooner, for calls alone and in a batch", async () => {
    const callerDeadline = Date.now() + 2_000;
    const client = content();
    const answers = await Promise.all([1, 2, 3].map(() => client.authenticate({ token: 'x' }, { deadline: callerDeadline })));
    for (const answer of answers) expect(Math.abs(seen(answer).deadline! - callerDeadline)).toBeLessThan(50);
  });

  it('ends a call when what is left of the caller deadline runs out, long before the RPC time bound', async () => {
    const started = Date.now();
    const err = await failure(content().authenticate({ token: 'slow:1000' }, { deadline: Date.now() + 150 }));
    expect(err.code).toBe(status.DEADLINE_EXCEEDED);
    expect(err.details).toBe('A service this call needs did not answer in time');
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('keeps the RPC time bound when the caller deadline is later', async () => {
    const next = vi.fn(async (call: ClientCall) => call.deadline);
    const call = { timeoutMs: 1_000, caller: { deadline: Date.now() + 60_000 } } as ClientCall;
    expect(await deadlineMiddleware(call, next)).toBeUndefined();
  });
});

describe('error relay', () => {
  const warn = vi.fn();
  const relay = errorRelayMiddleware({ warn } as unknown as Logger);
  const failWith = (code: status, details: string) => relay({ method: { path: '/x.Y/Z' }, caller: {} } as ClientCall, () => Promise.reject(serviceError(code, details)));

  it.each([
    [status.NOT_FOUND, 'space "s1" not found', status.NOT_FOUND, 'space "s1" not found', false],
    [status.INVALID_ARGUMENT, 'title: too long', status.INVALID_ARGUMENT, 'title: too long', false],
    [status.FAILED_PRECONDITION, 'the change request is merged', status.FAILED_PRECONDITION, 'the change request is merged', false],
    [status.ALREADY_EXISTS, 'taken', status.ALREADY_EXISTS, 'taken', false],
    [status.PERMISSION_DENIED, 'You need the edit permission', status.PERMISSION_DENIED, 'You need the edit permission', false],
    [status.RESOURCE_EXHAUSTED, 'too many', status.RESOURCE_EXHAUSTED, 'too many', false],
    [status.ABORTED, 'changed meanwhile', status.ABORTED, 'changed meanwhile', false],
    [status.UNAUTHENTICATED, 'no assertion', status.UNAUTHENTICATED, 'no assertion', false],
    [status.UNAVAILABLE, 'connect ECONNREFUSED 10.0.0.7:50051', status.UNAVAILABLE, 'A service this call needs is unavailable', true],
    [status.DEADLINE_EXCEEDED, 'Deadline exceeded after 10.001s', status.DEADLINE_EXCEEDED, 'A service this call needs did not answer in time', true],
    [status.INTERNAL, 'relation "spaces" does not exist', status.INTERNAL, INTERNAL_MESSAGE, true],
    [status.UNKNOWN, 'TypeError: x is undefined', status.INTERNAL, INTERNAL_MESSAGE, true],
    [status.UNIMPLEMENTED, 'no such method', status.INTERNAL, INTERNAL_MESSAGE, true],
    [status.DATA_LOSS, 'truncated', status.INTERNAL, INTERNAL_MESSAGE, true],
  ])('code %i (%s) reaches the caller as %i (%s), logged: %s', async (code, details, expectedCode, expectedDetails, logged) => {
    warn.mockClear();
    const err = await failure(failWith(code, details));
    expect({ code: err.code, details: err.details }).toEqual({ code: expectedCode, details: expectedDetails });
    expect(err.metadata).toBeInstanceOf(Metadata);
    if (logged) expect(warn).toHaveBeenCalledWith(expect.objectContaining({ code, details, rpc: '/x.Y/Z' }), 'call to another service failed');
    else expect(warn).not.toHaveBeenCalled();
  });

  it("logs with the caller's own logger when it has one (the request id with it)", async () => {
    const own = { warn: vi.fn() };
    await failure(relay({ method: { path: '/x.Y/Z' }, caller: { log: own as unknown as Logger } } as ClientCall, () => Promise.reject(serviceError(status.INTERNAL, 'boom'))));
    expect(own.warn).toHaveBeenCalledOnce();
  });

  it('lets an error that is not a gRPC status through untouched (the call never left)', async () => {
    const signing = new Error('call chain too long');
    await expect(relay({ method: { path: '/x.Y/Z' }, caller: {} } as ClientCall, () => Promise.reject(signing))).rejects.toBe(signing);
  });
});
