import { describe, expect } from 'vitest';
import { Role } from '@quire/policy';
import type { TestUser } from '@quire/orgs/testing';
import { expectError, type Method, ok, type Gateway } from './harness.ts';
import { test as base, tenant, type Tenant } from './fixtures.ts';

/** A tenant with a creator and a reader, and helpers that write in its organization (as its owner unless told). */
function sitesOrg(g: Gateway, t: Tenant<'creator' | 'reader'>) {
  const sitesUrl = (org = t.orgId) => `/v1/orgs/${org}/sites`;
  return {
    ...t,
    sitesUrl,
    createSpace: (title = 'Handbook', org = t.orgId, as = t.owner) => ok(g.call(as, 'POST', `/v1/orgs/${org}/spaces`, { title }), 201),
    createSite: (body: Record<string, unknown> = {}, as: TestUser = t.owner) => ok(g.call(as, 'POST', sitesUrl(), { title: 'Docs site', ...body }), 201),
    snapshot: async (url: string) => (await g.call(t.owner, 'GET', url)).json(),
  };
}

const test = base.extend<{ org: ReturnType<typeof sitesOrg> }>({
  org: async ({ g }, use) => use(sitesOrg(g, await tenant(g, { creator: Role.ROLE_CREATE, reader: Role.ROLE_READ }))),
});

