import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { TokenScope, type AuthenticateRequest, type AuthenticateResponse, type OrgsServiceClient } from '@quire/proto/orgs';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceIdentity } from './assertion.js';
import { createLogger } from './logger.js';
import { testIdentity, testServiceKeys } from './testing/index.js';
import { startStandIn } from './testing/stand-in.js';

// A stand-in server running as the `content` service: its one RPC answers who the verified
// assertion says calls ("user|chain"), so each test sees exactly what a handler would see.
const log = createLogger('assertion-test', 'silent');
let client: OrgsServiceClient;
let stop: () => Promise<void>;

beforeAll(async () => {
  const handlers = {
    authenticate: async (_req: AuthenticateRequest, ctx: { userId?: string; chain: readonly string[] }): Promise<AuthenticateResponse> => ({
      userId: `${ctx.userId ?? ''}|${ctx.chain.join('>')}`,
      scope: TokenScope.TOKEN_SCOPE_WRITE,
    }),
  };
  ({ client, stop } = await startStandIn(handlers, log));
});

afterAll(() => stop());

function callWith(metadata: Metadata): Promise<string> {
  return new Promise((resolve, reject) => client.authenticate({ token: '' }, metadata, (err, res) => (err ? reject(err) : resolve(res.userId))));
}

const bearer = (token: string) => {
  const md = new Metadata();
  md.set('authorization', `Bearer ${token}`);
  return md;
};

async function refused(metadata: Metadata, code: status, message?: RegExp) {
  const err = (await callWith(metadata).then(
    () => expect.unreachable('the call was accepted'),
    (e: unknown) => e,
  )) as ServiceError;
  expect(err.code, err.details).toBe(code);
  if (message) expect(err.details).toMatch(message);
}

describe('service assertions on a server', () => {
  it('lets the gateway call for a user', async () => {
    const gateway = testIdentity('gateway');
    expect(await callWith(await gateway.metadata('content', { userId: 'u1' }))).toBe('u1|gateway');
    expect(await callWith(await gateway.metadata('content', {}))).toBe('|gateway');
  });

  it('lets a delegate pass on the original caller, naming every service', async () => {
    const review = testIdentity('review');
    expect(await callWith(await review.metadata('content', { userId: 'u1', chain: ['gateway'] }))).toBe('u1|gateway>review');
  });

  it('refuses a call naming its user only by x-quire-user-id', async () => {
    const md = new Metadata();
    md.set('x-quire-user-id', 'u1');
    await refused(md, status.UNAUTHENTICATED, /no service assertion/);
  });

  it('ignores x-quire-user-id beside a valid assertion', async () => {
    const md = await testIdentity('gateway').metadata('content', { userId: 'u1' });
    md.set('x-quire-user-id', 'admin');
    expect(await callWith(md)).toBe('u1|gateway');
  });

  it('refuses an assertion signed by a key it does not trust, even under a trusted name', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const attacker = new ServiceIdentity({ name: 'gateway', privateKey, trust: new Map() });
    await refused(await attacker.metadata('content', { userId: 'u1' }), status.UNAUTHENTICATED, /ERR_JWS_SIGNATURE_VERIFICATION_FAILED/);
    // The reader's read access to every space is worth stealing: its name without its key gets nothing.
    const fakeReader = new ServiceIdentity({ name: 'reader', privateKey, trust: new Map() });
    await refused(await fakeReader.metadata('content', {}), status.UNAUTHENTICATED, /ERR_JWS_SIGNATURE_VERIFICATION_FAILED/);
  });

  it('refuses an expired assertion', async () => {
    const past = testIdentity('gateway', { now: () => Date.now() - 10 * 60_000 });
    await refused(await past.metadata('content', { userId: 'u1' }), status.UNAUTHENTICATED, /ERR_JWT_EXPIRED/);
  });

  it('refuses an assertion made for another service', async () => {
    await refused(await testIdentity('gateway').metadata('orgs', { userId: 'u1' }), status.UNAUTHENTICATED, /ERR_JWT_CLAIM_VALIDATION_FAILED/);
  });

  it('refuses a tampered payload', async () => {
    const token = await testIdentity('gateway').sign('content', { userId: 'u1' });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'admin' })).toString('base64url');
    await refused(bearer(`${header}.${forged}.${signature}`), status.UNAUTHENTICATED, /SIGNATURE_VERIFICATION_FAILED/);
  });

  it('refuses unsigned and malformed assertions', async () => {
    const none = `${Buffer.from('{"alg":"none","kid":"gateway"}').toString('base64url')}.${Buffer.from('{"iss":"gateway","aud":"content","sub":"u1"}').toString('base64url')}.`;
    await refused(bearer(none), status.UNAUTHENTICATED);
    await refused(bearer('not-a-jwt'), status.UNAUTHENTICATED);
  });

  it('refuses a service the table does not let call this one, or act for a user', async () => {
    // insights calls only orgs; the reader calls content only as itself; review acts for users only behind an originator.
    await refused(await testIdentity('insights').metadata('content', { userId: 'u1', chain: ['gateway'] }), status.PERMISSION_DENIED, /insights service may not call the content/);
    await refused(await testIdentity('reader').metadata('content', { userId: 'u1' }), status.PERMISSION_DENIED, /reader service may not act for a user/);
    expect(await callWith(await testIdentity('reader').metadata('content', {}))).toBe('|reader');
    await refused(await testIdentity('review').metadata('content', { userId: 'u1' }), status.PERMISSION_DENIED, /review service may not act for a user as the original caller/);
  });

  it('refuses a chain with a hop the table does not allow, so no service can pass itself off as serving the reader', async () => {
    await refused(await testIdentity('gateway').metadata('content', { chain: ['reader'] }), status.PERMISSION_DENIED, /reader service may not call the gateway/);
    await refused(await testIdentity('review').metadata('content', { chain: ['reader'] }), status.PERMISSION_DENIED, /reader service may not call the review/);
    expect(await callWith(await testIdentity('sites').metadata('content', { chain: ['reader'] }))).toBe('|reader>sites');
  });

  it('refuses an assertion whose actor chain does not end at its issuer, or that lives too long', async () => {
    const keys = createPrivateKey(testServiceKeys().privateKeys.gateway!);
    const sign = (claims: Record<string, unknown>, exp: number) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid: 'gateway' }).setIssuer('gateway').setAudience('content').setIssuedAt().setExpirationTime(exp).sign(keys);
    const now = Math.floor(Date.now() / 1000);
    await refused(bearer(await sign({ sub: 'u1', act: { sub: 'review' } }, now + 60)), status.UNAUTHENTICATED, /act/);
    await refused(bearer(await sign({ sub: 'u1', act: { sub: 'gateway' } }, now + 3600)), status.UNAUTHENTICATED, /lives too long/);
    expect(await callWith(bearer(await sign({ sub: 'u1', act: { sub: 'gateway' } }, now + 60)))).toBe('u1|gateway');
  });
});

