import { readFileSync } from 'node:fs';
import { status } from '@grpc/grpc-js';
import type { CreateSpaceRequest, Space } from '@quire/proto/content';
import type { CreateRevisionRequest, PageContent, Revision, SearchOrganizationRequest, SearchResponse, SearchSpaceRequest } from '@quire/proto/space-content';
import { Role } from '@quire/policy';
import { rejects } from '@quire/service-kit/testing/expect';
import { stopAll } from '@quire/service-kit/testing';
import { startOrgs, team, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openStore } from '../src/store/index.ts';
import { startContent, type ContentHarness } from './harness.ts';

let orgs: OrgsHarness;
let h: ContentHarness;
let owner: TestUser, reader: TestUser, outsider: TestUser;
let orgId: string;
let handbook: Space;

const page = (title: string, markdown: string, pages: PageContent[] = []): PageContent => ({ id: '', type: 'document', fields: { title }, markdown, href: '', pages });

const createSpace = (title: string) => h.call<CreateSpaceRequest, Space>(h.client.createSpace, { organizationId: orgId, title, emoji: '', editMode: '', visibility: '' }, owner.id);
const publish = (spaceId: string, pages: PageContent[]) =>
  h.callContent<CreateRevisionRequest, Revision>(h.spaceContent.createRevision, { spaceId, parentRevisionId: '', pages, files: [], setActive: true, type: '' }, owner.id);
const searchSpace = (spaceId: string, query: string, as: TestUser = owner, page?: { page: string; limit: number }) =>
  h.callContent<SearchSpaceRequest, SearchResponse>(h.spaceContent.searchSpace, { spaceId, query, page }, as.id);
/**
 * `upgrade` puts rows back as an older release wrote them, straight in the database, and has a
 * store of its own index them again (its sweep at start is over first); after it, a second
 * reindex finds nothing left.
 */
async function indexedAgain(upgrade: (db: pg.Client, store: ReturnType<typeof openStore>['store']) => Promise<void>) {
  const db = new pg.Client({ connectionString: h.databaseUrl });
  await db.connect();
  const { store, close } = openStore(h.databaseUrl, 1);
  try {
    await store.search.indexed();
    await upgrade(db, store);
    expect(await store.search.reindex()).toEqual({ documents: 0, sections: 0, pages: 0, failed: [] });
  } finally {
    await close();
    await db.end();
  }
}

const searchOrg = (query: string, as: TestUser = owner, organizationId = orgId) =>
  h.callContent<SearchOrganizationRequest, SearchResponse>(h.spaceContent.searchOrganization, { organizationId, query }, as.id);

beforeAll(async () => {
  orgs = await startOrgs();
  h = await startContent(orgs.address);
  ({ owner, reader, outsider, orgId } = await team(orgs, { reader: Role.ROLE_READ }));
  handbook = await createSpace('Handbook');
  await publish(handbook.id, [
    page(
      'Installation',
      'Quire runs anywhere Node runs.\n\n## Install on Kubernetes\n\nDeploy the chart to your Kubernetes cluster, then size the Kubernetes cluster for your traffic.\n\n## Install with Docker\n\nRun the image with Docker compose.\n',
      [page('Upgrading', '# Before you start\n\nBack up the database. A Kubernetes cluster upgrade is a separate matter.\n')],
    ),
    page('Kubernetes operations', 'Day-two tasks.\n\n## Monitoring\n\nWatch the dashboards.\n'),
    page('Billing', 'Invoices are sent monthly.\n'),
  ]);
});
afterAll(() => stopAll(h, orgs));