describe('sites over HTTP', () => {
  test('creates, reads, lists, updates, publishes and deletes a site in the reference shape', async ({ g, org: { owner, reader, orgId, sitesUrl, createSpace, createSite } }) => {
    const space = await createSpace('Guide');
    const site = await createSite({ spaces: [space.id] });
    expect(site).toEqual({
      object: 'site',
      id: expect.any(String),
      type: 'basic',
      title: 'Docs site',
      visibility: 'public',
      published: false,
      siteSpaces: 1,
      createdAt: expect.any(String),
      agentsContext: 'excluded',
      features: [{ id: 'sites-public-visibility', plan: 'basic', frozen: false }],
      urls: { location: `http://127.0.0.1:8080/v1/orgs/${orgId}/sites/${site.id}`, app: `http://127.0.0.1:8080/o/${orgId}/sites/${site.id}` },
    });
    const url = `${sitesUrl()}/${site.id}`;
    expect(await ok(g.call(reader, 'GET', url))).toEqual(site);
    const patched = await ok(
      g.call(owner, 'PATCH', url, {
        title: 'Handbook site',
        visibility: 'unlisted',
        basename: 'handbook',
        adaptiveContent: { enabled: true },
        agentsContext: 'included',
        proxy: 'example.com/docs',
        hostname: 'docs.example.com',
      }),
    );
    expect(patched).toMatchObject({
      title: 'Handbook site',
      visibility: 'unlisted',
      basename: 'handbook',
      adaptiveContent: { enabled: true },
      agentsContext: 'included',
      hostname: 'docs.example.com',
      proxy: { origin: 'example.com/docs', target: `http://127.0.0.1:8090/${orgId}/${site.id}` },
    });
    expect(await ok(g.call(owner, 'PATCH', url, { proxy: null, hostname: null }))).not.toHaveProperty('proxy');
    const published = await ok(g.call(owner, 'POST', `${url}/publish`));
    expect(published).toMatchObject({ published: true, urls: { published: `http://127.0.0.1:8090/${orgId}/${site.id}` } });
    expect((await ok(g.call(reader, 'GET', `${sitesUrl()}?published=true&space=${space.id}&title=HANDBOOK`))).items.map((s: { id: string }) => s.id)).toEqual([site.id]);
    expect((await ok(g.call(reader, 'GET', `${sitesUrl()}?published=false`))).items.map((s: { id: string }) => s.id)).not.toContain(site.id);
    expect(await ok(g.call(owner, 'POST', `${url}/unpublish`))).toMatchObject({ published: false });
    await ok(g.call(owner, 'DELETE', url), 205);
    expectError(await g.call(owner, 'GET', url), 404, /Site ".*" not found/);
  });

  test('creates a new space for the site with the `empty` keyword', async ({ g, org: { owner, orgId, sitesUrl, createSite } }) => {
    const site = await createSite({ spaces: 'empty', title: 'Fresh docs' });
    const { items } = await ok(g.call(owner, 'GET', `${sitesUrl()}/${site.id}/site-spaces`));
    expect(items).toEqual([
      expect.objectContaining({
        object: 'site-space',
        default: true,
        title: 'Fresh docs',
        space: expect.objectContaining({ object: 'space', title: 'Fresh docs', organization: orgId }),
      }),
    ]);
  });

  test('pages the list', async ({ g, org: { owner, sitesUrl } }) => {
    for (const t of ['One', 'Two', 'Three']) await ok(g.call(owner, 'POST', sitesUrl(), { title: t }), 201);
    const first = await ok(g.call(owner, 'GET', `${sitesUrl()}?limit=2`));
    expect(first).toMatchObject({ count: 2, next: { page: expect.any(String) } });
    const second = await ok(g.call(owner, 'GET', `${sitesUrl()}?limit=2&page=${first.next.page}`));
    expect(second.items.map((s: { title: string }) => s.title)).toEqual(['Three']);
    expectError(await g.call(owner, 'GET', `${sitesUrl()}?limit=1001`), 400, /limit/);
  });

  test('refuses bad input with the field named, writing nothing', async ({ g, org: { owner, outsider, otherOrgId, sitesUrl, createSpace, createSite, snapshot } }) => {
    const before = (await snapshot(sitesUrl())).count;
    const creates: [Record<string, unknown>, RegExp][] = [
      [{ title: 'x' }, /body.title/],
      [{ title: 'x'.repeat(129) }, /body.title/],
      [{ type: 'gold' }, /body.type/],
      [{ visibility: 'private' }, /body.visibility/],
      [{ spaces: 'full' }, /body.spaces/],
      [{ spaces: ['bad id'] }, /body.spaces/],
      [{ title: 12 }, /body.title/],
    ];
    for (const [body, message] of creates) expectError(await g.call(owner, 'POST', sitesUrl(), { title: 'Site', ...body }), 400, message);
    expectError(await g.call(owner, 'POST', sitesUrl(), { spaces: ['missing'] }), 404, /spaces\[0\]: space "missing" not found/);
    const foreign = await createSpace('Theirs', otherOrgId, outsider);
    expectError(await g.call(owner, 'POST', sitesUrl(), { spaces: [foreign.id] }), 404, /spaces\[0\]/);
    expect((await snapshot(sitesUrl())).count).toBe(before);

    const site = await createSite();
    const url = `${sitesUrl()}/${site.id}`;
    const patches: [Record<string, unknown>, RegExp][] = [
      [{ title: 'x' }, /body.title/],
      [{ basename: '' }, /body.basename/],
      [{ basename: 'b'.repeat(101) }, /body.basename/],
      [{ visibility: 'private' }, /body.visibility/],
      [{ agentsContext: 'maybe' }, /body.agentsContext/],
      [{ adaptiveContent: { on: true } }, /body.adaptiveContent/],
      [{ proxy: 'example.com' }, /body.proxy/],
      [{ proxy: 'https://example.com/docs' }, /body.proxy/],
      [{ proxy: `example.com/${'a'.repeat(510)}` }, /body.proxy/],
      [{ hostname: 'example.com' }, /body.hostname/],
      [{ hostname: 'Docs.Example.com' }, /body.hostname/],
    ];
    for (const [body, message] of patches) expectError(await g.call(owner, 'PATCH', url, body), 400, message);
    expectError(await g.call(owner, 'PATCH', url, { defaultSiteSpace: 'missing' }), 404, /defaultSiteSpace/);
    expectError(await g.call(owner, 'PATCH', url, { defaultSiteSection: 'missing' }), 404, /defaultSiteSection/);
    expectError(await g.call(owner, 'GET', `${sitesUrl()}?published=maybe`), 400, /query.published/);
    expect(await snapshot(url)).toEqual(site);
  });

  test('hides sites from outsiders and other organizations, and lets readers only read', async ({
    g,
    org: { creator, reader, outsider, otherOrgId, sitesUrl, createSite, snapshot },
  }) => {
    const site = await createSite({}, creator);
    const url = `${sitesUrl()}/${site.id}`;
    const denied: [Method, string, unknown?][] = [
      ['PATCH', url, { title: 'Reader site' }],
      ['DELETE', url],
      ['POST', `${url}/publish`],
      ['POST', `${url}/unpublish`],
      ['PUT', `${url}/adaptive-schema`, { jsonSchema: { type: 'object', properties: {}, additionalProperties: false } }],
      ['POST', `${url}/share-links`, { name: 'r' }],
      ['POST', sitesUrl(), { title: 'Reader site' }],
    ];
    for (const [method, u, body] of denied) expectError(await g.call(reader, method, u, body), 403, /create or admin/);
    for (const u of [url, `${url}/structure`, `${url}/site-spaces`, `${url}/sections`, `${url}/section-groups`, `${url}/share-links`, `${url}/adaptive-schema`]) {
      expectError(await g.call(outsider, 'GET', u), 404);
      await ok(g.call(reader, 'GET', u));
    }
    expectError(await g.call(outsider, 'GET', sitesUrl()), 404, /Organization/);
    expectError(await g.call(outsider, 'GET', `${sitesUrl(otherOrgId)}/${site.id}`), 404, /Site/);
    expectError(await g.call(outsider, 'DELETE', url), 404);
    expectError(await g.call(null, 'GET', url), 401);
    expect(await snapshot(url)).toEqual(site);
  });
});

