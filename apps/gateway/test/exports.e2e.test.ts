import { running } from '@quire/service-kit/testing';
import type { TestUser } from '@quire/orgs/testing';
import { pdfText } from '@quire/render/testing';
import { Role } from '@quire/policy';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect } from 'vitest';
import { DEFAULT_EXPORT_LIMITS, startReview } from '@quire/review/testing';
import { makeLinkSigner } from '../src/signing.ts';
import { expectError, fetchSigned, ok, pdfOf, startGateway, type Gateway, type OwnGateway } from './harness.ts';
import { ownGateway, tenant, test as base, type Tenant } from './fixtures.ts';

// Exports of a space and of a change request, through the signed link, as a client uses them.

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const SECRET = 'exports-test-link-secret';

type Handbook = Tenant<'reader'> & { spaceId: string; crId: string };

/**
 * On `g`'s services, a new organization (an owner, a reader, and an outsider in their own) whose
 * space has two pages and a file, merged from a change request, and an open change request adding
 * a page the space does not have yet.
 */
async function handbook(g: Gateway): Promise<Handbook> {
  const team = await tenant(g, { reader: Role.ROLE_READ });
  const { owner, orgId } = team;
  const spaceId = (await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Handbook' }), 201)).id;
  const first = await ok(g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'First' }), 201);
  await ok(
    g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests/${first.id}/content`, {
      changes: [
        { operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: PNG }] },
        { operation: 'insert_page', title: 'Getting started', document: { markdown: '# Getting started\n\nInstall Quire.\n\n![logo](./logo)\n' } },
        { operation: 'insert_page', title: 'Reference', document: { markdown: 'Every option, Начало работы.' } },
      ],
    }),
  );
  await ok(g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests/${first.id}/merge`));
  const crId = (await ok(g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Drafts' }), 201)).id;
  await ok(
    g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content`, {
      changes: [{ operation: 'insert_page', title: 'Roadmap', document: { markdown: 'Coming soon.' } }],
    }),
  );
  return { ...team, spaceId, crId };
}

const it = base.extend<{ exportsGateway: OwnGateway; idleGateway: OwnGateway; acme: Handbook }>({
  // Its own services: a test changes review's export limits.
  exportsGateway: ownGateway({ QUIRE_LINK_SECRET: SECRET }, { own: true }),
  // Services of the test's own: it stops review's export workers, which do not start again.
  idleGateway: running(() => startGateway({ QUIRE_LINK_SECRET: SECRET }, { own: true })),
  acme: async ({ exportsGateway }, use) => use(await handbook(exportsGateway)),
});

/** Fetches a signed URL through `g` (its path and query, without the public address). */
/** Fetches a download link until its job is over (202 meanwhile, with Retry-After and the job's progress); every 202's body, and the last answer. */
async function poll(g: Gateway, url: string) {
  const pending: { state: string; pagesDone: number; pagesTotal: number }[] = [];
  for (let i = 0; i < 300; i++) {
    const res = await fetchSigned(g, url);
    if (res.statusCode !== 202) return { res, pending };
    expect(res.headers['retry-after']).toBe('2');
    pending.push(res.json());
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} still 202`);
}

async function download(g: Gateway, as: TestUser, path: string, format: string) {
  const link = await ok(g.call(as, 'GET', `${path}?format=${format}`));
  expect(link.format).toBe(format);
  const { res } = await poll(g, link.url);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[\w.-]+"$/);
  return { url: link.url as string, res };
}

const texts = (zip: Record<string, Uint8Array>) =>
  Object.values(zip)
    .map((b) => strFromU8(b))
    .join('\n');

describe("a space's export", () => {
  it("is a Markdown ZIP in GitBook's layout, with the files", async ({ exportsGateway: g, acme: { reader, spaceId } }) => {
    const { res } = await download(g, reader, `/v1/spaces/${spaceId}/export`, 'markdown');
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toContain('handbook-markdown.zip');
    const zip = unzipSync(res.rawPayload);
    expect(Object.keys(zip)).toContain('SUMMARY.md');
    expect(strFromU8(zip['SUMMARY.md']!)).toMatch(/Getting started[\s\S]*Reference/);
    expect(texts(zip)).toContain('Install Quire.');
    expect(texts(zip)).toContain('Начало работы');
    const asset = Object.keys(zip).find((k) => k.startsWith('.gitbook/assets/'));
    expect(asset).toBeDefined();
    expect(Buffer.from(zip[asset!]!).equals(Buffer.from(PNG, 'base64'))).toBe(true);
  });

  it('is a static HTML ZIP of every page', async ({ exportsGateway: g, acme: { reader, spaceId } }) => {
    const { res } = await download(g, reader, `/v1/spaces/${spaceId}/export`, 'html');
    expect(res.headers['content-type']).toBe('application/zip');
    const zip = unzipSync(res.rawPayload);
    const html = Object.keys(zip).filter((k) => k.endsWith('.html'));
    expect(html.length).toBeGreaterThanOrEqual(2);
    expect(texts(zip)).toContain('Install Quire.');
    expect(texts(zip)).toContain('Every option');
  });

  it('is one PDF of every page', async ({ exportsGateway: g, acme: { owner, spaceId } }) => {
    const { res } = await download(g, owner, `/v1/spaces/${spaceId}/export`, 'pdf');
    const text = pdfOf(res);
    expect(text).toContain('Getting started');
    expect(text).toContain('Every option');
    expect(text).toContain('Начало работы');
  });
});

describe("a change request's export", () => {
  it("holds the change request's content, not the space's", async ({ exportsGateway: g, acme: { reader, spaceId, crId } }) => {
    const { res } = await download(g, reader, `/v1/spaces/${spaceId}/change-requests/${crId}/export`, 'markdown');
    expect(res.headers['content-disposition']).toMatch(/change-request-\d+-markdown\.zip/);
    expect(texts(unzipSync(res.rawPayload))).toContain('Coming soon.');
    const space = await download(g, reader, `/v1/spaces/${spaceId}/export`, 'markdown');
    expect(texts(unzipSync(space.res.rawPayload))).not.toContain('Coming soon.');
    const pdf = await download(g, reader, `/v1/spaces/${spaceId}/change-requests/${crId}/export`, 'pdf');
    expect(pdfText(pdf.res.rawPayload)).toContain('Coming soon.');
  });
});

describe('export links', () => {
  it('live exactly 1 hour', async ({ exportsGateway: g, acme: { owner, spaceId } }) => {
    const before = Math.floor(Date.now() / 1000);
    const { url } = await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}/export?format=pdf`));
    const after = Math.floor(Date.now() / 1000);
    const exp = Number(new URL(url).searchParams.get('exp'));
    expect(exp).toBeGreaterThanOrEqual(before + 3600);
    expect(exp).toBeLessThanOrEqual(after + 3600);
  });

  it('refuse a format they do not know, naming it', async ({ exportsGateway: g, acme: { owner, spaceId, crId } }) => {
    expectError(await g.call(owner, 'GET', `/v1/spaces/${spaceId}/export?format=docx`), 400, /format/);
    expectError(await g.call(owner, 'GET', `/v1/spaces/${spaceId}/export`), 400, /format/);
    expectError(await g.call(owner, 'GET', `/v1/spaces/${spaceId}/change-requests/${crId}/export?format=epub`), 400, /format/);
  });

  it('are refused (400 naming the bound) for content too big to export, before anything is rendered', async ({ exportsGateway: g, acme: { reader, spaceId, crId } }) => {
    // The space has 2 pages, the change request 3.
    g.review.deps.exportLimits.maxPdfPages = 2;
    try {
      expect((await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}/export?format=pdf`))).format).toBe('pdf');
      expectError(
        await g.call(reader, 'GET', `/v1/spaces/${spaceId}/change-requests/${crId}/export?format=pdf`),
        400,
        /^format: the pdf export is refused before it is made: the content has 3 pages, more than the 2 of a pdf export$/,
      );
      expect((await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}/change-requests/${crId}/export?format=markdown`))).format).toBe('markdown');
      g.review.deps.exportLimits.maxPdfPages = 1;
      expectError(await g.call(reader, 'GET', `/v1/spaces/${spaceId}/export?format=pdf`), 400, /the content has 2 pages, more than the 1 of a pdf export/);
    } finally {
      g.review.deps.exportLimits.maxPdfPages = DEFAULT_EXPORT_LIMITS.maxPdfPages;
    }
  });

  it("are not made for another organization's space or change request", async ({ exportsGateway: g, acme: { outsider, spaceId, crId } }) => {
    expectError(await g.call(outsider, 'GET', `/v1/spaces/${spaceId}/export?format=markdown`), 404);
    expectError(await g.call(outsider, 'GET', `/v1/spaces/${spaceId}/change-requests/${crId}/export?format=markdown`), 404);
  });

  it('download nothing when tampered with, or expired', async ({ exportsGateway: g, acme: { reader, outsider, spaceId, crId } }) => {
    const { url, job } = await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}/export?format=markdown`));
    expectError(await fetchSigned(g, url.replace(/sig=[0-9a-f]+/, `sig=${'0'.repeat(64)}`)), 404, /expired/);
    // Another user, another format, another space: each breaks the signature.
    expectError(await fetchSigned(g, url.replace(/user=[^&]+/, `user=${outsider.id}`)), 404, /expired/);
    expectError(await fetchSigned(g, url.replace('format=markdown', 'format=pdf')), 404, /expired/);
    const crLink = (await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}/change-requests/${crId}/export?format=markdown`))).url as string;
    expectError(await fetchSigned(g, crLink.replace(`/change-requests/${crId}/`, '/change-requests/1/')), 404, /expired/);
    // Signed with the gateway's own secret, but two hours ago: past its hour.
    const old = makeLinkSigner(g.config.QUIRE_PUBLIC_URL, { current: SECRET }, () => Date.now() - 2 * 3600_000);
    const stale = old.sign(`/v1/spaces/${spaceId}/export/download`, { format: 'markdown', user: reader.id, job: job.id }, 3600);
    expectError(await fetchSigned(g, stale), 404, /expired/);
    // Another job in the link: the signature breaks too.
    expectError(await fetchSigned(g, url.replace(/job=[^&]+/, 'job=other')), 404, /expired/);
    // The same link made now downloads: the refusal above is the expiry's, not a slip of the test.
    const fresh = makeLinkSigner(g.config.QUIRE_PUBLIC_URL, { current: SECRET }).sign(
      `/v1/spaces/${spaceId}/export/download`,
      { format: 'markdown', user: reader.id, job: job.id },
      3600,
    );
    expect((await poll(g, fresh)).res.statusCode).toBe(200);
  });

  it("download only the job of the user they were made for: a link validly signed for B naming A's job gets nothing", async ({
    exportsGateway: g,
    acme: { owner, reader, outsider, spaceId },
  }) => {
    const { job } = await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}/export?format=markdown`));
    const signer = makeLinkSigner(g.config.QUIRE_PUBLIC_URL, { current: SECRET });
    // Another organization's member, and a member of the same one: neither gets the reader's job.
    for (const user of [outsider, owner]) {
      expectError(await fetchSigned(g, signer.sign(`/v1/spaces/${spaceId}/export/download`, { format: 'markdown', user: user.id, job: job.id }, 3600)), 404, /^Export not found/);
    }
  });

  it("download nothing for another organization's member who alters the link to name themself", async ({ exportsGateway: g, acme: { reader, outsider, spaceId } }) => {
    const { url } = await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}/export?format=pdf`));
    expectError(await fetchSigned(g, url.replace(/user=[^&]+/, `user=${outsider.id}`)), 404, /expired/);
    expectError(await fetchSigned(g, url.replace(/user=[^&]+/, `user=${outsider.id}`).replace(/sig=[0-9a-f]+/, `sig=${'f'.repeat(64)}`)), 404, /expired/);
  });
});

describe('exports as jobs', () => {
  it('answer 202 with the progress while queued, then the file once a worker (restarted) made it; a second ask reuses the job', async ({ idleGateway: g }) => {
    const { owner, spaceId, crId } = await handbook(g);
    // Every worker down: the job waits on the stream.
    await g.review.workers.stop();
    const link = await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}/change-requests/${crId}/export?format=pdf`));
    expect(link.job).toMatchObject({ state: 'queued', pagesDone: 0 });
    const queued = await fetchSigned(g, link.url);
    expect(queued.statusCode).toBe(202);
    expect(queued.headers['retry-after']).toBe('2');
    expect(queued.json()).toMatchObject({ id: link.job.id, state: 'queued' });
    // A worker process comes up over the same database and queue, and finishes it.
    const worker = await startReview(g.orgs.address, g.content.address, { databaseUrl: g.review.databaseUrl }, { queue: g.review.queue, workers: 1 });
    try {
      const started = Date.now();
      const { res, pending } = await poll(g, link.url);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(pdfOf(res)).toContain('Coming soon.');
      for (const p of pending) expect(['queued', 'running']).toContain(p.state);
      expect(Date.now() - started).toBeLessThan(30_000);
      // Asked again: the same job, done, its file at once.
      const again = await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}/change-requests/${crId}/export?format=pdf`));
      expect(again.job).toMatchObject({ id: link.job.id, state: 'done', pagesDone: 3, pagesTotal: 3 });
      expect((await fetchSigned(g, again.url)).statusCode).toBe(200);
    } finally {
      await worker.stop();
    }
  });
});

describe('the OpenAPI document', () => {
  it('documents the export links and their downloads, each status with its schema; the downloads take no credential', async ({ exportsGateway: g }) => {
    const doc = (await g.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const op = (path: string) =>
      doc.paths[path].get as { operationId: string; security?: unknown[]; parameters: { name: string; in: string }[]; responses: Record<string, unknown> };
    // The export links need a caller; their downloads are signed links, so they declare no security.
    for (const [path, id, statuses, security] of [
      ['/v1/spaces/{spaceId}/export', 'exportSpace', ['200', '400', '401', '404'], undefined],
      ['/v1/spaces/{spaceId}/change-requests/{changeRequestId}/export', 'exportChangeRequest', ['200', '400', '401', '404'], undefined],
      ['/v1/spaces/{spaceId}/export/download', 'downloadSpaceExport', ['200', '202', '400', '404', '409'], []],
      ['/v1/spaces/{spaceId}/change-requests/{changeRequestId}/export/download', 'downloadChangeRequestExport', ['200', '202', '400', '404', '409'], []],
    ] as const) {
      const o = op(path);
      expect(o.operationId).toBe(id);
      expect(o.parameters).toContainEqual(expect.objectContaining({ name: 'format', in: 'query' }));
      expect(Object.keys(o.responses)).toEqual(expect.arrayContaining([...statuses]));
      expect(o.security).toEqual(security);
    }
  });
});