describe('SearchSpace', () => {
  it('finds pages by their sections and titles, best first, each with its matching sections', async () => {
    const res = await searchSpace(handbook.id, 'kubernetes cluster');
    expect(res.items.map((p) => p.title)).toEqual(['Installation', 'Upgrading']);
    const [install, upgrading] = res.items;
    expect(install).toMatchObject({ spaceId: handbook.id, path: 'installation' });
    expect(install!.sections).toEqual([{ id: 'install-on-kubernetes', title: 'Install on Kubernetes', body: expect.stringContaining('Kubernetes cluster') }]);
    expect(upgrading).toMatchObject({ path: 'installation/upgrading', sections: [{ id: 'before-you-start', title: 'Before you start' }] });
  });

  it('finds a page whose words are in different sections, showing no section as none holds them all', async () => {
    const res = await searchSpace(handbook.id, 'docker chart');
    expect(res.items.map((p) => p.title)).toEqual(['Installation']);
    expect(res.items[0]!.sections).toEqual([]);
  });

  it('finds a page by its title alone, and names the text before the first heading by the page title', async () => {
    const byTitle = await searchSpace(handbook.id, 'operations');
    expect(byTitle.items).toEqual([expect.objectContaining({ title: 'Kubernetes operations', sections: [] })]);
    const lead = await searchSpace(handbook.id, 'invoices');
    expect(lead.items[0]!.sections).toEqual([{ id: '', title: 'Billing', body: 'Invoices are sent monthly.' }]);
  });

  it('ranks a page named after the query above pages that only mention it', async () => {
    const res = await searchSpace(handbook.id, 'kubernetes');
    expect(res.items[0]!.title).toBe('Kubernetes operations');
    expect(res.items.map((p) => p.title).sort()).toEqual(['Installation', 'Kubernetes operations', 'Upgrading']);
  });

  it("indexes GitBook's blocks by their text, never their tags", async () => {
    const space = await createSpace('Blocks');
    await publish(space.id, [
      page(
        'Tips',
        '## Careful\n\n{% hint style="danger" %}\nNever skip the backups.\n{% endhint %}\n\n{% tabs %}\n{% tab title="Linux" %}\nRun the script.\n{% endtab %}\n{% endtabs %}\n',
      ),
      // Tags the document keeps as text (inside a line, unpaired, unknown): still no words.
      page(
        'Restores',
        'Restore weekly. {% hint style="info" %} Test a restore. {% endhint %}\n\n{% endhint %}\n\n{% swagger method="get" path="/restores" %}\n{% swagger-description %}\nLists the restores.\n{% endswagger-description %}\n{% endswagger %}\n',
      ),
    ]);
    for (const tag of ['endhint', 'hint', 'danger', 'endtabs', 'endtab', 'style', 'info', 'swagger', 'endswagger', 'method'])
      expect((await searchSpace(space.id, tag)).items, tag).toEqual([]);
    expect((await searchSpace(space.id, 'weekly')).items.map((p) => p.title)).toEqual(['Restores']);
    const found = await searchSpace(space.id, 'backups');
    expect(found.items.map((p) => p.title)).toEqual(['Tips']);
    expect(found.items[0]!.sections).toEqual([{ id: 'careful', title: 'Careful', body: 'Never skip the backups. Linux Run the script.' }]);
  });

  it('pages through the results', async () => {
    const first = await searchSpace(handbook.id, 'kubernetes', owner, { page: '', limit: 2 });
    expect(first.items).toHaveLength(2);
    const second = await searchSpace(handbook.id, 'kubernetes', owner, { page: first.page!.next!, limit: 2 });
    expect(second.items).toHaveLength(1);
    expect(second.page?.next).toBeUndefined();
    expect(new Set([...first.items, ...second.items].map((p) => p.pageId)).size).toBe(3);
  });

  it('reads only the active revision', async () => {
    const space = await createSpace('Changing');
    await publish(space.id, [page('Old', 'The zeppelin manual.\n')]);
    expect((await searchSpace(space.id, 'zeppelin')).items).toHaveLength(1);
    await publish(space.id, [page('New', 'The airship manual.\n')]);
    expect((await searchSpace(space.id, 'zeppelin')).items).toEqual([]);
    expect((await searchSpace(space.id, 'airship')).items.map((p) => p.title)).toEqual(['New']);
  });

  it('answers nothing for a query of stop words only', async () => {
    expect((await searchSpace(handbook.id, 'the of')).items).toEqual([]);
  });

  it('requires a query of at most 512 characters', async () => {
    await rejects(searchSpace(handbook.id, ''), status.INVALID_ARGUMENT, /query: required/);
    await rejects(searchSpace(handbook.id, 'k'.repeat(513)), status.INVALID_ARGUMENT, /query: must be at most 512/);
    await rejects(searchSpace(handbook.id, 'kubernetes', owner, { page: 'bogus', limit: 1 }), status.INVALID_ARGUMENT, /page/);
  });

  it('hides spaces the caller cannot see', async () => {
    await rejects(searchSpace(handbook.id, 'kubernetes', outsider), status.NOT_FOUND, /Space/);
    await rejects(searchSpace('nope', 'kubernetes'), status.NOT_FOUND, /Space "nope" not found/);
  });
});

