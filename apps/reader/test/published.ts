import type { TestUser } from '@quire/orgs/testing';
import type { PageContent } from '@quire/proto/space-content';
import { ok } from '@quire/gateway/testing';
import { Role } from '@quire/proto/common';
import { test as base } from 'vitest';
import { page, spaceWith, startReader } from './harness.ts';

// What the tests of published sites share, once per file: a reader (logging at info, so that the
// tests see what it logs), an organization that publishes sites, and the guide's site.

type Harness = Awaited<ReturnType<typeof startReader>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the API's JSON as they expect it
type Json = any;

/** The guide's pages: nested ones, a hidden one, a link, and a script that must not run. */
export const guide = () => [
  page('Introduction', '# Welcome\n\nStart here. See [the setup](setup.md).\n\n## Install\n\n```js\nconst a = 1;\n```\n\n<script>alert(1)</script>\n\n## Configure\n\nText.'),
  page('Setup', 'Set things up.\n\n### Details\n\nMore.', [page('Advanced', 'Deep dive.')]),
  page('Hidden', 'Not in the menu.', [], { fields: { title: 'Hidden', hidden: true } }),
  page('Docs home', '', [], { type: 'link', href: 'https://example.com/docs', markdown: undefined }),
];

const calls = (h: Harness, owner: TestUser, orgId: string) => {
  const api = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, body?: unknown, status = 200): Promise<Json> =>
    ok(h.g.call(owner, method, `/v1/orgs/${orgId}${url}`, body), status);
  return {
    get: (url: string, headers: Record<string, string> = {}) => h.reader.app.inject({ method: 'GET', url, headers }),
    api,
    /** A site of `spaces`, with `body`'s settings, published. */
    async publishedSite(spaces: string[], body: Record<string, unknown> = {}) {
      const site = await api('POST', '/sites', { title: 'Acme Docs', spaces, ...body }, 201);
      if (Object.keys(body).length) await api('PATCH', `/sites/${site.id}`, body);
      await api('POST', `/sites/${site.id}/publish`);
      return site as { id: string };
    },
  };
};

/** The site of `spaceId`, published: its base path, its one site-space and the space's first page. */
export async function publishedPage(h: Harness, owner: TestUser, orgId: string, spaceId: string) {
  const { api, publishedSite } = calls(h, owner, orgId);
  const site = await publishedSite([spaceId]);
  const structure = await api('GET', `/sites/${site.id}/structure`);
  const content = await ok(h.g.call(owner, 'GET', `/v1/spaces/${spaceId}/content`));
  return { base: `/${orgId}/${site.id}`, siteSpace: structure.structure[0].id as string, pageId: content.pages[0].id as string, spaceId };
}

type Reader = { h: Harness; logged: string[] };
type Tenant = { owner: TestUser; orgId: string; otherOrg: string };

/**
 * `test` with fixtures: `h` (the reader and the gateway that sets sites up; `logged`, every line
 * the reader logged), this file's `owner` of `orgId` (and admin of `otherOrg`, another owner's),
 * `get` (a GET of the reader), `api` (a call of the owner to the organization's API),
 * `spaceWith` (a new space of the organization with these pages), `publishedSite`, and the
 * guide's space (`guideSpace`) published at `base`, one per file.
 */
export const test = base.extend<{
  reader: Reader;
  tenant: Tenant;
  h: Harness;
  logged: string[];
  owner: TestUser;
  orgId: string;
  otherOrg: string;
  get: ReturnType<typeof calls>['get'];
  api: ReturnType<typeof calls>['api'];
  publishedSite: ReturnType<typeof calls>['publishedSite'];
  spaceWith: (title: string, pages: PageContent[]) => Promise<string>;
  guideSpace: string;
  base: string;
}>({
  reader: [
    async ({}, use) => {
      const logged: string[] = [];
      const h = await startReader({ LOG_LEVEL: 'info' }, { logStream: { write: (line: string) => void logged.push(line) } });
      await use({ h, logged });
      await h.stop();
    },
    { scope: 'file' },
  ],
  tenant: [
    async ({ reader: { h } }, use) => {
      const owner = await h.g.orgs.user('owner');
      const orgId = (await h.g.orgs.organization(owner, [])).id;
      const outsider = await h.g.orgs.user('outsider');
      const otherOrg = (await h.g.orgs.organization(outsider, [[owner, Role.ROLE_ADMIN]], 'Other')).id;
      await use({ owner, orgId, otherOrg });
    },
    { scope: 'file' },
  ],
  h: async ({ reader }, use) => use(reader.h),
  logged: async ({ reader }, use) => use(reader.logged),
  owner: async ({ tenant }, use) => use(tenant.owner),
  orgId: async ({ tenant }, use) => use(tenant.orgId),
  otherOrg: async ({ tenant }, use) => use(tenant.otherOrg),
  get: async ({ h, owner, orgId }, use) => use(calls(h, owner, orgId).get),
  api: async ({ h, owner, orgId }, use) => use(calls(h, owner, orgId).api),
  publishedSite: async ({ h, owner, orgId }, use) => use(calls(h, owner, orgId).publishedSite),
  spaceWith: async ({ h, owner, orgId }, use) => use((title, pages) => spaceWith(h.g, owner, orgId, title, pages)),
  guideSpace: [async ({ reader: { h }, tenant: { owner, orgId } }, use) => use(await spaceWith(h.g, owner, orgId, 'Guide', guide())), { scope: 'file' }],
  base: [
    async ({ reader: { h }, tenant: { owner, orgId }, guideSpace }, use) => use(`/${orgId}/${(await calls(h, owner, orgId).publishedSite([guideSpace])).id}`),
    { scope: 'file' },
  ],
});
