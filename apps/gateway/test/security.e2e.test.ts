import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApplyChangesRequest, ApplyChangesResponse } from '@quire/proto/space-content';
import type { TestUser } from '@quire/orgs/testing';
import { Role } from '@quire/policy';
import { TEST_PRIVATE_HOST } from '@quire/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, ok, startGateway, type Method } from './harness.ts';

// Findings of the security review, each tried as an attacker would.

let g: Awaited<ReturnType<typeof startGateway>>;
let owner: TestUser;
let orgId: string;
let spaceId: string;
let fileId: string;
/** Every line the gateway logged. */
const logged: string[] = [];

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

beforeAll(async () => {
  g = await startGateway(
    { QUIRE_PUBLIC_URL: 'http://quire.test', LOG_LEVEL: 'info', TRUST_PROXY: '127.0.0.1' },
    { logStream: { write: (line: string) => void logged.push(line) } },
  );
  owner = await g.orgs.user('owner');
  orgId = (await g.orgs.organization(owner, [])).id;
  const space = await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Handbook' }), 201);
  spaceId = space.id;
  const r = await g.content.callContent<ApplyChangesRequest, ApplyChangesResponse>(
    g.content.spaceContent.applyChanges,
    { spaceId, revisionId: space.revision, changes: [{ insertFiles: { files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', data: PNG }] } }] },
    owner.id,
  );
  await g.content.callContent(g.content.spaceContent.setSpaceRevision, { spaceId, revisionId: r.revision!.id, expectedRevisionId: space.revision }, owner.id);
  fileId = r.insertedFiles[0]!.id;
}, 120_000);
afterAll(() => g?.stop());

/** The link `request` answers expires `ttl` seconds after it was made, to the second (the clock read around it). */
async function expectLifetime(request: () => Promise<string>, ttl: number) {
  const before = Math.floor(Date.now() / 1000);
  const exp = Number(new URL(await request()).searchParams.get('exp'));
  const after = Math.floor(Date.now() / 1000);
  expect(exp).toBeGreaterThanOrEqual(before + ttl);
  expect(exp).toBeLessThanOrEqual(after + ttl);
}

describe('signed links', () => {
  it('expire exactly as long after they are made as the code asks: 1 hour for files, 15 minutes for PDFs', async () => {
    await expectLifetime(async () => (await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}/content/files/${fileId}`))).downloadURL, 3600);
    const cr = await ok(g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Draft' }), 201);
    await expectLifetime(async () => (await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/pdf`))).url, 900);
  });

  it('never reach the log: signatures, tokens and cookies are redacted where the requests are logged', async () => {
    const { downloadURL } = await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}/content/files/${fileId}`));
    const path = downloadURL.replace('http://quire.test', '');
    const sig = new URL(downloadURL).searchParams.get('sig')!;
    expect((await g.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    await g.app.inject({ method: 'GET', url: `/v1/orgs/${orgId}?token=${owner.token}`, headers: { cookie: 'quire_session=secret-session' } });
    const lines = logged.filter((l) => l.includes('"req"')).map((l) => JSON.parse(l).req);
    expect(lines.map((r) => r.url)).toContain(path.replace(sig, '[redacted]'));
    expect(lines.map((r) => r.url)).toContain(`/v1/orgs/${orgId}?token=[redacted]`);
    const all = logged.join('\n');
    expect(all).not.toContain(sig);
    expect(all).not.toContain(owner.token);
    expect(all).not.toContain('secret-session');
  });
});

describe('deeply nested JSON', () => {
  const deepText = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

  it('is a 400 naming the bound wherever a body is read, before any work', async () => {
    const cr = await ok(g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Deep' }), 201);
    const bodies: [string, string, string][] = [
      ['PATCH', `/v1/orgs/${orgId}`, `{"title":"x","extra":${deepText(20_000)}}`],
      ['POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, `{"changes":[{"operation":"insert_page","title":"T","document":${deepText(20_000)}}]}`],
    ];
    for (const [method, url, payload] of bodies) {
      const res = await g.app.inject({ method: method as 'POST', url, headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' }, payload });
      expectError(res, 400, /body: nested deeper than 128 levels/);
    }
  });

  it('in visitor claims of insights events is a 400 from the service that reads them', async () => {
    const site = await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/sites`, { title: 'Docs' }), 201);
    const events = (claims: string) =>
      `{"events":[{"type":"page_view","session":{"visitorId":"v","sessionId":"s","cookies":{},"userAgent":"ua","language":null,"referrer":null,"visitorAuthClaims":${claims}},` +
      `"location":{"url":"https://docs.example.com/","siteSection":null,"siteSpace":null,"siteShareKey":null,"space":null,"revision":null,"page":null}}]}`;
    const url = `/v1/orgs/${orgId}/sites/${site.id}/insights/events`;
    const post = (payload: string) => g.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' }, payload });
    expectError(await post(events(`{"a":${deepText(20_000)}}`)), 400, /nested deeper than 128 levels/);
    // Straight at the service too: the gateway forwards this body unread.
    const err = await g.services.insights
      .trackEvents({ organizationId: orgId, siteId: site.id, clientIp: '127.0.0.1', bodyJson: Buffer.from(events(deepText(20_000))) }, { userId: owner.id })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 3, details: expect.stringMatching(/nested deeper than 128 levels/) });
    expect(await post(events(`{"plan":${deepText(10)}}`))).toMatchObject({ statusCode: 204 });
  });
});