describe('SearchSpace in every language', () => {
  let space: Space;
  beforeAll(async () => {
    space = await createSpace('Languages');
    await publish(space.id, [
      page('Серверы', 'Настройка сервера занимает минуту.\n\n## Резервные копии\n\nКопии серверов хранятся неделю.\n'),
      page('Διακομιστές', 'Οι διακομιστές είναι έτοιμοι για τους χρήστες.\n'),
      page('Accueil', "Le café est ouvert à l'équipe le matin.\n"),
      page('Meeting', 'Meet at the cafe on the corner.\n'),
      page('中文', `${'前言。'.repeat(80)}\n\n## 说明\n\n这是一个测试句子，用来检查服务器。\n`),
      page('日本語', 'サーバーのテストを実行します。\n'),
      page('Обновления', '{% hint style="info" %}\nВсе сервера обновлены.\n{% endhint %}\n'),
    ]);
  });
  const titlesIn = async (spaceId: string, query: string) => (await searchSpace(spaceId, query)).items.map((p) => p.title).sort();
  const titles = (query: string) => titlesIn(space.id, query);

  it('finds Russian words in every inflection, by their sections and their titles', async () => {
    expect(await titles('сервер')).toEqual(['Обновления', 'Серверы'].sort());
    expect(await titles('серверов')).toEqual(['Обновления', 'Серверы'].sort());
    expect(await titles('копия')).toEqual(['Серверы']);
    const [found] = (await searchSpace(space.id, 'копия')).items;
    expect(found!.sections).toEqual([{ id: expect.any(String), title: 'Резервные копии', body: 'Копии серверов хранятся неделю.' }]);
  });

  it('finds Greek words in another inflection', async () => {
    expect(await titles('διακομιστής')).toEqual(['Διακομιστές']);
    expect(await titles('χρήστης')).toEqual(['Διακομιστές']);
  });

  it('finds accented words without their accents, and the other way round', async () => {
    expect(await titles('cafe')).toEqual(['Accueil', 'Meeting']);
    expect(await titles('café')).toEqual(['Accueil', 'Meeting']);
    expect(await titles('equipe')).toEqual(['Accueil']);
  });

  it('finds Chinese and Japanese words inside sentences, as whole words only', async () => {
    const found = await searchSpace(space.id, '测试');
    expect(found.items.map((p) => p.title)).toEqual(['中文']);
    expect(found.items[0]!.sections).toEqual([{ id: expect.any(String), title: '说明', body: '这是一个测试句子，用来检查服务器。' }]);
    expect(await titles('服务器')).toEqual(['中文']);
    // Its characters, but not written together.
    expect(await titles('句子测试')).toEqual([]);
    expect(await titles('-服务器 测试')).toEqual([]);
    expect(await titles('テスト')).toEqual(['日本語']);
    expect(await titles('サーバー')).toEqual(['日本語']);
  });

  it("never returns a page holding a CJK word's pairs apart, on any page of the results", async () => {
    const cjk = await createSpace('CJK pairs');
    // サー, ーバ and バー each in the decoys, never in a row: the index finds them, the check drops them.
    const decoys = Array.from({ length: 12 }, (_, i) => page(`囮${i}`, `サーフィン。ーバ。バーの話。${'前言。'.repeat(i)}\n`));
    await publish(cjk.id, [...decoys, page('本物', 'サーバーの設定。\n'), page('二つ目', '新しいサーバーです。\n')]);
    const seen: string[] = [];
    let next: string | undefined = '';
    while (next !== undefined) {
      const res = await searchSpace(cjk.id, 'サーバー', owner, { page: next, limit: 1 });
      seen.push(...res.items.map((p) => p.title));
      next = res.page?.next;
    }
    expect(seen.sort()).toEqual(['二つ目', '本物'].sort());
    expect(await titlesIn(cjk.id, '-サーバー 設定')).toEqual([]);
    expect(await titlesIn(cjk.id, 'サーフィン')).toHaveLength(12);
  });

  it('cuts snippets around words of every script', async () => {
    const [chinese] = (await searchSpace(space.id, '前言')).items;
    expect(chinese!.sections[0]!.body).toMatch(/^前言。前言。/);
  });

  it('reads any query, however broken its syntax or mixed its scripts, without failing', async () => {
    for (const query of ['"unclosed', '-', 'OR OR', "'\\'", '测"试', '""', '-"服务器', 'сервер & | ! <->', `${'测试 сервер café '.repeat(30)}`.slice(0, 512)])
      expect((await searchSpace(space.id, query)).items, query).toBeInstanceOf(Array);
    expect(await titles('сервер & | ! <->')).toEqual(['Обновления', 'Серверы'].sort());
  });

  it("never finds GitBook's block tags, in any language's reading", async () => {
    for (const tag of ['hint', 'endhint', 'info', 'style']) expect(await titles(tag), tag).toEqual([]);
  });

  it('indexes again at start what was indexed before languages', async () => {
    await indexedAgain(async (db, store) => {
      // As the migrations left them: sections in English only, pages not indexed.
      await db.query(`UPDATE "DocumentSection" SET language = NULL, search = setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body), 'B')`);
      await db.query(`UPDATE "SpacePage" SET search = NULL, content = NULL`);
      expect(await titles('копия')).toEqual([]);
      expect(await titles('διακομιστής')).toEqual([]);
      expect(await titles('accueil')).toEqual([]);
      // Two at a time; the indexers of this store and the harness's may share the work.
      await store.search.reindex(2);
      const left = await db.query(`SELECT (SELECT count(*) FROM "DocumentSection" WHERE language IS NULL OR search IS NULL) AS sections,
        (SELECT count(*) FROM "SpacePage" WHERE search IS NULL OR content IS NULL) AS pages`);
      expect(left.rows[0]).toEqual({ sections: '0', pages: '0' });
      expect(await titles('копия')).toEqual(['Серверы']);
      expect(await titles('διακομιστής')).toEqual(['Διακομιστές']);
      expect(await titles('accueil')).toEqual(['Accueil']);
    });
  });
});

