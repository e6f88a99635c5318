import { status } from '@grpc/grpc-js';
import type {
  ApplyChangesRequest,
  ApplyChangesResponse,
  Change,
  GetPageRequest,
  GetRevisionRequest,
  ListRevisionsRequest,
  ListRevisionsResponse,
  Page,
  PageContent,
  Revision,
} from '@quire/proto/space-content';
import { Role } from '@quire/policy';
import { rejects } from '@quire/service-kit/testing/expect';
import { stopAll } from '@quire/service-kit/testing';
import type { OrgsHarness, TestUser } from '@quire/orgs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithTeam, type ContentHarness } from './harness.ts';

// A page's cover and layout live in its front matter, kept at the top of its markdown by Git
// imports: every read of pages answers them, and edits keep them.

let orgs: OrgsHarness;
let h: ContentHarness;
let owner: TestUser, editor: TestUser, reader: TestUser, outsider: TestUser;
let orgId: string, otherOrgId: string;

beforeAll(async () => {
  ({ orgs, h, owner, editor, reader, outsider, orgId, otherOrgId } = await startWithTeam({ editor: Role.ROLE_EDIT, reader: Role.ROLE_READ }));
});
afterAll(() => stopAll(h, orgs));

const sc = () => h.spaceContent;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

// As a Git import keeps it: the cover a file of the space, GitBook's layout keys, a key of GitBook's own.
const MATTER =
  '---\ncover: /files/hero\ncoverY: -42\nlayout:\n  width: wide\n  cover:\n    visible: true\n    size: hero\n  title:\n    visible: false\n# Kept as written.\nsyncedBlock: "abc"\n---\n';

// Titles as Git imports give them: from the summary, the heading left out.
const page = (id: string, markdown: string, pages: PageContent[] = []): PageContent => ({ id, type: '', fields: { title: id }, markdown, href: '', pages });
const getPage = (spaceId: string, req: Partial<GetPageRequest>, as: TestUser = reader) =>
  h.callContent<GetPageRequest, Page>(sc().getPage, { spaceId, revisionId: '', format: '', metadata: false, ...req }, as.id);
const getRevision = (spaceId: string, as: TestUser = reader) =>
  h.callContent<GetRevisionRequest, Revision>(sc().getRevision, { spaceId, revisionId: '', metadata: false, withMarkdown: false, withDocuments: false }, as.id);
const apply = (spaceId: string, revisionId: string, changes: Change[]) =>
  h.callContent<ApplyChangesRequest, ApplyChangesResponse>(sc().applyChanges, { spaceId, revisionId, changes }, editor.id);
const markdownOf = async (spaceId: string, revisionId: string, pageId: string) => (await getPage(spaceId, { revisionId, pageId, format: 'markdown' })).markdown;

/** A space imported with a page of each kind of front matter; answers its id and revision. */
async function imported(organizationId = orgId, as: TestUser = owner, file = 'hero') {
  const space = await h.createSpace(as.id, { organizationId, title: 'Docs' });
  const { blob } = (await h.putBlobs(as.id, [PNG]))[0]!;
  const revision = await h.createRevision(as.id, {
    spaceId: space.id,
    pages: [
      page('home', `${MATTER}\nWelcome.\n`, [page('child', '---\nlayout:\n  outline:\n    visible: false\n---\n')]),
      page('outside', '---\ndescription: An outside cover\ncover: https://example.com/cover.png\ncoverDark: /files/hero\n---\n'),
      // What GitBook would not take is read as far as it goes: the pagination alone.
      page('odd', '---\ncover: ../.gitbook/assets/missing.png\nlayout:\n  width: huge\n  pagination:\n    visible: false\n---\n'),
      page('plain', 'No front matter.\n'),
    ],
    files: [{ id: file, name: 'hero.png', contentType: 'image/png', blob }],
  });
  return { spaceId: space.id, revisionId: revision.id };
}

const HOME = {
  cover: { ref: { fileId: 'hero' }, refDark: undefined, yPos: -42 },
  layout: { width: 'wide', cover: true, coverSize: 'hero', title: false },
};

describe('pages answer their cover and layout', () => {
  it("from the front matter a Git import kept, on every read of pages: only what it sets, as GitBook's API names it", async () => {
    const { spaceId, revisionId } = await imported();
    const pages = (await getRevision(spaceId)).pages;
    const home = pages.find((p) => p.id === 'home')!;
    expect(home).toMatchObject(HOME);
    expect(home.pages[0]).toMatchObject({ id: 'child', cover: undefined, layout: { outline: false } });
    expect(pages.find((p) => p.id === 'outside')).toMatchObject({
      description: 'An outside cover',
      cover: { ref: { url: 'https://example.com/cover.png' }, refDark: { fileId: 'hero' }, yPos: 0 },
      layout: undefined,
    });
    expect(pages.find((p) => p.id === 'odd')).toMatchObject({ cover: undefined, layout: { pagination: false } });
    expect(pages.find((p) => p.id === 'plain')).toMatchObject({ cover: undefined, layout: undefined });

    // By id and by path (its pages with theirs), and in the space's history.
    expect(await getPage(spaceId, { pageId: 'home' })).toMatchObject({ ...HOME, pages: [{ layout: { outline: false } }] });
    expect(await getPage(spaceId, { path: 'home/child', revisionId })).toMatchObject({ layout: { outline: false } });
    const history = await h.callContent<ListRevisionsRequest, ListRevisionsResponse>(sc().listRevisions, { spaceId, metadata: false }, reader.id);
    expect(history.items[0]!.pages.find((p) => p.id === 'home')).toMatchObject(HOME);
  });

  it("answers NOT_FOUND for a page of another organization's space", async () => {
    const { spaceId } = await imported(otherOrgId, outsider);
    expect(await getPage(spaceId, { pageId: 'home' }, outsider)).toMatchObject({ layout: HOME.layout });
    await rejects(getPage(spaceId, { pageId: 'home' }, reader), status.NOT_FOUND);
  });
});