describe('signing', () => {
  it('reuses an assertion until half its life is gone, per audience and user', async () => {
    let now = Date.now();
    const gateway = testIdentity('gateway', { ttlSeconds: 60, now: () => now });
    const first = await gateway.sign('content', { userId: 'u1' });
    expect(await gateway.sign('content', { userId: 'u1' })).toBe(first);
    expect(await gateway.sign('content', { userId: 'u2' })).not.toBe(first);
    expect(await gateway.sign('orgs', { userId: 'u1' })).not.toBe(first);
    now += 29_000;
    expect(await gateway.sign('content', { userId: 'u1' })).toBe(first);
    now += 2_000;
    expect(await gateway.sign('content', { userId: 'u1' })).not.toBe(first);
  });

  it('does not trust a verified assertion past its expiry', async () => {
    let now = Date.now();
    const content = testIdentity('content', { now: () => now });
    const token = await testIdentity('gateway', { ttlSeconds: 10 }).sign('content', { userId: 'u1' });
    expect(await content.verify(token)).toEqual({ userId: 'u1', chain: ['gateway'] });
    now += 16_000; // past exp and the clock tolerance
    await expect(content.verify(token)).rejects.toThrow(/ERR_JWT_EXPIRED/);
  });
});

describe('grants', () => {
  it('carries its subject and claims from the issuer to the service that honours it, for a while', async () => {
    let now = Date.now();
    const sites = testIdentity('sites', { now: () => now });
    const grant = await testIdentity('gateway').signGrant('site-member', 'u1', { site: 's1' }, 300);
    expect(await sites.verifyGrant(grant, 'site-member', 'gateway')).toMatchObject({ sub: 'u1', site: 's1', iss: 'gateway' });
    now += 306_000;
    await expect(sites.verifyGrant(grant, 'site-member', 'gateway')).rejects.toThrow(/ERR_JWT_EXPIRED/);
  });

  it('is never a service assertion, and an assertion is never a grant (attacker: a grant leaked from a URL)', async () => {
    const sites = testIdentity('sites');
    const grant = await testIdentity('gateway').signGrant('site-member', 'u1', {}, 300);
    await expect(sites.verify(grant)).rejects.toThrow(/not valid/);
    await expect(callWith(bearer(grant))).rejects.toMatchObject({ code: status.UNAUTHENTICATED });
    const assertion = await testIdentity('gateway').sign('sites', { userId: 'u1' });
    await expect(sites.verifyGrant(assertion, 'site-member', 'gateway')).rejects.toThrow(/not valid/);
  });

  it('refuses a grant for another purpose, from another issuer or signed by an untrusted key', async () => {
    const sites = testIdentity('sites');
    await expect(sites.verifyGrant(await testIdentity('gateway').signGrant('other', 'u1', {}, 60), 'site-member', 'gateway')).rejects.toThrow(/ERR_JWT_CLAIM_VALIDATION_FAILED/);
    await expect(sites.verifyGrant(await testIdentity('reader').signGrant('site-member', 'u1', {}, 60), 'site-member', 'gateway')).rejects.toThrow(/not valid/);
    const { privateKey } = generateKeyPairSync('ed25519');
    const forger = new ServiceIdentity({ name: 'gateway', privateKey, trust: new Map() });
    await expect(sites.verifyGrant(await forger.signGrant('site-member', 'u1', {}, 60), 'site-member', 'gateway')).rejects.toThrow(/ERR_JWS_SIGNATURE_VERIFICATION_FAILED/);
  });
});