describe('site structure over HTTP', () => {
  test('adds site-spaces with their embedded space, sections, groups, and sorts them', async ({ g, org: { owner, reader, sitesUrl, createSpace, createSite } }) => {
    const [a, b, c, d] = await Promise.all([createSpace('Guide'), createSpace('API'), createSpace('SDK'), createSpace('CLI')]);
    const site = await createSite({ spaces: [a.id] });
    const url = `${sitesUrl()}/${site.id}`;
    const added = await ok(g.call(owner, 'POST', `${url}/site-spaces`, { spaceId: b.id }), 201);
    expect(added).toEqual({
      object: 'site-space',
      id: expect.any(String),
      path: 'api',
      space: expect.objectContaining({ object: 'space', id: b.id }),
      title: 'API',
      default: false,
      urls: {},
    });
    expect((await ok(g.call(owner, 'GET', `${url}/structure`))).type).toBe('siteSpaces');
    expect((await ok(g.call(owner, 'GET', `${url}/site-spaces?default=true`))).items.map((p: { path: string }) => p.path)).toEqual(['guide']);

    const section = await ok(g.call(owner, 'POST', `${url}/sections`, { spaceId: c.id, title: 'SDK docs', icon: 'code' }), 201);
    expect(section).toMatchObject({
      object: 'site-section',
      title: 'SDK docs',
      path: 'sdk-docs',
      icon: 'code',
      default: false,
      siteSpaces: [expect.objectContaining({ path: 'sdk', default: true })],
    });
    const structure = await ok(g.call(owner, 'GET', `${url}/structure`));
    expect(structure.type).toBe('sections');
    expect(structure.structure.map((s: { path: string; siteSpaces: { path: string }[] }) => [s.path, s.siteSpaces.map((p) => p.path)])).toEqual([
      ['docs-site', ['guide', 'api']],
      ['sdk-docs', ['sdk']],
    ]);
    const [first] = structure.structure;
    // Without a section, a space goes to the default section.
    expect(await ok(g.call(owner, 'POST', `${url}/site-spaces`, { spaceId: d.id }), 201)).toMatchObject({ section: first.id, path: 'cli' });

    const group = await ok(g.call(owner, 'POST', `${url}/section-groups`, { title: 'Developers', sections: [section.id] }), 201);
    expect(group).toMatchObject({ object: 'site-section-group', title: 'Developers', sections: [expect.objectContaining({ id: section.id, sectionGroup: expect.any(String) })] });
    const sorted = await ok(
      g.call(owner, 'PATCH', `${url}/structure/sort`, { item: { type: 'site-section-group', id: group.id }, position: { before: { type: 'site-section', id: first.id } } }),
    );
    expect(sorted).toMatchObject({ object: 'site-section-group', id: group.id });
    expect((await ok(g.call(owner, 'GET', `${url}/structure`))).structure.map((x: { object: string }) => x.object)).toEqual(['site-section-group', 'site-section']);
    expect(await ok(g.call(owner, 'POST', `${url}/sections/${first.id}/move`, { position: { before: { type: 'site-section', siteSection: section.id } } }))).toMatchObject({
      id: first.id,
      sectionGroup: group.id,
    });
    expect(await ok(g.call(owner, 'POST', `${url}/section-groups/${group.id}/move`, {}))).toMatchObject({ id: group.id });
    const guide = first.siteSpaces[0];
    expect(
      await ok(g.call(owner, 'POST', `${url}/site-spaces/${guide.id}/move`, { position: { after: { type: 'site-space', siteSpace: first.siteSpaces[1].id } } })),
    ).toMatchObject({ id: guide.id });
    const groups = await ok(g.call(reader, 'GET', `${url}/section-groups`));
    expect(groups.items[0].sections.map((s: { id: string }) => s.id)).toEqual([first.id, section.id]);
    expect(groups.items[0].sections[0].siteSpaces.map((p: { path: string }) => p.path)).toEqual(['api', 'guide', 'cli']);

    await ok(g.call(owner, 'DELETE', `${url}/section-groups/${group.id}/sections/${first.id}`), 205);
    expect(await ok(g.call(owner, 'POST', `${url}/section-groups/${group.id}/sections`, { sectionId: first.id }), 201)).toMatchObject({
      sections: [{ id: section.id }, { id: first.id }],
    });
    expect(await ok(g.call(owner, 'PATCH', `${url}/section-groups/${group.id}`, { title: 'Devs', icon: 'rocket' }))).toMatchObject({ title: 'Devs', icon: 'rocket' });
    expect(await ok(g.call(owner, 'PATCH', `${url}/section-groups/${group.id}`, { icon: null }))).not.toHaveProperty('icon');
    await ok(g.call(owner, 'DELETE', `${url}/section-groups/${group.id}`), 205);
    expect((await ok(g.call(owner, 'GET', `${url}/section-groups`))).items).toEqual([]);
    expect((await ok(g.call(owner, 'GET', `${url}/sections`))).items).toHaveLength(2);
  });

  test('updates sections and site-spaces: conditions unset stay, null removes, paths stay unique', async ({ g, org: { owner, reader, sitesUrl, createSpace, createSite } }) => {
    const [a, b] = await Promise.all([createSpace('One'), createSpace('Two')]);
    const site = await createSite();
    const url = `${sitesUrl()}/${site.id}`;
    const s1 = await ok(g.call(owner, 'POST', `${url}/sections`, { spaceId: a.id }), 201);
    const s2 = await ok(g.call(owner, 'POST', `${url}/sections`, { spaceId: b.id, title: null, icon: null }), 201);
    expect([s1.default, s2.default, s2.title]).toEqual([true, false, 'Two']);
    const u1 = `${url}/sections/${s1.id}`;
    expect(await ok(g.call(owner, 'PATCH', u1, { condition: 'visitor.claims.unsigned.beta', description: 'First', icon: 'book' }))).toMatchObject({
      condition: 'visitor.claims.unsigned.beta',
      description: 'First',
      icon: 'book',
    });
    expect(await ok(g.call(owner, 'PATCH', u1, { title: 'Section one' }))).toMatchObject({ title: 'Section one', condition: 'visitor.claims.unsigned.beta' });
    const cleared = await ok(g.call(owner, 'PATCH', u1, { condition: null, description: null, icon: null }));
    expect(Object.keys(cleared)).not.toEqual(expect.arrayContaining(['condition']));
    expect(cleared).not.toHaveProperty('description');
    expectError(await g.call(owner, 'PATCH', u1, { path: s2.path }), 409, /path/);
    const p = s1.siteSpaces[0];
    const pu = `${url}/site-spaces/${p.id}`;
    expect(await ok(g.call(owner, 'PATCH', pu, { path: 'first', condition: 'visitor.claims.paid', spaceId: b.id }))).toMatchObject({
      path: 'first',
      condition: 'visitor.claims.paid',
      title: 'Two',
      space: { id: b.id },
    });
    expect(await ok(g.call(owner, 'PATCH', pu, { condition: null }))).not.toHaveProperty('condition');
    await ok(g.call(owner, 'PATCH', url, { defaultSiteSection: s2.id }));
    expect((await ok(g.call(owner, 'GET', `${url}/sections`))).items.map((s: { default: boolean }) => s.default)).toEqual([false, true]);
    expectError(await g.call(owner, 'PATCH', u1, { defaultSiteSpace: s2.siteSpaces[0].id }), 404, /defaultSiteSpace/);

    const bad: [Method, string, Record<string, unknown>, RegExp][] = [
      ['PATCH', u1, { title: 'x' }, /body.title/],
      ['PATCH', u1, { path: '' }, /body.path/],
      ['PATCH', u1, { path: 'p'.repeat(101) }, /body.path/],
      ['PATCH', u1, { condition: '' }, /body.condition/],
      ['PATCH', u1, { condition: 'c'.repeat(1025) }, /body.condition/],
      ['PATCH', u1, { description: 'd'.repeat(257) }, /body.description/],
      ['PATCH', u1, { icon: 'i'.repeat(51) }, /body.icon/],
      ['PATCH', pu, { path: '' }, /body.path/],
      ['PATCH', pu, { condition: 'c'.repeat(1025) }, /body.condition/],
      ['POST', `${url}/sections`, { title: 'Lonely' }, /body.spaceId/],
      ['POST', `${url}/sections`, { spaceId: a.id, title: 'x' }, /body.title/],
      ['POST', `${url}/site-spaces`, {}, /body.spaceId/],
      ['POST', `${url}/section-groups`, { title: '' }, /body.title/],
      ['POST', `${url}/section-groups`, { title: 't'.repeat(101) }, /body.title/],
      ['PATCH', `${url}/structure/sort`, { item: { type: 'page', id: 'x' }, position: {} }, /body.item.type/],
      ['PATCH', `${url}/structure/sort`, { item: { type: 'site-space', id: p.id } }, /body.position/],
      ['POST', `${url}/sections/${s1.id}/move`, { position: { before: { type: 'site-space', siteSection: s2.id } } }, /body.position.before.type/],
    ];
    for (const [method, u, body, message] of bad) expectError(await g.call(owner, method, u, body), 400, message);
    expectError(
      await g.call(owner, 'PATCH', `${url}/structure/sort`, { item: { type: 'site-space', id: p.id }, position: { before: { type: 'site-section', id: s2.id } } }),
      400,
      /site-space goes beside another site-space/,
    );
    expectError(await g.call(owner, 'POST', `${url}/sections`, { spaceId: 'missing' }), 404, /spaceId/);
    expectError(await g.call(owner, 'POST', `${url}/site-spaces`, { spaceId: a.id, sectionId: 'missing' }), 404, /sectionId/);
    expectError(await g.call(owner, 'PATCH', `${url}/site-spaces/missing`, { path: 'x' }), 404, /Site-space/);
    expectError(await g.call(owner, 'DELETE', `${url}/sections/missing`), 404, /Section/);
    expectError(await g.call(owner, 'DELETE', `${url}/section-groups/missing`), 404, /Section group/);
    expectError(await g.call(reader, 'PATCH', u1, { title: 'Mine' }), 403);
    expectError(await g.call(reader, 'POST', `${url}/site-spaces`, { spaceId: a.id }), 403);
    expectError(await g.call(reader, 'PATCH', `${url}/structure/sort`, { item: { type: 'site-space', id: p.id }, position: {} }), 403);

    await ok(g.call(owner, 'DELETE', pu), 205);
    await ok(g.call(owner, 'DELETE', u1), 205);
    expect((await ok(g.call(owner, 'GET', `${url}/sections`))).items.map((s: { id: string }) => s.id)).toEqual([s2.id]);
  });
});

