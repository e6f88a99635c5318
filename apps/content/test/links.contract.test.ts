import { status } from '@grpc/grpc-js';
import type { Space } from '@quire/proto/content';
import type { ListFileBacklinksRequest, ListFileBacklinksResponse, ListLinksRequest, ListLinksResponse, PageContent, Revision } from '@quire/proto/space-content';
import { rejects } from '@quire/service-kit/testing/expect';
import { stopAll } from '@quire/service-kit/testing';
import type { OrgsHarness, TestUser } from '@quire/orgs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDEX_INLINE_DOCUMENTS } from '../src/store/search-documents.ts';
import { APP_URL, startWithTeam, type ContentHarness } from './harness.ts';

let orgs: OrgsHarness;
let h: ContentHarness;
let owner: TestUser, outsider: TestUser;
let orgId: string;
let space: Space;
let first: Revision;

const page = (id: string, title: string, markdown: string, pages: PageContent[] = []): PageContent => ({ id, type: 'document', fields: { title }, markdown, href: '', pages });
const listLinks = (req: { pageId?: string; status?: string; revisionId?: string; page?: { page: string; limit: number } } = {}, as: TestUser = owner) =>
  h.callContent<ListLinksRequest, ListLinksResponse>(h.spaceContent.listLinks, { spaceId: space.id, revisionId: '', pageId: '', status: '', ...req }, as.id);
const backlinks = (fileId: string, revisionId = '', as: TestUser = owner) =>
  h.callContent<ListFileBacklinksRequest, ListFileBacklinksResponse>(h.spaceContent.listFileBacklinks, { spaceId: space.id, revisionId, fileId }, as.id);

const guide = [
  'See [setup](/pages/setup) and [its install step](/pages/setup#install), not [this](/pages/setup#nowhere).',
  'A [removed page](/pages/gone), the [FAQ](faq.md) and a [missing one](missing.md).',
  '![Logo](/files/logo) and [the manual](/files/manual) and [a lost file](/files/lost).',
  'Outside: [example](https://example.com/docs), [example again](https://example.com/docs). In the app: [space](' + APP_URL + '/o/x/s/y) and [relative](/o/x/s/z).',
  '[Top](#overview) and [bottom](#nothing-here).',
  '',
  '## Overview',
].join('\n\n');

beforeAll(async () => {
  ({ orgs, h, owner, outsider, orgId } = await startWithTeam());
  space = await h.createSpace(owner.id, { organizationId: orgId, title: 'Docs' });
  const [logo, manual] = await h.putBlobs(owner.id, [Buffer.from('png bytes'), Buffer.from('pdf bytes')]);
  const create = (pages: PageContent[], files: { id: string; blob: string }[]) =>
    h.createRevision(owner.id, { spaceId: space.id, pages, files: files.map((f) => ({ ...f, name: `${f.id}.bin`, contentType: 'application/octet-stream' })) });
  // The first revision: the manual is still there, and nothing links to the logo yet.
  first = await create([page('guide', 'Guide', 'Read [the manual](/files/manual).\n')], [{ id: 'manual', blob: manual!.blob }]);
  await create(
    [
      page('guide', 'Guide', guide, [page('faq', 'FAQ', 'Back to the [guide](../guide/README.md) or [setup](../setup.md#install).\n')]),
      page('setup', 'Setup', '# Install\n\n![Logo again](/files/logo)\n'),
    ],
    [{ id: 'logo', blob: logo!.blob }],
  );
});
afterAll(() => stopAll(h, orgs));

const summary = (res: ListLinksResponse) =>
  res.items.map((u) => [u.status, u.relation, u.targetKind, u.targetPageId || u.targetFileId || u.targetUrl, u.targetAnchor, u.locations.map((l) => l.pageId)]);

