import { randomBytes } from 'node:crypto';
import { startContent, type ContentHarness } from '@quire/content/testing';
import { startOrgs, team, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { ContentServiceClient, type Space } from '@quire/proto/content';
import { ReviewServiceClient as R, type ChangeRequest } from '@quire/proto/review';
import type { Change } from '@quire/proto/space-content';
import { status } from '@grpc/grpc-js';
import { pdfText } from '@quire/render/testing';
import type { Caller } from '@quire/service-kit';
import { Role } from '@quire/proto/common';
import { stopAll } from '@quire/service-kit/testing';
import { rejects } from '@quire/service-kit/testing/expect';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ANSWER_ROOM, DEFAULT_EXPORT_LIMITS } from '../src/domain/exports.ts';
import { exportRevision, exportSource } from '../src/rpc/exports.ts';
import type { Deps } from '../src/rpc/deps.ts';
import { startReview, type ReviewHarness } from './harness.ts';

let orgs: OrgsHarness;
let content: ContentHarness;
let review: ReviewHarness;
let deps: Deps;
let owner: TestUser, reader: TestUser, outsider: TestUser;
let orgId: string;

beforeAll(async () => {
  orgs = await startOrgs();
  content = await startContent(orgs.address);
  review = await startReview(orgs.address, content.address);
  ({ owner, reader, outsider, orgId } = await team(orgs, { reader: Role.ROLE_READ }));
  deps = review.deps;
}, 60_000);
afterAll(() => stopAll(review, content, orgs));

// The export runs for a user behind the gateway, as an API call does.
const as = (user: TestUser): Caller => ({ userId: user.id, chain: ['gateway'], requestId: 'test' });
const call = <Res>(m: (...a: never[]) => unknown, req: unknown) => review.call<unknown, Res>(m as never, req, owner.id);
const createSpace = async (title: string) =>
  (await content.call(ContentServiceClient.prototype.createSpace, { organizationId: orgId, title, emoji: '', editMode: '', visibility: '' }, owner.id)) as Space;
const insert = (title: string, markdown: string, parent = ''): Change => ({
  insertPage: { fields: { title }, type: '', markdown, href: '', ref: '', ...(parent ? { parent } : {}) },
});

const NOTES = Buffer.from('release notes, byte for byte\n');
const LINES = { Guide: 'Getting started with Quire', Install: 'Начало работы с Quire', Usage: '快速入门指南' } as const;

/** A space whose content is a Guide page with Install and Usage pages and a file, merged, and an open change request adding a page. */
async function seeded() {
  const space = await createSpace('Product Docs');
  const seed = await call<ChangeRequest>(R.prototype.createChangeRequest, { spaceId: space.id, subject: 'Seed', agentTaskId: '' });
  await call(R.prototype.updateChangeRequestContent, {
    spaceId: space.id,
    changeRequest: seed.id,
    changes: [
      ...Object.entries(LINES).map(([title, line]) => insert(title, `${line}\n`)),
      { insertFiles: { files: [{ ref: 'notes', name: 'notes.txt', contentType: 'text/plain', data: NOTES }] } },
    ],
  });
  await call(R.prototype.mergeChangeRequest, { spaceId: space.id, changeRequest: seed.id });
  const cr = await call<ChangeRequest>(R.prototype.createChangeRequest, { spaceId: space.id, subject: 'Add FAQ', agentTaskId: '' });
  await call(R.prototype.updateChangeRequestContent, { spaceId: space.id, changeRequest: cr.id, changes: [insert('FAQ', 'Frequently asked questions\n')] });
  return { space, cr };
}