describe('NUL in text', () => {
  // PostgreSQL's text and jsonb refuse NUL: each of these was a 500.
  it('is a 400 naming it in any body or URL, and nothing is written', async () => {
    const cr = await ok(g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'NUL' }), 201);
    const content = `/v1/spaces/${spaceId}/change-requests/${cr.number}/content`;
    const paragraph = (text: string) => ({
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }],
    });
    const bodies: [Method, string, unknown][] = [
      ['POST', `/v1/orgs/${orgId}/spaces`, { title: 'Hand\0book' }],
      ['POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Fix\0' }],
      ['POST', content, { changes: [{ operation: 'insert_page', title: 'A', document: { markdown: 'one\0two' } }] }],
      ['POST', content, { changes: [{ operation: 'insert_page', title: 'A', document: { document: paragraph('one\0two') } }] }],
      ['POST', content, { changes: [{ operation: 'insert_page', title: 'Ti\0tle', document: { markdown: 'text' } }] }],
      ['POST', `/v1/spaces/${spaceId}/change-requests/${cr.number}/comments`, { body: { markdown: 'Looks\0good' } }],
    ];
    for (const [method, url, body] of bodies) expectError(await g.call(owner, method, url, body), 400, /^body: text must not contain NUL \(\\u0000\)$/);
    for (const url of [`/v1/spaces/${spaceId}/search?query=a%00b`, `/v1/orgs/${orgId}/search?query=a%00b`, `/v1/orgs/${orgId}/spaces?x=%00`])
      expectError(await g.call(owner, 'GET', url), 400, /^url: must not contain NUL \(%00\)$/);
    // The text `\u0000` (an escaped backslash) is text like any other.
    await ok(g.call(owner, 'POST', content, { changes: [{ operation: 'insert_page', title: 'Escapes', document: { markdown: 'Write `\\u0000` for NUL.' } }] }));
    const spaces = await ok(g.call(owner, 'GET', `/v1/orgs/${orgId}/spaces`));
    expect(spaces.items.map((s: { title: string }) => s.title)).not.toContain('Hand\0book');
    const pages = (await ok(g.call(owner, 'GET', `${content}/pages`))).pages.map((p: { title: string }) => p.title);
    expect(pages).toEqual(['Escapes']);
  });

  it('straight at content (no gateway in front) is INVALID_ARGUMENT naming the field', async () => {
    const space = await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}`));
    const page = (title: string, markdown: string) => ({ insertPage: { fields: { title }, type: '', href: '', ref: '', markdown } });
    for (const change of [page('A', 'one\0two'), page('A\0', 'text')]) {
      const err = await g.content
        .callContent<ApplyChangesRequest, ApplyChangesResponse>(g.content.spaceContent.applyChanges, { spaceId, revisionId: space.revision, changes: [change] }, owner.id)
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 3, details: expect.stringMatching(/^changes\[0\]\.(markdown|title): text must not contain NUL \(\\u0000\)$/) });
    }
  });
});

describe('files fetched by URL in change-request content', () => {
  it('are fetched (the uri format is known), a few at a time, within a total size per call', async () => {
    let inFlight = 0;
    let most = 0;
    const MB = 1024 * 1024;
    const server = createServer((req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      const size = req.url!.startsWith('/big') ? 14 * MB : PNG.byteLength;
      // Slow enough that the downloads overlap when nothing bounds them.
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': size }).end(size === PNG.byteLength ? PNG : Buffer.alloc(size));
        inFlight--;
      }, 100);
    });
    await new Promise<void>((resolve) => server.listen(0, TEST_PRIVATE_HOST, resolve));
    const at = `http://${TEST_PRIVATE_HOST}:${(server.address() as AddressInfo).port}`;
    try {
      const cr = await ok(g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Files' }), 201);
      const content = `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`;
      const files = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ name: `${prefix}-${i}.png`, url: `${at}/${prefix}-${i}.png` }));
      await ok(g.call(owner, 'POST', content, { changes: [{ operation: 'insert_files', files: files('small', 20) }] }), 200);
      const listed = await ok(g.call(owner, 'GET', `${content}/files`));
      expect(listed.items.filter((f: { name: string }) => f.name.startsWith('small-'))).toHaveLength(20);
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(4);
      // Four files of 14 MB: each under the file bound, together over the 50 MB a call may fetch.
      expectError(
        await g.call(owner, 'POST', content, { changes: [{ operation: 'insert_files', files: files('big', 4) }] }),
        400,
        /fetched by URL in one call must be at most 52428800 bytes in all/,
      );
      expectError(
        await g.call(owner, 'POST', content, { changes: [{ operation: 'insert_files', files: [{ name: 'x.png', url: 'not a url' }] }] }),
        400,
        /body.changes\[0\].files.0.url: .*uri/,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('organization members', () => {
  it('two admins demoting each other at once cannot leave the organization without an admin', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = await Promise.all([g.orgs.user(`admin-a${round}`), g.orgs.user(`admin-b${round}`)]);
      const org = (await g.orgs.organization(a, [[b, Role.ROLE_ADMIN]], `Race ${round}`)).id;
      const [byA, byB] = await Promise.all([
        g.call(a, 'PATCH', `/v1/orgs/${org}/members/${b.id}`, { role: 'read' }),
        g.call(b, 'PATCH', `/v1/orgs/${org}/members/${a.id}`, { role: 'read' }),
      ]);
      // One passes; the other is refused, whether it ran after (its caller is no admin any more: 403) or met the last admin (409).
      expect([byA.statusCode, byB.statusCode].filter((s) => s === 200)).toHaveLength(1);
      expect([403, 409]).toContain(byA.statusCode === 200 ? byB.statusCode : byA.statusCode);
      const winner = byA.statusCode === 200 ? a : b;
      const admins = (await ok(g.call(winner, 'GET', `/v1/orgs/${org}/members?role=admin`))).items;
      expect(admins).toHaveLength(1);
      // Removing the other at once as well: still one admin.
      const [left, removed] = await Promise.all([
        g.call(winner, 'PATCH', `/v1/orgs/${org}/members/${winner.id}`, { role: 'edit' }),
        g.call(winner, 'DELETE', `/v1/orgs/${org}/members/${winner.id}`),
      ]);
      expect([left.statusCode, removed.statusCode].every((s) => s === 409)).toBe(true);
    }
  });

  it('adding a user of another organization to a team is a 400 naming them', async () => {
    const stranger = await g.orgs.user('stranger');
    await g.orgs.organization(stranger, [], 'Elsewhere');
    const team = await ok(g.call(owner, 'PUT', `/v1/orgs/${orgId}/teams`, { title: 'Writers', members: [] }), 201);
    const url = `/v1/orgs/${orgId}/teams/${team.id}/members`;
    expectError(await g.call(owner, 'PUT', url, { add: [stranger.id] }), 400, new RegExp(`^add\\[0\\]: "${stranger.id}" is not a member of the organization$`));
    expectError(await g.call(owner, 'PUT', url, { memberships: { [stranger.id]: { role: 'owner' } } }), 400, /^memberships\[0\]: .* is not a member/);
    expect((await ok(g.call(owner, 'GET', `${url}`))).items).toEqual([]);
  });
});