describe('ListLinks', () => {
  it("lists each target once with the pages linking to it, checked against the revision's pages, anchors and files", async () => {
    const res = await listLinks();
    expect(summary(res)).toEqual([
      ['ok', 'link', 'page', 'setup', '', ['guide']],
      ['ok', 'link', 'page', 'setup', 'install', ['guide', 'faq']],
      ['broken', 'link', 'page', 'setup', 'nowhere', ['guide']],
      ['broken', 'link', 'page', 'gone', '', ['guide']],
      ['ok', 'link', 'page', 'faq', '', ['guide']],
      ['broken', 'link', 'page', 'missing.md', '', ['guide']],
      ['ok', 'embed', 'file', 'logo', '', ['guide', 'setup']],
      ['broken', 'link', 'file', 'manual', '', ['guide']],
      ['broken', 'link', 'file', 'lost', '', ['guide']],
      ['ok', 'link', 'url', 'https://example.com/docs', '', ['guide']],
      ['in-app', 'link', 'url', `${APP_URL}/o/x/s/y`, '', ['guide']],
      ['in-app', 'link', 'url', '/o/x/s/z', '', ['guide']],
      ['ok', 'link', 'anchor', 'guide', 'overview', ['guide']],
      ['broken', 'link', 'anchor', 'guide', 'nothing-here', ['guide']],
      ['ok', 'link', 'page', 'guide', '', ['faq']],
    ]);
    expect(res.stats).toEqual({ total: 15, broken: 6 });
    expect(res.items[0]!.locations[0]).toEqual({ kind: 'page', organizationId: orgId, spaceId: space.id, pageId: 'guide', fileId: '' });
  });

  it('filters by status and by page, the stats counting everything listed without the status filter', async () => {
    const broken = await listLinks({ status: 'broken' });
    expect(broken.items.every((u) => u.status === 'broken')).toBe(true);
    expect(broken.items).toHaveLength(6);
    expect(broken.stats).toEqual({ total: 15, broken: 6 });
    const faq = await listLinks({ pageId: 'faq' });
    expect(summary(faq)).toEqual([
      ['ok', 'link', 'page', 'guide', '', ['faq']],
      ['ok', 'link', 'page', 'setup', 'install', ['faq']],
    ]);
    expect(faq.stats).toEqual({ total: 2, broken: 0 });
  });

  it('reads an older revision of the space when asked', async () => {
    const res = await listLinks({ revisionId: first.id });
    expect(summary(res)).toEqual([['ok', 'link', 'file', 'manual', '', ['guide']]]);
  });

  it('lists the links of a revision of many new pages as soon as it is written, its documents analyzed first if the indexer has not yet', async () => {
    const large = await h.createSpace(owner.id, { organizationId: orgId, title: 'Large' });
    const n = INDEX_INLINE_DOCUMENTS + 10;
    const pages = Array.from({ length: n }, (_, i) => page(`p${i}`, `Page ${i}`, `# Part ${i}\n\nOn to [the next](page-${i + 1}.md#part-${i + 1}).\n`));
    await h.createRevision(owner.id, { spaceId: large.id, pages });
    const res = await h.callContent<ListLinksRequest, ListLinksResponse>(
      h.spaceContent.listLinks,
      { spaceId: large.id, revisionId: '', pageId: '', status: '', page: { page: '', limit: 100 } },
      owner.id,
    );
    expect(res.stats).toEqual({ total: n, broken: 1 });
    expect(summary(res)[0]).toEqual(['ok', 'link', 'page', 'p1', 'part-1', ['p0']]);
    expect(summary(res).find((l) => l[0] === 'broken')).toEqual(['broken', 'link', 'page', `page-${n}.md`, `part-${n}`, [`p${n - 1}`]]);
  });

  it('pages through the targets', async () => {
    const one = await listLinks({ page: { page: '', limit: 10 } });
    const two = await listLinks({ page: { page: one.page!.next!, limit: 10 } });
    expect(one.items).toHaveLength(10);
    expect(two.items).toHaveLength(5);
    expect(two.page?.next).toBeUndefined();
  });

  it('refuses unknown statuses, pages, revisions and hidden spaces', async () => {
    await rejects(listLinks({ status: 'dead' }), status.INVALID_ARGUMENT, /status: must be one of ok, broken, in-app/);
    await rejects(listLinks({ pageId: 'nope' }), status.NOT_FOUND, /Page "nope" not found/);
    await rejects(listLinks({ revisionId: 'nope' }), status.NOT_FOUND, /revision "nope" not found/);
    await rejects(listLinks({}, outsider), status.NOT_FOUND, /Space/);
  });
});

describe('GitBook anchors of headings in other scripts', () => {
  it('takes the transliterated anchors GitBook links use (`#ustanovka`, `#zhun-bei`) as ok, and the rest as broken', async () => {
    const manual = await h.createSpace(owner.id, { organizationId: orgId, title: 'Manual' });
    const links = ['ustanovka', 'zhun-bei', 'zhun-bei-1', 'an-zhuang-node-js', 'nowhere'].map((a) => `[${a}](install.md#${a})`).join(' ');
    await h.createRevision(owner.id, {
      spaceId: manual.id,
      pages: [page('start', 'Start', `${links}\n`), page('install', 'Install', '## Установка\n\nText.\n\n## 准备\n\nOne.\n\n## 准备\n\nTwo.\n\n## 安装 Node.js\n')],
    });
    const res = await h.callContent<ListLinksRequest, ListLinksResponse>(h.spaceContent.listLinks, { spaceId: manual.id, revisionId: '', pageId: '', status: '' }, owner.id);
    expect(res.items.map((u) => [u.targetAnchor, u.status])).toEqual([
      ['ustanovka', 'ok'],
      ['zhun-bei', 'ok'],
      ['zhun-bei-1', 'ok'],
      ['an-zhuang-node-js', 'ok'],
      ['nowhere', 'broken'],
    ]);
  });
});

describe('ListFileBacklinks', () => {
  it("lists the pages whose documents link to or embed the file, in the revision's reading order", async () => {
    const res = await backlinks('logo');
    expect(res.items.map((l) => l.pageId)).toEqual(['guide', 'setup']);
    expect(res.items[0]).toEqual({ kind: 'page', organizationId: orgId, spaceId: space.id, pageId: 'guide', fileId: '' });
    expect((await backlinks('manual', first.id)).items.map((l) => l.pageId)).toEqual(['guide']);
  });

  it('answers NOT_FOUND for a file the revision does not have', async () => {
    await rejects(backlinks('manual'), status.NOT_FOUND, /File "manual" not found/);
    await rejects(backlinks('logo', '', outsider), status.NOT_FOUND, /Space/);
  });
});
