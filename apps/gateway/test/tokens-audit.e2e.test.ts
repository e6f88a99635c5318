import { describe, expect } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Role } from '@quire/policy';
import { bearer, expectError, ok, type Gateway } from './harness.ts';
import { ownGateway, test as base, tenant, type Tenant } from './fixtures.ts';

// API tokens (list, create, revoke, scope, expiry) across two gateway replicas, the
// sign-in throttle, and the organization's audit log fed by the EVENTS stream.

// Above the failures the other tests make from 127.0.0.1 (four); the address test uses addresses of its own.
const PER_ADDRESS = 6;

type Answer = Promise<LightMyRequestResponse>;

const test = base.extend<{
  throttled: Gateway;
  replica: FastifyInstance;
  org: Tenant<'reader'>;
  create: (as: string, payload: unknown) => Answer;
  log: (as: string, query?: string) => Answer;
}>({
  // Its own gateway, for this file's sign-in throttle (rate limits out of the way). It keeps the
  // default 30 s authentication cache: revocations must not wait for it.
  throttled: ownGateway({
    RATE_LIMIT_PER_MINUTE: '100000',
    RATE_LIMIT_ADDRESS_PER_MINUTE: '100000',
    SIGN_IN_FAILURES_PER_ACCOUNT: '3',
    SIGN_IN_FAILURES_PER_ADDRESS: String(PER_ADDRESS),
  }),
  replica: [async ({ throttled }, use) => use(await throttled.replica()), { scope: 'file' }],
  org: async ({ throttled }, use) => use(await tenant(throttled, { reader: Role.ROLE_READ })),
  create: async ({ throttled }, use) => use((as, payload) => throttled.app.inject({ method: 'POST', url: '/v1/user/tokens', headers: bearer(as), payload: payload as object })),
  log: async ({ throttled, org }, use) => use((as, query = '') => throttled.app.inject({ method: 'GET', url: `/v1/orgs/${org.orgId}/audit-log${query}`, headers: bearer(as) })),
});

const me = (token: string, app: FastifyInstance) => app.inject({ method: 'GET', url: '/v1/user', headers: bearer(token) });