describe('share links, adaptive schema and the published site over HTTP', () => {
  test('creates, renames, deactivates and deletes share links; only an active key opens a share-link site', async ({
    g,
    org: { owner, reader, outsider, sitesUrl, createSpace, createSite },
  }) => {
    const [a, b] = await Promise.all([createSpace('Open'), createSpace('Beta')]);
    const site = await createSite({ visibility: 'share-link', spaces: [a.id, b.id] });
    const url = `${sitesUrl()}/${site.id}`;
    const { items } = await ok(g.call(owner, 'GET', `${url}/site-spaces`));
    await ok(g.call(owner, 'PATCH', `${url}/site-spaces/${items[1].id}`, { condition: 'visitor.claims.unsigned.beta === true' }));
    const link = await ok(g.call(owner, 'POST', `${url}/share-links`, { name: 'Partners' }), 201);
    expect(link).toEqual({
      object: 'share-link',
      id: expect.any(String),
      createdAt: expect.any(String),
      name: 'Partners',
      active: true,
      urls: { published: expect.stringMatching(/\?shareKey=[A-Za-z0-9]{32}$/) },
    });
    const key = new URL(link.urls.published).searchParams.get('shareKey')!;
    const published = (as: TestUser, shareKey?: string) => g.call(as, 'GET', `${url}/published${shareKey ? `?shareKey=${shareKey}` : ''}`);

    expectError(await published(outsider, key), 404);
    await ok(g.call(owner, 'POST', `${url}/publish`));
    expectError(await published(outsider), 404);
    expectError(await published(outsider, 'wrongkey'), 404);
    const view = await ok(published(outsider, key));
    expect(view).toMatchObject({ object: 'published-content-site', site: { id: site.id, published: true }, structure: { type: 'siteSpaces' } });
    expect(view.structure.structure.map((p: { path: string }) => p.path)).toEqual(['open']);
    // The outsider may not see the space itself: the site-space comes without it.
    expect(view.structure.structure[0]).not.toHaveProperty('space');
    expect((await ok(published(reader))).structure.structure[0]).toHaveProperty('space');
    expect((await ok(g.call(outsider, 'GET', `${url}/site-spaces?shareKey=${key}`))).items).toHaveLength(2);

    const lu = `${url}/share-links/${link.id}`;
    expect(await ok(g.call(owner, 'PATCH', lu, { name: 'Renamed' }))).toMatchObject({ name: 'Renamed', active: true });
    expect(await ok(g.call(owner, 'PATCH', lu, { active: false }))).toMatchObject({ active: false });
    expectError(await published(outsider, key), 404);
    expectError(await g.call(outsider, 'GET', `${url}/sections?shareKey=${key}`), 404);
    expectError(await g.call(owner, 'PATCH', lu, {}), 400, /body/);
    expectError(await g.call(owner, 'PATCH', lu, { name: 'n'.repeat(51) }), 400, /body.name/);
    expectError(await g.call(owner, 'POST', `${url}/share-links`, {}), 400, /body.name/);
    expectError(await g.call(reader, 'PATCH', lu, { active: true }), 403);
    expect((await ok(g.call(reader, 'GET', `${url}/share-links`))).items.map((l: { id: string }) => l.id)).toEqual([link.id]);
    await ok(g.call(owner, 'DELETE', lu), 205);
    expectError(await g.call(owner, 'DELETE', lu), 404, /Share link/);
    await ok(g.call(owner, 'POST', `${url}/unpublish`));
    expectError(await published(owner), 404);
  });

  test('validates and keeps the adaptive schema, and derives template conditions', async ({ g, org: { owner, reader, sitesUrl, createSite } }) => {
    const site = await createSite();
    const url = `${sitesUrl()}/${site.id}/adaptive-schema`;
    expect(await ok(g.call(reader, 'GET', url))).toMatchObject({
      object: 'site-adaptive-schema',
      jsonSchema: { type: 'object', additionalProperties: false },
      updatedAt: expect.any(String),
    });
    const jsonSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        unsigned: {
          type: 'object',
          description: 'Unsigned claims of the site visitor.',
          properties: { beta: { type: 'boolean', description: 'Beta testers' } },
          additionalProperties: false,
        },
        paid: { type: 'boolean', description: 'Paying customers' },
      },
      additionalProperties: false,
    };
    const bad: [unknown, RegExp][] = [
      [{ ...jsonSchema, additionalProperties: true }, /jsonSchema\/additionalProperties: must be false/],
      [{ ...jsonSchema, type: 'objekt' }, /draft-07/],
      [{ ...jsonSchema, properties: { plan: { type: 'string' } } }, /jsonSchema\/properties\/plan\/type: must be "boolean"/],
      [{ ...jsonSchema, $schema: 'https://json-schema.org/draft/2020-12/schema' }, /\$schema/],
    ];
    for (const [schema, message] of bad) expectError(await g.call(owner, 'PUT', url, { jsonSchema: schema }), 400, message);
    expectError(await g.call(owner, 'PUT', url, { jsonSchema: 'text' }), 400, /body.jsonSchema/);
    expectError(await g.call(owner, 'PUT', url, {}), 400, /body.jsonSchema/);
    expect(await ok(g.call(owner, 'PUT', url, { jsonSchema }))).toEqual({ object: 'site-adaptive-schema', jsonSchema, updatedAt: expect.any(String) });
    expect(await ok(g.call(reader, 'GET', `${url}/template-conditions`))).toEqual({
      items: [
        { description: 'Beta testers', condition: 'visitor.claims.unsigned.beta === true' },
        { description: 'Paying customers', condition: 'visitor.claims.paid === true' },
      ],
    });
  });
});