describe('SearchSpace after the tags migration', () => {
  it('indexes again the documents whose sections held GitBook tags as words, without them', async () => {
    const space = await createSpace('Legacy');
    const markdown = 'Restore weekly. {% hint style="info" %} Test a restore. {% endhint %}\n';
    await publish(space.id, [page('Legacy', markdown)]);
    const found = async (query: string) => (await searchSpace(space.id, query)).items.map((p) => p.title);
    await indexedAgain(async (db, store) => {
      // As sections were written before: the tags' words in the body and its vector.
      const body = markdown.trim();
      const { rows } = await db.query<{ documentId: string }>(
        `UPDATE "DocumentSection" ds SET body = $2, search = setweight(to_tsvector('quire_english', ds.title), 'A') || setweight(to_tsvector('quire_english', $2), 'B')
         FROM "SpacePage" sp WHERE sp."spaceId" = $1 AND ds."documentId" = sp."documentId" RETURNING ds."documentId"`,
        [space.id, body],
      );
      await db.query(`UPDATE "SpacePage" SET content = NULL WHERE "documentId" = $1`, [rows[0]!.documentId]);
      await store.search.reindex();
      expect(await found('endhint')).toEqual(['Legacy']);

      await db.query(readFileSync(new URL('../prisma/migrations/20261129100000_search_without_tag_words/migration.sql', import.meta.url), 'utf8'));
      await store.search.reindex();
      expect(await found('endhint')).toEqual([]);
      expect(await found('weekly')).toEqual(['Legacy']);
    });
  });
});

describe('SearchSpace, complete', () => {
  it('says whether every page of the space is indexed, so that a reader may keep the answer', async () => {
    const space = await createSpace('Runbook');
    await publish(space.id, [page('Restore', 'Restore the database weekly.\n'), page('Rotate', 'Rotate the keys.\n')]);
    const db = new pg.Client({ connectionString: h.databaseUrl });
    await db.connect();
    const { store, close } = openStore(h.databaseUrl, 1);
    try {
      await store.search.indexed();
      expect(await searchSpace(space.id, 'restore')).toMatchObject({ items: [{ title: 'Restore' }], complete: true });
      // A page left to index, as a large revision leaves them: found by its title meanwhile, and the answer says it may change.
      await db.query(`UPDATE "SpacePage" SET content = NULL WHERE "spaceId" = $1 AND title = 'Rotate'`, [space.id]);
      expect(await searchSpace(space.id, 'restore')).toMatchObject({ items: [{ title: 'Restore' }], complete: false });
      expect((await searchSpace(space.id, 'zebra')).complete).toBe(false);
      await store.search.reindex();
      expect(await searchSpace(space.id, 'keys')).toMatchObject({ items: [{ title: 'Rotate' }], complete: true });
    } finally {
      await close();
      await db.end();
    }
  });
});

describe('SearchOrganization', () => {
  it('searches the spaces the caller sees, not deleted ones', async () => {
    const secret = await createSpace('Secret');
    await publish(secret.id, [page('Vault', 'The marmalade recipe.\n')]);
    const open = await createSpace('Open');
    await publish(open.id, [page('Kitchen', 'Marmalade on toast.\n')]);
    await h.call(h.client.updateSpace, { spaceId: secret.id, defaultLevel: Role.ROLE_GUEST }, owner.id);

    expect((await searchOrg('marmalade')).items.map((p) => [p.spaceId, p.title]).sort()).toEqual(
      [
        [open.id, 'Kitchen'],
        [secret.id, 'Vault'],
      ].sort(),
    );
    expect((await searchOrg('marmalade', reader)).items.map((p) => p.title)).toEqual(['Kitchen']);

    await h.call(h.client.deleteSpace, { spaceId: open.id }, owner.id);
    expect((await searchOrg('marmalade')).items.map((p) => p.title)).toEqual(['Vault']);
  });

  it('is for members only', async () => {
    await rejects(searchOrg('marmalade', outsider), status.NOT_FOUND, /organization/);
    await rejects(searchOrg('', owner), status.INVALID_ARGUMENT, /query/);
  });
});