/** Polls until `check` holds (or fails after `ms`), answering how long it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return Date.now() - start;
}

describe('/v1/user/tokens', () => {
  test('creates a token shown once, lists it without its secret, next to the CLI-made one', async ({ throttled: g, create, org: { owner } }) => {
    const made = await ok(create(owner.token, { label: 'CI' }), 201);
    expect(made).toEqual({
      object: 'api-token',
      id: expect.any(String),
      label: 'CI',
      scope: 'write',
      createdAt: expect.any(String),
      expiresAt: null,
      lastUsedAt: null,
      token: expect.stringMatching(/^qt_/),
    });
    await ok(me(made.token, g.app));
    const list = await ok(g.app.inject({ method: 'GET', url: '/v1/user/tokens', headers: bearer(owner.token) }));
    expect(list.items.map((t: { label: string }) => t.label)).toEqual(expect.arrayContaining(['CI', 'cli']));
    expect(JSON.stringify(list)).not.toContain(made.token);
    expect(JSON.stringify(list)).not.toContain(owner.token);
    for (const t of list.items) expect(Object.keys(t).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'label', 'lastUsedAt', 'object', 'scope']);
    expect(list.items.find((t: { label: string }) => t.label === 'cli').lastUsedAt).toEqual(expect.any(String));
    // Paginated like every list.
    const page = await ok(g.app.inject({ method: 'GET', url: '/v1/user/tokens?limit=1', headers: bearer(owner.token) }));
    expect(page.items).toHaveLength(1);
    const rest = await ok(g.app.inject({ method: 'GET', url: `/v1/user/tokens?limit=1&page=${page.next.page}`, headers: bearer(owner.token) }));
    expect(rest.items[0].id).not.toBe(page.items[0].id);
  });

  test('refuses bad input with the field named, and answers 401 without a token', async ({ throttled: g, create, org: { owner } }) => {
    expectError(await create(owner.token, {}), 400, /label/);
    expectError(await create(owner.token, { label: '' }), 400, /label/);
    expectError(await create(owner.token, { label: '   ' }), 400, /label/);
    expectError(await create(owner.token, { label: 'x'.repeat(101) }), 400, /label/);
    expectError(await create(owner.token, { label: 'x', scope: 'admin' }), 400, /scope/);
    expectError(await create(owner.token, { label: 'x', expiresAt: 'tomorrow' }), 400, /expiresAt/);
    expectError(await create(owner.token, { label: 'x', expiresAt: '2020-01-01T00:00:00Z' }), 400, /expiresAt/);
    expectError(await create(owner.token, { label: 'x', secret: 'mine' }), 400);
    expectError(await g.app.inject({ method: 'GET', url: '/v1/user/tokens' }), 401);
    expectError(await g.app.inject({ method: 'POST', url: '/v1/user/tokens', payload: { label: 'x' } }), 401);
    expectError(await g.app.inject({ method: 'DELETE', url: '/v1/user/tokens/abc' }), 401);
    expectError(await g.app.inject({ method: 'DELETE', url: '/v1/user/tokens/a%20b', headers: bearer(owner.token) }), 400, /tokenId/);
  });

  test('lets a read token read and nothing else', async ({ throttled: g, create, org: { owner, orgId } }) => {
    const { token } = await ok(create(owner.token, { label: 'reporting', scope: 'read' }), 201);
    await ok(g.app.inject({ method: 'GET', url: `/v1/orgs/${orgId}`, headers: bearer(token) }));
    expectError(await g.app.inject({ method: 'PATCH', url: `/v1/orgs/${orgId}`, headers: bearer(token), payload: { title: 'Nope' } }), 403, /read-only/);
    expectError(await create(token, { label: 'escalate' }), 403, /read-only/);
    expectError(await g.app.inject({ method: 'DELETE', url: `/v1/user/tokens/whatever`, headers: bearer(token) }), 403, /read-only/);
  });

  test("revokes only the caller's own tokens: another user's answers 404 and keeps working", async ({ throttled: g, create, org: { owner, outsider } }) => {
    const { id, token } = await ok(create(owner.token, { label: 'mine' }), 201);
    expectError(await g.app.inject({ method: 'DELETE', url: `/v1/user/tokens/${id}`, headers: bearer(outsider.token) }), 404);
    await ok(me(token, g.app));
    expectError(await g.app.inject({ method: 'DELETE', url: '/v1/user/tokens/no-such-token', headers: bearer(owner.token) }), 404);
  });

  test('a revoked token stops working on every replica within a second, cached or not', async ({ throttled: g, replica, create, org: { owner } }) => {
    const { id, token } = await ok(create(owner.token, { label: 'to revoke' }), 201);
    await ok(me(token, g.app));
    await ok(me(token, replica)); // both replicas have it cached for 30 s
    await ok(g.app.inject({ method: 'DELETE', url: `/v1/user/tokens/${id}`, headers: bearer(owner.token) }), 204);
    expectError(await me(token, g.app), 401);
    const took = await within(1000, async () => (await me(token, replica)).statusCode === 401);
    expect(took).toBeLessThan(1000);
    const list = await ok(g.app.inject({ method: 'GET', url: '/v1/user/tokens', headers: bearer(owner.token) }));
    expect(list.items.map((t: { id: string }) => t.id)).not.toContain(id);
  });

  test('an expired token stops working on every replica within a second of its expiry', async ({ throttled: g, replica, create, org: { owner } }) => {
    const expiresAt = new Date(Date.now() + 2500).toISOString();
    const { token } = await ok(create(owner.token, { label: 'short', expiresAt }), 201);
    await ok(me(token, g.app));
    await ok(me(token, replica));
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(expiresAt) - Date.now())));
    for (const app of [g.app, replica]) await within(1000, async () => (await me(token, app)).statusCode === 401);
  });

  test('a session ended on one replica ends on the other', async ({ throttled: g, replica, org: { reader } }) => {
    const res = await g.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: reader.email, password: reader.password } });
    const cookie = `quire_session=${res.cookies[0]!.value}`;
    await ok(replica.inject({ method: 'GET', url: '/v1/user', headers: { cookie } }));
    const { csrfToken } = await ok(g.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie } }));
    expect((await g.app.inject({ method: 'POST', url: '/auth/sign-out', headers: { cookie, 'x-csrf-token': csrfToken } })).statusCode).toBe(204);
    await within(1000, async () => (await replica.inject({ method: 'GET', url: '/v1/user', headers: { cookie } })).statusCode === 401);
  });
});

describe('sign-in throttle', () => {
  test('answers 429 after repeated failures of one account, on every replica, the right password included', async ({ throttled: g, replica, org: { reader } }) => {
    const victim = await g.orgs.user('victim');
    const attempt = (password: string, app = g.app) => app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: victim.email, password } });
    for (let i = 0; i < 3; i++) expectError(await attempt('guess ' + i), 401);
    const refused = await attempt(victim.password, replica);
    expectError(refused, 429, /failed sign-ins/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Other accounts are not affected.
    expect((await g.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: reader.email, password: reader.password } })).statusCode).toBe(204);
  });
});

describe('sign-in throttle per address', () => {
  test('answers 429 to an address after repeated failures, whichever accounts it sprays, on every replica', async ({ throttled: g, replica }) => {
    const from = (remoteAddress: string, email: string, password: string, app: FastifyInstance = g.app) =>
      app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email, password }, remoteAddress });
    const sprayer = '203.0.113.7';
    const [a, b] = [await g.orgs.user('spray-a'), await g.orgs.user('spray-b')];
    // Two failures per account at most, under the account limit (3): only the address's count can refuse.
    const emails = [a.email, b.email, 'nobody-1@example.com', a.email, b.email, 'nobody-2@example.com'];
    for (const email of emails.slice(0, PER_ADDRESS)) expectError(await from(sprayer, email, 'a guess'), 401);
    const refused = await from(sprayer, a.email, a.password, replica);
    expectError(refused, 429, /failed sign-ins/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The same accounts sign in from another address.
    expect((await from('198.51.100.9', a.email, a.password)).statusCode).toBe(204);
    expect((await from('198.51.100.9', b.email, b.password, replica)).statusCode).toBe(204);
  });
});

describe('GET /v1/orgs/{organizationId}/audit-log', () => {
  test('records sign-ins, failed sign-ins, tokens and member changes, newest first, for admins', async ({ throttled: g, create, log, org: { owner, orgId } }) => {
    const eve = await g.orgs.user('eve');
    await g.orgs.member(orgId, eve, Role.ROLE_READ);
    await g.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: eve.email, password: 'wrong password' }, headers: { 'user-agent': 'audit-test/1.0' } });
    await g.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: eve.email, password: eve.password }, headers: { 'user-agent': 'audit-test/1.0' } });
    const { id: tokenId } = await ok(create(eve.token, { label: 'audited' }), 201);
    await ok(g.app.inject({ method: 'DELETE', url: `/v1/user/tokens/${tokenId}`, headers: bearer(eve.token) }), 204);
    await ok(g.app.inject({ method: 'PATCH', url: `/v1/orgs/${orgId}/members/${eve.id}`, headers: bearer(owner.token), payload: { role: 'edit' } }));
    await ok(g.app.inject({ method: 'DELETE', url: `/v1/orgs/${orgId}/members/${eve.id}`, headers: bearer(owner.token) }), 204);

    const rows = await g.orgs.audit(orgId, 1);
    expect(rows.length).toBeGreaterThan(0);
    await within(10_000, async () => (await ok(log(owner.token, `?limit=1000&actor=${eve.id}`))).items.length >= 3);
    const all = (await ok(log(owner.token, '?limit=1000'))).items.filter(
      (e: { target: { id: string } | null; actor: string | null }) => e.target?.id === eve.id || e.actor === eve.id || e.target?.id === tokenId,
    );
    const actions = all.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['user.sign_in_failed', 'user.signed_in', 'token.created', 'token.revoked', 'member.role_changed']));
    const failed = all.find((e: { action: string }) => e.action === 'user.sign_in_failed');
    expect(failed).toMatchObject({
      object: 'audit-entry',
      actor: null,
      target: { type: 'user', id: eve.id },
      ip: '127.0.0.1',
      userAgent: 'audit-test/1.0',
      details: { method: 'password' },
    });
    const changed = all.find((e: { action: string }) => e.action === 'member.role_changed');
    expect(changed).toMatchObject({ actor: owner.id, details: { from: 'read', to: 'edit' } });
    const times = all.map((e: { createdAt: string }) => Date.parse(e.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // The removal is an organization event: written even though eve is no longer a member.
    await within(10_000, async () => (await ok(log(owner.token, '?action=member.removed'))).items.some((e: { target: { id: string } }) => e.target.id === eve.id));
  });

  test('filters by actor, action and time, and pages', async ({ throttled: g, log, org: { owner, reader } }) => {
    // Two members sign in: entries to filter and to page through.
    for (const user of [reader, owner])
      expect((await g.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: user.email, password: user.password } })).statusCode).toBe(204);
    await within(10_000, async () => (await ok(log(owner.token, '?action=user.signed_in'))).items.length >= 2);
    const signIns = (await ok(log(owner.token, '?action=user.signed_in'))).items;
    for (const e of signIns) expect(e.action).toBe('user.signed_in');
    const byOwner = (await ok(log(owner.token, `?actor=${owner.id}`))).items;
    for (const e of byOwner) expect(e.actor).toBe(owner.id);
    const future = (await ok(log(owner.token, `?from=${new Date(Date.now() + 3_600_000).toISOString()}`))).items;
    expect(future).toEqual([]);
    const past = (await ok(log(owner.token, `?to=2000-01-01T00:00:00Z`))).items;
    expect(past).toEqual([]);
    const first = await ok(log(owner.token, '?limit=1'));
    expect(first.items).toHaveLength(1);
    const second = await ok(log(owner.token, `?limit=1&page=${first.next.page}`));
    expect(second.items[0].id).not.toBe(first.items[0].id);
  });

  test('records permission, site and Git export changes from the services that own them, with who and from where', async ({ throttled: g, log, org: { owner, reader, orgId } }) => {
    const as = (method: 'POST' | 'PATCH', url: string, payload: object, status = 200) =>
      ok(g.app.inject({ method, url, payload, headers: { ...bearer(owner.token), 'user-agent': 'audit-services/1.0' } }), status);
    const space = await as('POST', `/v1/orgs/${orgId}/spaces`, { title: 'Audited space' }, 201);
    await as('PATCH', `/v1/spaces/${space.id}`, { defaultLevel: 'read', title: 'Renamed' });
    await as('PATCH', `/v1/spaces/${space.id}`, { title: 'Only renamed' }); // no access setting: no entry
    await as('POST', `/v1/spaces/${space.id}/permissions`, { role: 'edit', users: [reader.id] }, 204);
    const collection = await as('POST', `/v1/orgs/${orgId}/collections`, { title: 'Audited collection' }, 201);
    await as('PATCH', `/v1/collections/${collection.id}`, { defaultLevel: 'comment' });
    await as('POST', `/v1/collections/${collection.id}/permissions`, { role: 'read', users: [reader.id] }, 204);
    const site = await as('POST', `/v1/orgs/${orgId}/sites`, { title: 'Audited site' }, 201);
    await as('PATCH', `/v1/orgs/${orgId}/sites/${site.id}`, { visibility: 'unlisted' });
    await as('POST', `/v1/orgs/${orgId}/sites/${site.id}/publish`, {});
    await as('POST', `/v1/orgs/${orgId}/sites/${site.id}/publish`, {}); // already published: no entry
    await as('POST', `/v1/orgs/${orgId}/sites/${site.id}/unpublish`, {});
    const repository = `file:///nonexistent/quire-audit-${site.id}.git`;
    await as('POST', `/v1/spaces/${space.id}/git/export`, { url: repository, ref: 'refs/heads/main', commitMessage: 'Export' }, 204);

    type Entry = { action: string; actor: string; target: { type: string; id: string }; ip: string; userAgent: string; details: Record<string, unknown> };
    const about = async (id: string) => ((await ok(log(owner.token, '?limit=1000'))).items as Entry[]).filter((e) => e.target?.id === id).reverse();
    await within(10_000, async () => (await about(space.id)).length >= 3 && (await about(collection.id)).length >= 2 && (await about(site.id)).length >= 3);
    const [spaceEntries, collectionEntries, siteEntries] = [await about(space.id), await about(collection.id), await about(site.id)];
    for (const e of [...spaceEntries, ...collectionEntries, ...siteEntries]) expect(e).toMatchObject({ actor: owner.id, ip: '127.0.0.1', userAgent: 'audit-services/1.0' });
    expect(spaceEntries.map((e) => [e.action, e.details])).toEqual([
      ['space.permissions_changed', { defaultLevel: { from: 'inherit', to: 'read' } }],
      ['space.permissions_changed', { userIds: [reader.id], teamIds: [], role: 'edit' }],
      ['git.export_started', { jobId: expect.any(String), url: repository, ref: 'refs/heads/main' }],
    ]);
    expect(collectionEntries.map((e) => [e.action, e.details])).toEqual([
      ['collection.permissions_changed', { defaultLevel: { from: 'inherit', to: 'comment' } }],
      ['collection.permissions_changed', { userIds: [reader.id], teamIds: [], role: 'read' }],
    ]);
    expect(siteEntries.map((e) => [e.action, e.details])).toEqual([
      ['site.visibility_changed', { from: 'public', to: 'unlisted' }],
      ['site.published', { visibility: 'unlisted', spaceIds: [] }],
      ['site.unpublished', { visibility: 'unlisted' }],
    ]);
    // The action filter reaches them like any other entry.
    expect((await ok(log(owner.token, '?action=site.published'))).items.map((e: Entry) => e.target.id)).toContain(site.id);
  });

  test('refuses non-admins (403), outsiders (404), no token (401) and bad filters (400)', async ({ throttled: g, log, org: { owner, reader, outsider, orgId } }) => {
    expectError(await log(reader.token), 403);
    expectError(await log(outsider.token), 404);
    expectError(await g.app.inject({ method: 'GET', url: `/v1/orgs/${orgId}/audit-log` }), 401);
    expectError(await log(owner.token, '?from=yesterday'), 400, /from/);
    expectError(await log(owner.token, '?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z'), 400, /from/);
    expectError(await log(owner.token, '?limit=5000'), 400, /limit/);
    expectError(await log(owner.token, '?page=bogus'), 400, /page/);
  });
});