describe('site customization over HTTP', () => {
  test('answers the defaults, takes a whole replacement (PUT) or some settings (PATCH), and shows them in the published view', async ({
    g,
    org: { owner, creator, reader, sitesUrl, createSpace, createSite },
  }) => {
    const site = await createSite({ spaces: [(await createSpace('Styled')).id] });
    const url = `${sitesUrl()}/${site.id}/customization`;
    const defaults = await ok(g.call(reader, 'GET', url));
    expect(defaults).toMatchObject({
      styling: { theme: 'clean', primaryColor: { light: '#346DDB', dark: '#346DDB' } },
      themes: { default: 'light', toggeable: true },
      header: { preset: 'default', links: [] },
    });
    expect(defaults).not.toHaveProperty('title');

    const logo = { light: 'https://cdn.example.com/logo.png', dark: 'https://cdn.example.com/logo-dark.png' };
    const replaced = await ok(g.call(creator, 'PUT', url, { ...defaults, title: 'Styled docs', header: { preset: 'default', logo, links: [] }, favicon: { emoji: '📘' } }));
    expect(replaced).toMatchObject({ title: 'Styled docs', header: { logo }, favicon: { emoji: '📘' } });
    const patched = await ok(
      g.call(owner, 'PATCH', url, { styling: { ...defaults.styling, primaryColor: { light: '#ff6600', dark: '#ffaa00' } }, themes: { default: 'dark', toggeable: false } }),
    );
    expect(patched).toMatchObject({ title: 'Styled docs', header: { logo }, styling: { primaryColor: { light: '#ff6600' } }, themes: { default: 'dark' } });
    expect(await ok(g.call(reader, 'GET', url))).toEqual(patched);

    const siteNow = await ok(g.call(owner, 'GET', `${sitesUrl()}/${site.id}`));
    expect(siteNow.features).toContainEqual({ id: 'sites-advanced-customization', plan: 'ultimate', frozen: false, customizations: ['header-logo'] });
    await ok(g.call(owner, 'POST', `${sitesUrl()}/${site.id}/publish`));
    const view = await ok(g.call(reader, 'GET', `${sitesUrl()}/${site.id}/published`));
    expect(view).toMatchObject({ customizations: { site: patched, siteSpaces: {} }, scripts: [] });
  });

  test('refuses bad settings naming the field, readers and other organizations, writing nothing', async ({
    g,
    org: { owner, reader, outsider, otherOrgId, sitesUrl, createSite },
  }) => {
    const site = await createSite();
    const url = `${sitesUrl()}/${site.id}/customization`;
    const before = await ok(g.call(owner, 'GET', url));
    expectError(await g.call(owner, 'PATCH', url, { styling: { ...before.styling, primaryColor: { light: 'red', dark: '#000000' } } }), 400, /body.styling.primaryColor.light/);
    expectError(await g.call(owner, 'PATCH', url, { themes: { default: 'sepia', toggeable: true } }), 400, /body.themes.default/);
    expectError(await g.call(owner, 'PATCH', url, { title: 'x' }), 400, /title/);
    expectError(await g.call(owner, 'PATCH', url, {}), 400);
    expectError(await g.call(owner, 'PUT', url, { title: 'Partial only' }), 400, /styling/);
    expectError(await g.call(reader, 'PATCH', url, { title: 'Reader title' }), 403, /create or admin/);
    expectError(await g.call(outsider, 'GET', url), 404);
    expectError(await g.call(outsider, 'GET', `/v1/orgs/${otherOrgId}/sites/${site.id}/customization`), 404);
    expect(await ok(g.call(owner, 'GET', url))).toEqual(before);
  });
});