describe('exports of a space or change request', () => {
  it("names the members a page mentions, which the page's markdown cannot: in the HTML site and the PDF", async () => {
    const { space } = await seeded();
    const mention = { object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user: reader.id } } };
    const document = {
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Questions go to ', marks: [] }] }, mention] }],
    };
    const cr = await call<ChangeRequest>(R.prototype.createChangeRequest, { spaceId: space.id, subject: 'Team', agentTaskId: '' });
    await call(R.prototype.updateChangeRequestContent, {
      spaceId: space.id,
      changeRequest: cr.id,
      changes: [{ insertPage: { fields: { title: 'Team' }, type: '', documentJson: JSON.stringify(document), href: '', ref: '' } }],
    });
    await call(R.prototype.mergeChangeRequest, { spaceId: space.id, changeRequest: cr.id });
    const source = await exportSource(deps, { spaceId: space.id }, as(reader));
    const site = unzipSync((await exportRevision(deps, source.revision, 'html', source.title, source.name, as(reader))).data);
    expect(strFromU8(site['team.html']!)).toContain('<p>Questions go to <span class="mention">reader</span></p>');
    const pdf = pdfText((await exportRevision(deps, source.revision, 'pdf', source.title, source.name, as(reader))).data);
    expect(pdf).toContain('Questions go to reader');
  }, 60_000);

  it('prints the whole space to one PDF whose text holds every page', async () => {
    const { space } = await seeded();
    const source = await exportSource(deps, { spaceId: space.id }, as(reader));
    const file = await exportRevision(deps, source.revision, 'pdf', source.title, source.name, as(reader));
    expect(file).toMatchObject({ filename: 'product-docs.pdf', contentType: 'application/pdf' });
    const text = pdfText(file.data);
    for (const [title, line] of Object.entries(LINES)) {
      expect(text).toContain(title);
      expect(text).toContain(line);
    }
  }, 60_000);

  it('writes a static HTML site ZIP with one page per document page, the change request holding its own page', async () => {
    const { space, cr } = await seeded();
    const source = await exportSource(deps, { spaceId: space.id, changeRequest: String(cr.number) }, as(reader));
    const file = await exportRevision(deps, source.revision, 'html', source.title, source.name, as(reader));
    expect(file).toMatchObject({ filename: `change-request-${cr.number}-html.zip`, contentType: 'application/zip' });
    const zip = unzipSync(file.data);
    expect(Object.keys(zip)).toEqual(expect.arrayContaining(['index.html', 'reader.css', 'guide.html', 'install.html', 'usage.html', 'faq.html']));
    for (const [title, line] of Object.entries(LINES)) expect(strFromU8(zip[`${title.toLowerCase()}.html`]!)).toContain(line);
    expect(strFromU8(zip['faq.html']!)).toContain('Frequently asked questions');
    const [notes] = source.revision.files;
    expect(Buffer.from(zip[`files/${notes!.id}/notes.txt`]!)).toEqual(NOTES);
  });

  it("writes a Markdown ZIP in GitBook's layout: SUMMARY.md, the first page as README.md, a file per page", async () => {
    const { space } = await seeded();
    const source = await exportSource(deps, { spaceId: space.id }, as(owner));
    const file = await exportRevision(deps, source.revision, 'markdown', source.title, source.name, as(owner));
    expect(file.filename).toBe('product-docs-markdown.zip');
    const zip = unzipSync(file.data);
    expect(Object.keys(zip).sort()).toEqual(['.gitbook.yaml', '.gitbook/assets/notes.txt', 'README.md', 'SUMMARY.md', 'install.md', 'usage.md']);
    expect(Buffer.from(zip['.gitbook/assets/notes.txt']!)).toEqual(NOTES);
    expect(strFromU8(zip['README.md']!)).toContain(LINES.Guide);
    expect(strFromU8(zip['install.md']!)).toContain(LINES.Install);
    const summary = strFromU8(zip['SUMMARY.md']!);
    for (const [title, path] of [
      ['Guide', 'README.md'],
      ['Install', 'install.md'],
      ['Usage', 'usage.md'],
    ])
      expect(summary).toContain(`[${title}](${path})`);
  });

  it("refuses another organization's user as a read would: not found", async () => {
    const { space, cr } = await seeded();
    await rejects(exportSource(deps, { spaceId: space.id }, as(outsider)), status.NOT_FOUND);
    await rejects(exportSource(deps, { spaceId: space.id, changeRequest: cr.id }, as(outsider)), status.NOT_FOUND);
    await expect(exportSource(deps, { spaceId: space.id, changeRequest: '99' }, as(reader))).rejects.toThrow(/Change request "99" not found/);
  });
});