describe('security headers', () => {
  it('are on every answer; authenticated JSON is no-store; HSTS behind HTTPS', async () => {
    const { downloadURL } = await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}/content/files/${fileId}`));
    const answers = {
      authenticated: await g.call(owner, 'GET', `/v1/orgs/${orgId}`),
      refused: await g.call(null, 'GET', `/v1/orgs/${orgId}`),
      missing: await g.call(owner, 'GET', '/v1/nowhere'),
      invalid: await g.call(owner, 'PATCH', `/v1/orgs/${orgId}`, { title: 12 }),
      download: await g.app.inject({ method: 'GET', url: downloadURL.replace('http://quire.test', '') }),
      health: await g.app.inject({ method: 'GET', url: '/healthz' }),
    };
    for (const [what, res] of Object.entries(answers)) {
      expect(res.headers, what).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' });
      expect(res.headers['strict-transport-security'], what).toBeUndefined();
    }
    for (const what of ['authenticated', 'missing', 'invalid'] as const) expect(answers[what].headers['cache-control'], what).toBe('no-store');
    expect(answers.download.headers['cache-control']).not.toBe('no-store');
    const https = await g.app.inject({ method: 'GET', url: `/v1/orgs/${orgId}`, headers: { authorization: `Bearer ${owner.token}`, 'x-forwarded-proto': 'https' } });
    expect(https.statusCode).toBe(200);
    expect(https.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('site insights', () => {
  it('are refused to guests who cannot see the site: no events posted, no aggregates, no visitor segments', async () => {
    const [guest, member] = await Promise.all([g.orgs.user('guest'), g.orgs.user('member')]);
    await Promise.all([g.orgs.member(orgId, guest, Role.ROLE_GUEST), g.orgs.member(orgId, member, Role.ROLE_READ)]);
    const site = await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/sites`, { title: 'Private docs' }), 201);
    expectError(await g.call(guest, 'GET', `/v1/orgs/${orgId}/sites/${site.id}`), 404);
    const base = `/v1/orgs/${orgId}/sites/${site.id}/insights`;
    const events = {
      events: [
        {
          type: 'page_view',
          session: { visitorId: 'v', sessionId: 's', cookies: {}, userAgent: 'ua', language: null, referrer: null, visitorAuthClaims: { email: 'someone@example.com' } },
          location: { url: 'https://docs.example.com/', siteSection: null, siteSpace: null, siteShareKey: null, space: null, revision: null, page: null },
        },
      ],
    };
    const aggregate = { select: [{ column: 'eventsCount' }], range: 'last24Hours' };
    expectError(await g.call(guest, 'POST', `${base}/events`, events), 404, /Site/);
    expectError(await g.call(guest, 'POST', `${base}/events/aggregate`, aggregate), 404, /Site/);
    expectError(await g.call(guest, 'GET', `${base}/visitor-segments`), 404, /Site/);
    // A member who reads the site does all three.
    expect((await g.call(member, 'POST', `${base}/events`, events)).statusCode).toBe(204);
    await ok(g.call(member, 'POST', `${base}/events/aggregate`, aggregate));
    await ok(g.call(member, 'GET', `${base}/visitor-segments`));
  });
});