describe('visitor authentication settings over HTTP', () => {
  test('answers the key to editors, sets the backend and fallback URL, and regenerates the key', async ({ g, org: { owner, creator, sitesUrl, createSite } }) => {
    const site = await createSite({ visibility: 'visitor-auth' });
    const url = `${sitesUrl()}/${site.id}/publishing/auth`;
    const first = await ok(g.call(creator, 'GET', url));
    expect(first).toMatchObject({ object: 'publishing-auth', backend: 'custom', privateKey: expect.stringMatching(/.{32,}/) });
    expect(await ok(g.call(owner, 'GET', url))).toEqual(first);

    const updated = await ok(g.call(owner, 'PATCH', url, { backend: 'custom', fallbackURL: 'https://login.example.com/quire' }));
    expect(updated).toEqual({ ...first, fallbackURL: 'https://login.example.com/quire' });
    const unset = await ok(g.call(owner, 'PATCH', url, { backend: 'custom', fallbackURL: null }));
    expect(unset).not.toHaveProperty('fallbackURL');

    const regenerated = await ok(g.call(creator, 'POST', `${url}/regenerate`));
    expect(regenerated.privateKey).not.toBe(first.privateKey);
    expect(await ok(g.call(owner, 'GET', url))).toEqual(regenerated);
  });

  test('refuses readers, other organizations and bad settings, changing nothing', async ({ g, org: { owner, reader, outsider, otherOrgId, sitesUrl, createSite } }) => {
    const site = await createSite({ visibility: 'visitor-auth' });
    const url = `${sitesUrl()}/${site.id}/publishing/auth`;
    const before = await ok(g.call(owner, 'GET', url));
    expectError(await g.call(reader, 'GET', url), 403);
    expectError(await g.call(reader, 'POST', `${url}/regenerate`), 403);
    expectError(await g.call(outsider, 'GET', url), 404);
    expectError(await g.call(outsider, 'GET', `/v1/orgs/${otherOrgId}/sites/${site.id}/publishing/auth`), 404);
    expectError(await g.call(owner, 'PATCH', url, { backend: 'magic' }), 400, /body.backend/);
    expectError(await g.call(owner, 'PATCH', url, { backend: 'custom', fallbackURL: 'not a url' }), 400, /body.fallbackURL/);
    expect(await ok(g.call(owner, 'GET', url))).toEqual(before);
  });
});