describe('the ExportSpace call', () => {
  it('answers the file for a space or a change request, as the caller may read it', async () => {
    const { space, cr } = await seeded();
    const exp = (changeRequest: string, format: string, user = reader) =>
      review.call<unknown, { data: Buffer; filename: string; contentType: string }>(R.prototype.exportSpace as never, { spaceId: space.id, changeRequest, format }, user.id);
    const zip = await exp(String(cr.number), 'markdown');
    expect(zip).toMatchObject({ filename: `change-request-${cr.number}-markdown.zip`, contentType: 'application/zip' });
    expect(strFromU8(unzipSync(zip.data)['faq.md']!)).toContain('Frequently asked questions');
    await rejects(exp('', 'docx'), status.INVALID_ARGUMENT, /^format: "docx" is none of html, pdf, markdown$/);
    await rejects(exp('', 'markdown', outsider), status.NOT_FOUND);
  });

  it('refuses a file over the 16 MiB message limit by name, rather than failing in the client', async () => {
    const space = await createSpace('Big');
    const cr = await call<ChangeRequest>(R.prototype.createChangeRequest, { spaceId: space.id, subject: 'Big files', agentTaskId: '' });
    // Two files of 9 MiB that do not compress: each call fits a message, their export does not.
    for (const name of ['a.bin', 'b.bin']) {
      await call(R.prototype.updateChangeRequestContent, {
        spaceId: space.id,
        changeRequest: cr.id,
        changes: [{ insertFiles: { files: [{ ref: name, name, contentType: 'application/octet-stream', data: randomBytes(9 * 1024 * 1024) }] } }],
      });
    }
    // Refused from the files' sizes, before a byte of them is read.
    await rejects(
      review.call(R.prototype.exportSpace as never, { spaceId: space.id, changeRequest: cr.id, format: 'markdown' }, owner.id),
      status.INVALID_ARGUMENT,
      new RegExp(`^format: the markdown export is refused before it is made: the content's files are ${18 * 1024 * 1024} bytes, more than the ${ANSWER_ROOM} of an export$`),
    );
    // Past that bound, the file made is still checked against what one answer can carry (reading
    // and zipping 18 MiB: the gateway's deadline of an export, 60 s, not a test call's 10 s).
    review.deps.exportLimits.maxFileBytes = Infinity;
    try {
      const made = review.callLong(R.prototype.exportSpace as never, { spaceId: space.id, changeRequest: cr.id, format: 'markdown' }, owner.id);
      await rejects(made, status.INVALID_ARGUMENT, /^format: the markdown export is 18\.\d MiB, over the 16 MiB limit of an export$/);
    } finally {
      review.deps.exportLimits.maxFileBytes = ANSWER_ROOM;
    }
  }, 90_000);

  it('refuses content past the pages bound of its format before rendering anything, and says so when only asked to check', async () => {
    const { space, cr } = await seeded();
    const exp = (format: string, checkOnly = false) =>
      review.call<unknown, { data: Buffer; filename: string }>(
        R.prototype.exportSpace as never,
        { spaceId: space.id, changeRequest: String(cr.number), format, checkOnly },
        reader.id,
      );
    review.deps.exportLimits.maxPdfPages = 3;
    const print = vi.spyOn(review.deps.printer, 'print');
    try {
      // The change request has 4 pages: Guide, Install, Usage and FAQ.
      for (const checkOnly of [true, false]) {
        await rejects(
          exp('pdf', checkOnly),
          status.INVALID_ARGUMENT,
          /^format: the pdf export is refused before it is made: the content has 4 pages, more than the 3 of a pdf export$/,
        );
      }
      expect(print).not.toHaveBeenCalled();
      // Other formats have their own bound; a check answers no file.
      expect(await exp('markdown', true)).toMatchObject({ data: Buffer.alloc(0), filename: '' });
      expect((await exp('markdown')).filename).toBe(`change-request-${cr.number}-markdown.zip`);
      // The space itself has 3 pages: within.
      const pdf = await review.call<unknown, { data: Buffer }>(
        R.prototype.exportSpace as never,
        { spaceId: space.id, changeRequest: '', format: 'pdf', checkOnly: true },
        reader.id,
      );
      expect(pdf.data.length).toBe(0);
      // A check still needs read access.
      await rejects(review.call(R.prototype.exportSpace as never, { spaceId: space.id, changeRequest: '', format: 'markdown', checkOnly: true }, outsider.id), status.NOT_FOUND);
    } finally {
      print.mockRestore();
      review.deps.exportLimits.maxPdfPages = DEFAULT_EXPORT_LIMITS.maxPdfPages;
    }
  });
});