describe('edits', () => {
  it('keep the front matter when the body changes; a front matter given sets its keys, the rest byte for byte', async () => {
    const { spaceId, revisionId } = await imported();
    const document = JSON.stringify({
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Edited.', marks: [] }] }] }],
    });
    // A JSONDocument and markdown without front matter are the body only.
    const asDocument = (await apply(spaceId, revisionId, [{ updatePage: { page: 'home', documentJson: document, move: false } }])).revision!.id;
    expect(await markdownOf(spaceId, asDocument, 'home')).toBe(`${MATTER}Edited.\n`);
    const asMarkdown = (await apply(spaceId, asDocument, [{ updatePage: { page: 'home', markdown: 'Rewritten.\n', move: false } }])).revision!.id;
    expect(await markdownOf(spaceId, asMarkdown, 'home')).toBe(`${MATTER}Rewritten.\n`);
    expect(await getPage(spaceId, { pageId: 'home', revisionId: asMarkdown })).toMatchObject(HOME);

    // GitBook reads a given front matter to update the page: its description, a new layout, no cover.
    const given = '---\ndescription: Now described\nlayout:\n  width: default\ncover: null\n---\nAgain.\n';
    const edited = (await apply(spaceId, asMarkdown, [{ updatePage: { page: 'home', markdown: given, move: false } }])).revision!.id;
    expect(await markdownOf(spaceId, edited, 'home')).toBe(
      '---\ncoverY: -42\nlayout:\n  width: default\n# Kept as written.\nsyncedBlock: "abc"\ndescription: Now described\n---\nAgain.\n',
    );
    expect(await getPage(spaceId, { pageId: 'home', revisionId: edited })).toMatchObject({ description: 'Now described', cover: undefined, layout: { width: 'default' } });

    // A page without front matter takes the one given; fields alone leave the body as it is.
    const plain = (
      await apply(spaceId, edited, [{ updatePage: { page: 'plain', fields: { title: 'Plain too' }, markdown: '---\ncover: /files/hero\n---\nCovered.\n', move: false } }])
    ).revision!.id;
    expect(await markdownOf(spaceId, plain, 'plain')).toBe('---\ncover: /files/hero\n---\nCovered.\n');
    const renamed = (await apply(spaceId, plain, [{ updatePage: { page: 'plain', fields: { title: 'Renamed' }, move: false } }])).revision!.id;
    expect(await getPage(spaceId, { pageId: 'plain', revisionId: renamed })).toMatchObject({ title: 'Renamed', cover: { ref: { fileId: 'hero' }, yPos: 0 } });
  });

  it("refuse a cover or layout GitBook would not take, or a cover naming another space's file, naming the change and the key", async () => {
    const { spaceId, revisionId } = await imported();
    const other = await imported(otherOrgId, outsider, 'theirs');
    const otherFile = (await getRevision(other.spaceId, outsider)).files[0]!.id;
    expect(otherFile).toBe('theirs');
    const bad = (front: string, kind: 'insert' | 'update' = 'update') =>
      apply(spaceId, revisionId, [
        { updatePage: { page: 'plain', fields: { title: 'Fine' }, move: false } },
        kind === 'update'
          ? { updatePage: { page: 'home', markdown: `---\n${front}\n---\nBody\n`, move: false } }
          : { insertPage: { fields: { title: 'New' }, type: '', markdown: `---\n${front}\n---\nBody\n`, href: '', ref: '' } },
      ]);
    const refused = async (front: string, message: RegExp, kind?: 'insert') => rejects(bad(front, kind), status.INVALID_ARGUMENT, message);
    await refused('layout:\n  width: huge', /^changes\[1\]\.markdown: front matter "layout\.width" must be "default" or "wide"/);
    await refused('layout:\n  title:\n    visible: "yes"', /^changes\[1\]\.markdown: front matter "layout\.title\.visible" must be true or false/, 'insert');
    await refused('layout:\n  cover:\n    size: tiny', /"layout\.cover\.size" must be "hero" or "full"/);
    await refused('coverY: top', /"coverY" must be a number/);
    await refused('cover: ../hero.png', /"cover" must be a file of the space/);
    // Another organization's file is no more known here than a missing one.
    await refused(`cover: /files/${otherFile}`, new RegExp(`"cover" names no file of this space \\("${otherFile}"\\)`), 'insert');
    await refused('cover: /files/nope', /"cover" names no file of this space/);
    expect((await getRevision(spaceId)).id).toBe(revisionId);
  });
});
