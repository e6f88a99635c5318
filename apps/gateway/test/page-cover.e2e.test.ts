import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { zip } from '@quire/content/testing';
import type { TestUser } from '@quire/orgs/testing';
import { TEST_PRIVATE_HOST } from '@quire/service-kit/testing';
import { describe, expect } from 'vitest';
import { expectError, ok, type Gateway } from './harness.ts';
import { test } from './fixtures.ts';

// A page's cover and layout, as GitBook's API answers them, from the page's front matter (which a
// Git import keeps, and markdown written through the API sets); every answer is checked against
// GitBook's OpenAPI document (setup.ts).

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const DEFAULTS = { width: 'default', cover: true, coverSize: 'full', title: true, description: true, tableOfContents: true, outline: true, pagination: true, metadata: true };

/** A space of `as`'s organization with an image, and a change request on it; answers where to write and the image's id. */
async function space(g: Gateway, as: TestUser, orgId: string) {
  const spaceId = (await ok(g.call(as, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Docs' }), 201)).id as string;
  const cr = `/v1/spaces/${spaceId}/change-requests/${(await ok(g.call(as, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Cover' }), 201)).number}`;
  await ok(g.call(as, 'POST', `${cr}/content`, { changes: [{ operation: 'insert_files', files: [{ name: 'hero.png', contentType: 'image/png', base64: PNG }] }] }));
  const hero = (await ok(g.call(as, 'GET', `${cr}/content/files`))).items[0].id as string;
  return { spaceId, cr, hero };
}

/** A space whose page "Home" has a cover and a layout (and a front matter key of GitBook's own), merged. */
async function covered(g: Gateway, as: TestUser, orgId: string) {
  const { spaceId, cr, hero } = await space(g, as, orgId);
  const matter = `---\ncover: /files/${hero}\ncoverY: 24\nlayout:\n  width: wide\n  outline:\n    visible: false\nsyncedBlock: abc\n---\n`;
  await ok(
    g.call(as, 'POST', `${cr}/content`, {
      changes: [
        { operation: 'insert_page', title: 'Home', document: { markdown: `${matter}\nWelcome.\n` } },
        { operation: 'insert_page', title: 'Plain', document: { markdown: 'No front matter.\n' } },
      ],
    }),
  );
  await ok(g.call(as, 'POST', `${cr}/merge`));
  const pages = (await ok(g.call(as, 'GET', `/v1/spaces/${spaceId}/content/pages`))).pages as { id: string; title: string }[];
  return { spaceId, hero, matter, home: pages.find((p) => p.title === 'Home')!.id, plain: pages.find((p) => p.title === 'Plain')!.id };
}

describe("a page's cover and layout", () => {
  test('of an imported GitBook folder are answered, its cover a file of the space', async ({ g, team: { owner, orgId } }) => {
    const folder = zip({
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n',
      'README.md': '---\ncover: .gitbook/assets/hero.png\ncoverY: -42\nlayout:\n  width: wide\n  cover:\n    size: hero\n  title:\n    visible: false\n---\n\n# Home\n',
      'guide/README.md': '---\ndescription: The guide\nlayout:\n  pagination:\n    visible: false\n---\n\n# Guide\n',
      '.gitbook/assets/hero.png': Buffer.from(PNG, 'base64'),
    });
    const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/zip' }).end(folder));
    await new Promise<void>((resolve) => server.listen(0, TEST_PRIVATE_HOST, resolve));
    try {
      const spaceId = (await ok(g.call(owner, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Imported' }), 201)).id as string;
      const url = `http://${TEST_PRIVATE_HOST}:${(server.address() as AddressInfo).port}/docs.zip`;
      await ok(g.call(owner, 'POST', `/v1/spaces/${spaceId}/content/import`, { url, source: 'zip' }), 201);
      const hero = (await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}/content/files`))).items[0].id as string;
      const pages = (await ok(g.call(owner, 'GET', `/v1/spaces/${spaceId}/content/pages`))).pages;
      expect(pages).toMatchObject([
        { title: 'Home', cover: { ref: { kind: 'file', file: hero }, yPos: -42 }, layout: { ...DEFAULTS, width: 'wide', coverSize: 'hero', title: false } },
        { title: 'Guide', description: 'The guide', layout: { ...DEFAULTS, pagination: false } },
      ]);
      expect(pages[1]).not.toHaveProperty('cover');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("are answered from its front matter wherever pages are, GitBook's defaults for the rest", async ({ g, team: { owner, reader, outsider, orgId } }) => {
    const { spaceId, hero, home, plain } = await covered(g, owner, orgId);
    const expected = { cover: { ref: { kind: 'file', file: hero }, yPos: 24 }, layout: { ...DEFAULTS, width: 'wide', outline: false } };
    const byId = await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}/content/page/${home}`));
    expect(byId).toMatchObject(expected);
    expect(await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}/content/path/${byId.path}`))).toMatchObject({ id: home, ...expected });
    const revision = await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}/content`));
    const listed = (await ok(g.call(reader, 'GET', `/v1/spaces/${spaceId}/revisions/${revision.id}/pages`))).pages as { id: string }[];
    for (const pages of [revision.pages as { id: string }[], listed]) {
      expect(pages.find((p) => p.id === home)).toMatchObject(expected);
      expect(pages.find((p) => p.id === plain)).toEqual(expect.objectContaining({ layout: DEFAULTS }));
      expect(pages.find((p) => p.id === plain)).not.toHaveProperty('cover');
    }
    // Someone of another organization finds no such space.
    expectError(await g.call(outsider, 'GET', `/v1/spaces/${spaceId}/content/page/${home}`), 404);
  });

  test('stay through edits of the body; front matter given sets its keys, the rest of the block kept as written', async ({ g, team: { owner, orgId } }) => {
    const { spaceId, hero, matter, home } = await covered(g, owner, orgId);
    const cr = `/v1/spaces/${spaceId}/change-requests/${(await ok(g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' }), 201)).number}`;
    const page = () => ok(g.call(owner, 'GET', `${cr}/content/page/${home}?format=markdown`));
    // As the editor saves a page: a JSONDocument, which holds no front matter.
    const paragraph = { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Edited.', marks: [] }] }] };
    await ok(g.call(owner, 'POST', `${cr}/content`, { changes: [{ operation: 'update_page', page: home, document: { object: 'document', data: {}, nodes: [paragraph] } }] }));
    expect(await page()).toMatchObject({ markdown: `${matter}Edited.\n`, cover: { ref: { kind: 'file', file: hero }, yPos: 24 }, layout: { width: 'wide', outline: false } });

    await ok(
      g.call(owner, 'POST', `${cr}/content`, { changes: [{ operation: 'update_page', page: home, document: { markdown: '---\nlayout:\n  width: default\n---\nAgain.\n' } }] }),
    );
    const edited = await page();
    expect(edited.markdown).toBe(matter.replace('layout:\n  width: wide\n  outline:\n    visible: false', 'layout:\n  width: default') + 'Again.\n');
    expect(edited).toMatchObject({ cover: { ref: { kind: 'file', file: hero }, yPos: 24 }, layout: DEFAULTS });
  });

  test("refuses a layout GitBook would not take, or a cover naming another organization's file, with 400 naming the key", async ({
    g,
    team: { owner, outsider, orgId, otherOrgId },
  }) => {
    const { spaceId, home } = await covered(g, owner, orgId);
    const theirs = (await space(g, outsider, otherOrgId)).hero;
    const cr = `/v1/spaces/${spaceId}/change-requests/${(await ok(g.call(owner, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Bad' }), 201)).number}`;
    const before = (await ok(g.call(owner, 'GET', cr))).revision;
    const write = (front: string) =>
      g.call(owner, 'POST', `${cr}/content`, { changes: [{ operation: 'update_page', page: home, document: { markdown: `---\n${front}\n---\nBody.\n` } }] });
    expectError(await write('layout:\n  width: huge'), 400, /changes\[0\]\.markdown: front matter "layout\.width" must be "default" or "wide"/);
    expectError(await write('layout:\n  outline:\n    visible: maybe'), 400, /"layout\.outline\.visible" must be true or false/);
    expectError(await write(`cover: /files/${theirs}`), 400, /"cover" names no file of this space/);
    expect((await ok(g.call(owner, 'GET', cr))).revision).toBe(before);
  });
});