type Job = { id: string; state: string; pagesDone: number; pagesTotal: number; filesDone: number; filesTotal: number; expiresAt: Date };
type Got = { job: Job; data: Buffer; filename: string; contentType: string };

describe('export jobs', () => {
  const start = (on: ReviewHarness, spaceId: string, format: string, user = reader, changeRequest = '') =>
    on.call<unknown, Job>(R.prototype.startExport as never, { spaceId, changeRequest, format }, user.id);
  const get = (on: ReviewHarness, spaceId: string, jobId: string, user = reader, changeRequest = '') =>
    on.call<unknown, Got>(R.prototype.getExport as never, { spaceId, changeRequest, jobId }, user.id);
  /** Polls the job until it is no longer queued or running; every state seen, in order, and the last answer (or error). */
  async function settle(on: ReviewHarness, spaceId: string, jobId: string, user = reader, changeRequest = '') {
    const seen: string[] = [];
    for (let i = 0; i < 200; i++) {
      const got = await get(on, spaceId, jobId, user, changeRequest);
      if (seen.at(-1) !== got.job.state) seen.push(got.job.state);
      if (got.job.state === 'done') return { seen, got };
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`job ${jobId} still ${seen.at(-1)}`);
  }

  it('runs queued -> running -> done with its progress counted, and a second ask of the same content reuses the job', async () => {
    const { space } = await seeded();
    const job = await start(review, space.id, 'pdf');
    expect(job).toMatchObject({ state: 'queued', pagesDone: 0 });
    // Kept, with its links, an hour from the ask.
    expect(Math.abs(job.expiresAt.getTime() - Date.now() - 3600_000)).toBeLessThan(60_000);
    const { seen, got } = await settle(review, space.id, job.id);
    expect(seen.filter((s) => s !== 'queued')).toEqual(expect.arrayContaining(['done']));
    expect(['queued', 'running', 'done']).toEqual(expect.arrayContaining(seen));
    expect(got.job).toMatchObject({ state: 'done', pagesDone: 3, pagesTotal: 3, filesTotal: 1 });
    expect(got).toMatchObject({ filename: 'product-docs.pdf', contentType: 'application/pdf' });
    expect(pdfText(got.data)).toContain(LINES.Usage);
    // The same content, format and user: the same job, its file ready at once.
    const again = await start(review, space.id, 'pdf');
    expect(again).toMatchObject({ id: job.id, state: 'done' });
    expect(again.expiresAt.getTime()).toBeGreaterThanOrEqual(job.expiresAt.getTime());
    // Another user, or another format, is another job.
    expect((await start(review, space.id, 'pdf', owner)).id).not.toBe(job.id);
    expect((await start(review, space.id, 'markdown')).id).not.toBe(job.id);
  }, 60_000);

  it("exports the change request's revision as it was when asked", async () => {
    const { space, cr } = await seeded();
    const job = await start(review, space.id, 'markdown', reader, String(cr.number));
    // The download names the change request by id, as the gateway's link does.
    const { got } = await settle(review, space.id, job.id, reader, cr.id);
    expect(strFromU8(unzipSync(got.data)['faq.md']!)).toContain('Frequently asked questions');
    expect(got.job).toMatchObject({ pagesDone: 4, pagesTotal: 4, filesDone: 1, filesTotal: 1 });
    await rejects(get(review, space.id, job.id, reader, ''), status.NOT_FOUND, /^Export not found/);
  }, 60_000);

  it("gives a job to its user only, for its space, while they may still read it: others' are not found", async () => {
    const { space } = await seeded();
    const job = await start(review, space.id, 'markdown');
    await settle(review, space.id, job.id);
    await rejects(get(review, space.id, job.id, owner), status.NOT_FOUND, /^Export not found/);
    await rejects(get(review, space.id, job.id, outsider), status.NOT_FOUND, /^Export not found/);
    const other = await seeded();
    await rejects(get(review, other.space.id, job.id), status.NOT_FOUND, /^Export not found/);
    await rejects(start(review, space.id, 'markdown', outsider), status.NOT_FOUND);
    await rejects(start(review, space.id, 'docx'), status.INVALID_ARGUMENT, /^format: "docx" is none of/);
  }, 60_000);

  it('finishes a job queued while no worker ran once one starts (a restart), and a failed job keeps its reason', async () => {
    const { space } = await seeded();
    // An instance with no workers (as when every worker is down) over its own queue.
    const api = await startReview(orgs.address, content.address, undefined, { workers: 0 });
    try {
      const job = await start(api, space.id, 'html');
      const doomed = await start(api, space.id, 'pdf');
      await new Promise((r) => setTimeout(r, 1000));
      expect((await get(api, space.id, job.id)).job.state).toBe('queued');
      // The worker that comes up finds both on the stream; the content grew past its PDF bound meanwhile.
      const worker = await startReview(orgs.address, content.address, { databaseUrl: api.databaseUrl }, { queue: api.queue, workers: 1 });
      worker.deps.exportLimits.maxPdfPages = 2;
      try {
        const { got } = await settle(api, space.id, job.id);
        expect(Object.keys(unzipSync(got.data))).toContain('usage.html');
        for (let i = 0; i < 100 && (await api.deps.store.getExportJob(doomed.id))?.state !== 'failed'; i++) await new Promise((r) => setTimeout(r, 100));
        const reason = /^format: the pdf export is refused before it is made: the content has 3 pages, more than the 2 of a pdf export$/;
        await rejects(get(api, space.id, doomed.id), status.INVALID_ARGUMENT, reason);
        // Still its reason later; a new ask starts a new job rather than reusing the failed one.
        await rejects(get(api, space.id, doomed.id), status.INVALID_ARGUMENT, reason);
        expect((await start(api, space.id, 'pdf')).id).not.toBe(doomed.id);
      } finally {
        await worker.stop();
      }
    } finally {
      await api.stop();
    }
  }, 60_000);

  it('hands a job whose worker died mid-run to another worker once its ack wait passes, which finishes it', async () => {
    const { space } = await seeded();
    const a = await startReview(orgs.address, content.address, undefined, { workers: 1, ackWaitMs: 1000 });
    let b: ReviewHarness | undefined;
    // A's Chromium never answers: its worker is stuck mid-job when it dies.
    let release = () => {};
    const stuck = vi.spyOn(a.deps.printer, 'print').mockImplementation(() => new Promise((_, reject) => (release = () => reject(new Error('released')))));
    try {
      const job = await start(a, space.id, 'pdf');
      // The job shows "running" before its content is read; the print starts after that.
      for (let i = 0; i < 300 && stuck.mock.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(stuck).toHaveBeenCalled();
      expect(await a.deps.store.getExportJob(job.id)).toMatchObject({ state: 'running', attempt: 1 });
      a.workers.kill();
      b = await startReview(orgs.address, content.address, { databaseUrl: a.databaseUrl }, { queue: a.queue, workers: 1, ackWaitMs: 1000 });
      const { got } = await settle(a, space.id, job.id);
      expect(pdfText(got.data)).toContain(LINES.Install);
      expect(await a.deps.store.getExportJob(job.id)).toMatchObject({ state: 'done', attempt: 2 });
    } finally {
      release();
      stuck.mockRestore();
      await b?.stop();
      await a.stop();
    }
  }, 60_000);

  it("fails a PDF job that takes longer than a job's print time limit, naming the limit, without retrying", async () => {
    const { space } = await seeded();
    review.deps.exportPdfTimeoutMs = 1;
    try {
      const job = await start(review, space.id, 'pdf', owner);
      for (let i = 0; i < 100 && (await review.deps.store.getExportJob(job.id))?.state !== 'failed'; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await review.deps.store.getExportJob(job.id)).toMatchObject({ state: 'failed', attempt: 1 });
      await rejects(get(review, space.id, job.id, owner), status.INVALID_ARGUMENT, /^format: the pdf export could not be made: the PDF took longer than 1 ms to print$/);
    } finally {
      review.deps.exportPdfTimeoutMs = undefined;
    }
  }, 60_000);

  it('removes jobs past their time with their files', async () => {
    const { space } = await seeded();
    const job = await start(review, space.id, 'markdown');
    await settle(review, space.id, job.id);
    await review.deps.store.removeExpiredExports(new Date(job.expiresAt.getTime() - 1));
    expect((await get(review, space.id, job.id)).job.state).toBe('done');
    expect(await review.deps.store.removeExpiredExports(new Date(job.expiresAt.getTime() + 1))).toBeGreaterThanOrEqual(1);
    await rejects(get(review, space.id, job.id), status.NOT_FOUND, /^Export not found/);
  }, 60_000);
});
