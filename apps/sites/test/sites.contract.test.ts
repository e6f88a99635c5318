import { status } from '@grpc/grpc-js';
import { rejects } from '@quire/service-kit/testing/expect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Site, SiteSection, SiteSectionGroup, SiteSpace, SiteStructure, SiteStructureItem, ShareLink } from '@quire/proto/sites';
import type { Space } from '@quire/proto/content';
import { Role } from '@quire/policy';
import { stopAll } from '@quire/service-kit/testing';
import { startOrgs, team, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { startContent, type ContentHarness } from '@quire/content/testing';
import { startSites, type SitesHarness } from './harness.ts';

let orgs: OrgsHarness;
let content: ContentHarness;
let h: SitesHarness;
let owner: TestUser, creator: TestUser, reader: TestUser, guest: TestUser, outsider: TestUser;
let orgId: string, otherOrgId: string;

beforeAll(async () => {
  orgs = await startOrgs();
  content = await startContent(orgs.address);
  h = await startSites(orgs.address, content.address);
  ({ owner, creator, reader, guest, outsider, orgId, otherOrgId } = await team(orgs, { creator: Role.ROLE_CREATE, reader: Role.ROLE_READ, guest: Role.ROLE_GUEST }));
});
afterAll(() => stopAll(h, content, orgs));

const c = () => h.client;
// Requests are written partially here (proto3 defaults fill the rest on the wire).
const call = <Res = unknown>(method: unknown, req: object, userId?: string) => h.call(method as never, req as never, userId) as Promise<Res>;
const contentCall = <Res = unknown>(method: unknown, req: object, userId?: string) => content.call(method as never, req as never, userId) as Promise<Res>;
const ref = (siteId: string, organizationId = orgId) => ({ organizationId, siteId });
const space = (title = 'Handbook', org = orgId, as = owner) =>
  contentCall<Space>(content.client.createSpace, { organizationId: org, title, emoji: '', editMode: '', visibility: '' }, as.id);
const createSite = (req: object = {}, as: TestUser = owner) =>
  call<Site>(c().createSite, { organizationId: orgId, type: '', visibility: '', spaceIds: [], title: 'Docs site', ...req }, as.id);
const structure = (siteId: string, as: TestUser = owner) => call<SiteStructure>(c().getSiteStructure, { site: ref(siteId) }, as.id);
const addSpace = (siteId: string, spaceId: string, sectionId?: string) => call<SiteSpace>(c().addSiteSpace, { site: ref(siteId), spaceId, sectionId }, owner.id);
const addSection = (siteId: string, spaceId: string, title?: string) => call<SiteSection>(c().createSection, { site: ref(siteId), spaceId, title }, owner.id);
const move = (siteId: string, item: object, anchor: object = {}) => call<SiteStructureItem>(c().moveSiteItem, { site: ref(siteId), item, ...anchor }, owner.id);
const shape = (s: SiteStructure) =>
  s.items.map((i) =>
    i.siteSpace ? i.siteSpace.path : i.section ? `${i.section.path}[${i.section.siteSpaces.map((p) => p.path)}]` : `${i.group!.title}{${i.group!.sections.map((x) => x.path)}}`,
  );

describe('sites', () => {
  it('creates a basic, public, unpublished site with its spaces at the root, the first default', async () => {
    const [a, b] = await Promise.all([space('Guide'), space('API')]);
    const site = await createSite({ spaceIds: [a.id, b.id] });
    expect(site).toMatchObject({ organizationId: orgId, type: 'basic', title: 'Docs site', visibility: 'public', published: false, agentsContext: 'excluded', siteSpaces: 2 });
    const s = await structure(site.id);
    expect(s.type).toBe('siteSpaces');
    expect(s.items.map((i) => [i.siteSpace!.path, i.siteSpace!.default, i.siteSpace!.spaceId])).toEqual([
      ['guide', true, a.id],
      ['api', false, b.id],
    ]);
  });

  it('creates a space for the site with the `empty` keyword, through content', async () => {
    const site = await createSite({ spaceKeyword: 'empty', title: 'Fresh' });
    const s = await structure(site.id);
    const spaceId = s.items[0]!.siteSpace!.spaceId;
    expect(await contentCall<Space>(content.client.getSpace, { spaceId }, owner.id)).toMatchObject({ title: 'Fresh', organizationId: orgId });
  });

  it('refuses bad fields and spaces it cannot use, writing nothing', async () => {
    const before = (await call<{ items: Site[] }>(c().listSites, { organizationId: orgId }, owner.id)).items.length;
    await rejects(createSite({ title: 'x' }), status.INVALID_ARGUMENT, /title: must be between 2 and 128/);
    await rejects(createSite({ type: 'gold' }), status.INVALID_ARGUMENT, /type: must be one of basic/);
    await rejects(createSite({ visibility: 'private' }), status.INVALID_ARGUMENT, /visibility/);
    await rejects(createSite({ spaceKeyword: 'full' }), status.INVALID_ARGUMENT, /spaces: must be one of empty, sample/);
    const foreign = await space('Theirs', otherOrgId, outsider);
    await rejects(createSite({ spaceIds: [foreign.id] }), status.NOT_FOUND, /spaces\[0\]: space ".*" not found/);
    await rejects(createSite({ spaceIds: ['nope'] }), status.NOT_FOUND, /spaces\[0\]/);
    expect((await call<{ items: Site[] }>(c().listSites, { organizationId: orgId }, owner.id)).items.length).toBe(before);
  });

  it('lets members read, creators and admins change, and hides sites from guests and outsiders', async () => {
    const site = await createSite({}, creator);
    expect(await call(c().getSite, { site: ref(site.id) }, reader.id)).toMatchObject({ id: site.id });
    await rejects(call(c().updateSite, { site: ref(site.id), title: 'Mine' }, reader.id), status.PERMISSION_DENIED, /create or admin/);
    await rejects(createSite({}, reader), status.PERMISSION_DENIED);
    await rejects(call(c().getSite, { site: ref(site.id) }, guest.id), status.NOT_FOUND);
    await rejects(call(c().getSite, { site: ref(site.id) }, outsider.id), status.NOT_FOUND);
    await rejects(call(c().getSite, { site: ref(site.id, otherOrgId) }, outsider.id), status.NOT_FOUND);
    await rejects(call(c().listSites, { organizationId: orgId }, outsider.id), status.NOT_FOUND);
  });

  it('updates, filters, publishes and deletes', async () => {
    const sp = await space('Filtered');
    const site = await createSite({ title: 'Zebra manual', spaceIds: [sp.id] });
    const updated = await call<Site>(
      c().updateSite,
      {
        site: ref(site.id),
        basename: 'zebra',
        setProxy: true,
        proxy: 'example.com/docs',
        setHostname: true,
        hostname: 'docs.example.com',
        adaptiveContent: true,
        agentsContext: 'included',
      },
      owner.id,
    );
    expect(updated).toMatchObject({ basename: 'zebra', proxy: 'example.com/docs', hostname: 'docs.example.com', adaptiveContent: true, agentsContext: 'included' });
    await rejects(call(c().updateSite, { site: ref(site.id), setProxy: true, proxy: 'example.com' }, owner.id), status.INVALID_ARGUMENT, /proxy/);
    const other = await createSite();
    await rejects(call(c().updateSite, { site: ref(other.id), setHostname: true, hostname: 'docs.example.com' }, owner.id), status.ALREADY_EXISTS, /hostname/);
    expect((await call<Site>(c().updateSite, { site: ref(site.id), setProxy: true }, owner.id)).proxy).toBeUndefined();
    expect(await call<Site>(c().setSitePublished, { site: ref(site.id), published: true }, owner.id)).toMatchObject({ published: true });
    const list = (q: object) => call<{ items: Site[] }>(c().listSites, { organizationId: orgId, ...q }, reader.id).then((r) => r.items.map((s) => s.id));
    expect(await list({ title: 'ZEBRA' })).toEqual([site.id]);
    expect(await list({ spaceId: sp.id })).toEqual([site.id]);
    expect(await list({ published: true })).toEqual([site.id]);
    expect(await list({ published: false })).not.toContain(site.id);
    await call(c().deleteSite, { site: ref(site.id) }, owner.id);
    await rejects(call(c().getSite, { site: ref(site.id) }, owner.id), status.NOT_FOUND);
  });
});

describe('structure', () => {
  it('adds spaces to the default section, moves the root into a section, and keeps paths unique', async () => {
    const [a, b, cc] = await Promise.all([space('Guide'), space('Guide'), space('Reference')]);
    const site = await createSite({ spaceIds: [a.id] });
    expect((await addSpace(site.id, b.id)).path).toBe('guide-2');
    const sec = await addSection(site.id, cc.id, 'API reference');
    expect(shape(await structure(site.id))).toEqual(['docs-site[guide,guide-2]', 'api-reference[reference]']);
    const added = await addSpace(site.id, a.id);
    const s = await structure(site.id);
    expect(s.type).toBe('sections');
    expect(s.items[0]!.section).toMatchObject({ default: true, siteSpaces: expect.arrayContaining([expect.objectContaining({ id: added.id, path: 'guide-3' })]) });
    await rejects(call(c().updateSiteSpace, { site: ref(site.id), siteSpaceId: added.id, path: 'guide' }, owner.id), status.ALREADY_EXISTS, /path/);
    await rejects(call(c().updateSection, { site: ref(site.id), sectionId: sec.id, path: 'docs-site' }, owner.id), status.ALREADY_EXISTS, /path/);
    await rejects(addSpace(site.id, a.id, 'nope'), status.NOT_FOUND, /sectionId: section "nope"/);
  });

  it('sets and removes conditions: unset leaves, set-without-value removes', async () => {
    const a = await space('Cond');
    const site = await createSite({ spaceIds: [a.id] });
    const [p] = (await call<{ items: SiteSpace[] }>(c().listSiteSpaces, { site: ref(site.id) }, owner.id)).items;
    const upd = (req: object) => call<SiteSpace>(c().updateSiteSpace, { site: ref(site.id), siteSpaceId: p!.id, setCondition: false, ...req }, owner.id);
    expect((await upd({ setCondition: true, condition: 'visitor.claims.beta' })).condition).toBe('visitor.claims.beta');
    expect((await upd({ path: 'moved' })).condition).toBe('visitor.claims.beta');
    expect((await upd({ setCondition: true })).condition).toBeUndefined();
    await rejects(upd({ setCondition: true, condition: '' }), status.INVALID_ARGUMENT, /condition: must be between 1 and 1024/);
  });

  it('groups sections, sorts the structure, and ungroups on delete', async () => {
    const [a, b, cc, d] = await Promise.all([space('One'), space('Two'), space('Three'), space('Four')]);
    const site = await createSite({});
    const s1 = await addSection(site.id, a.id, 'One');
    const s2 = await addSection(site.id, b.id, 'Two');
    const s3 = await addSection(site.id, cc.id, 'Three');
    const g = await call<SiteSectionGroup>(c().createSectionGroup, { site: ref(site.id), title: 'G', sectionIds: [s3.id, s2.id] }, owner.id);
    expect(shape(await structure(site.id))).toEqual(['one[one]', 'G{three,two}']);
    await move(site.id, { type: 'site-section-group', id: g.id }, { before: { type: 'site-section', id: s1.id } });
    await move(site.id, { type: 'site-section', id: s1.id }, { after: { type: 'site-section', id: s3.id } });
    expect(shape(await structure(site.id))).toEqual(['G{three,one,two}']);
    await rejects(move(site.id, { type: 'site-section-group', id: g.id }, { before: { type: 'site-section', id: s1.id } }), status.INVALID_ARGUMENT, /top-level/);
    await rejects(move(site.id, { type: 'site-space', id: 'x' }), status.NOT_FOUND, /item/);
    const p4 = await addSpace(site.id, d.id, s1.id);
    const [p2] = (await structure(site.id)).items[0]!.group!.sections.find((x) => x.id === s2.id)!.siteSpaces;
    await move(site.id, { type: 'site-space', id: p4.id }, { before: { type: 'site-space', id: p2!.id } });
    expect(shape(await structure(site.id))).toEqual(['G{three,one,two}']);
    const two = (await structure(site.id)).items[0]!.group!.sections.find((x) => x.id === s2.id)!;
    expect(two.siteSpaces.map((x) => [x.path, x.default])).toEqual([
      ['four', false],
      ['two', true],
    ]);
    await call(c().removeSectionFromGroup, { site: ref(site.id), groupId: g.id, sectionId: s1.id }, owner.id);
    expect(shape(await structure(site.id))).toEqual(['G{three,two}', 'one[one]']);
    await call(c().deleteSectionGroup, { site: ref(site.id), groupId: g.id }, owner.id);
    expect(shape(await structure(site.id))).toEqual(['three[three]', 'two[four,two]', 'one[one]']);
  });

  it('hands the default over when the default section or site-space goes', async () => {
    const [a, b] = await Promise.all([space('Alpha'), space('Beta')]);
    const site = await createSite({});
    const s1 = await addSection(site.id, a.id);
    const s2 = await addSection(site.id, b.id);
    expect([s1.default, s2.default]).toEqual([true, false]);
    await call(c().updateSite, { site: ref(site.id), defaultSectionId: s2.id }, owner.id);
    await call(c().deleteSection, { site: ref(site.id), sectionId: s2.id }, owner.id);
    expect((await structure(site.id)).items[0]!.section).toMatchObject({ id: s1.id, default: true });
    await rejects(call(c().updateSite, { site: ref(site.id), defaultSectionId: s2.id }, owner.id), status.NOT_FOUND, /defaultSiteSection/);
  });
});

describe('share links and the published view', () => {
  it('resolves a share-link site only with an active key, and applies conditions', async () => {
    const [a, b] = await Promise.all([space('Open'), space('Hidden')]);
    const site = await createSite({ visibility: 'share-link', spaceIds: [a.id, b.id] });
    const items = (await call<{ items: SiteSpace[] }>(c().listSiteSpaces, { site: ref(site.id) }, owner.id)).items;
    await call(c().updateSiteSpace, { site: ref(site.id), siteSpaceId: items[1]!.id, setCondition: true, condition: 'visitor.claims.unsigned.beta' }, owner.id);
    const link = await call<ShareLink>(c().createShareLink, { site: ref(site.id), name: 'Partners' }, owner.id);
    expect(link).toMatchObject({ name: 'Partners', active: true, key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    const published = (shareKey?: string, as = outsider) => call<{ structure: SiteStructure }>(c().getPublishedContentSite, { site: ref(site.id), shareKey }, as.id);
    await rejects(published(link.key), status.NOT_FOUND);
    await call(c().setSitePublished, { site: ref(site.id), published: true }, owner.id);
    await rejects(published(), status.NOT_FOUND);
    await rejects(published('wrong'), status.NOT_FOUND);
    expect(shape((await published(link.key)).structure)).toEqual(['open']);
    expect(shape((await published(undefined, reader)).structure)).toEqual(['open']);
    await call(c().updateShareLink, { site: ref(site.id), shareLinkId: link.id, active: false }, owner.id);
    await rejects(published(link.key), status.NOT_FOUND);
    await rejects(call(c().listSiteSpaces, { site: ref(site.id), shareKey: link.key }, outsider.id), status.NOT_FOUND);
    await call(c().deleteShareLink, { site: ref(site.id), shareLinkId: link.id }, owner.id);
    await rejects(call(c().deleteShareLink, { site: ref(site.id), shareLinkId: link.id }, owner.id), status.NOT_FOUND);
  });

  it('keeps the adaptive schema and derives template conditions', async () => {
    const site = await createSite();
    const jsonSchema = {
      type: 'object',
      properties: { unsigned: { type: 'object', properties: { beta: { type: 'boolean', description: 'Beta' } }, additionalProperties: false } },
      additionalProperties: false,
    };
    await rejects(call(c().updateAdaptiveSchema, { site: ref(site.id), jsonSchema: '{"type":"object"}' }, owner.id), status.INVALID_ARGUMENT, /jsonSchema/);
    await rejects(call(c().updateAdaptiveSchema, { site: ref(site.id), jsonSchema: JSON.stringify(jsonSchema) }, reader.id), status.PERMISSION_DENIED);
    await call(c().updateAdaptiveSchema, { site: ref(site.id), jsonSchema: JSON.stringify(jsonSchema) }, owner.id);
    const got = await call<{ jsonSchema: string }>(c().getAdaptiveSchema, { site: ref(site.id) }, reader.id);
    expect(JSON.parse(got.jsonSchema)).toEqual(jsonSchema);
    expect(await call(c().listTemplateConditions, { site: ref(site.id) }, reader.id)).toEqual({
      items: [{ description: 'Beta', condition: 'visitor.claims.unsigned.beta === true' }],
    });
  });
});

describe('customization and features', () => {
  it('answers the defaults, merges or replaces settings, and keeps them per site', async () => {
    const site = await createSite();
    const get = (as: TestUser = reader, id = site.id) => call<{ settingsJson: string }>(c().getSiteCustomization, { site: ref(id) }, as.id).then((r) => JSON.parse(r.settingsJson));
    const set = (settings: object, replace = false, as: TestUser = creator) =>
      call<{ settingsJson: string }>(c().updateSiteCustomization, { site: ref(site.id), settingsJson: JSON.stringify(settings), replace }, as.id).then((r) =>
        JSON.parse(r.settingsJson),
      );
    const defaults = await get();
    expect(defaults).toMatchObject({ styling: { theme: 'clean', primaryColor: { light: '#346DDB' } }, themes: { default: 'light', toggeable: true }, favicon: {} });
    expect((await call<Site>(c().getSite, { site: ref(site.id) }, owner.id)).features.map((f) => f.id)).toEqual(['sites-public-visibility']);

    const styling = { ...defaults.styling, theme: 'bold', primaryColor: { light: '#ff0000', dark: '#00ff00' } };
    expect(await set({ title: 'Branded', styling })).toMatchObject({ title: 'Branded', styling: { theme: 'bold' }, pdf: { enabled: true } });
    // A merge replaces the settings given and keeps the others.
    expect(await set({ footer: { groups: [], copyright: '© Acme' } })).toMatchObject({ title: 'Branded', styling: { theme: 'bold' }, footer: { copyright: '© Acme' } });
    const { features } = await call<Site>(c().getSite, { site: ref(site.id) }, owner.id);
    expect(features).toContainEqual({ id: 'sites-advanced-customization', plan: 'ultimate', frozen: false, customizations: ['theme-preset', 'footer-copyright'] });
    expect(features.map((f) => f.id)).toContain('sites-basic-customization');
    // A replacement drops what it does not give; the defaults answer for it again.
    expect(await set({ title: 'Only title' }, true)).toEqual({ ...defaults, title: 'Only title' });
    expect(await get(owner, (await createSite()).id)).toEqual(defaults);
  });

  it('refuses readers, outsiders and bad settings, writing nothing', async () => {
    const site = await createSite();
    const update = (settingsJson: string, as: TestUser = owner, siteRef = ref(site.id)) =>
      call(c().updateSiteCustomization, { site: siteRef, settingsJson, replace: false }, as.id);
    await rejects(update('{"title":"Mine"}', reader), status.PERMISSION_DENIED, /create or admin/);
    await rejects(update('{"title":"Mine"}', outsider, ref(site.id, otherOrgId)), status.NOT_FOUND);
    await rejects(call(c().getSiteCustomization, { site: ref(site.id) }, guest.id), status.NOT_FOUND);
    await rejects(update('[1]'), status.INVALID_ARGUMENT, /customization: must be an object/);
    await rejects(update('{'), status.INVALID_ARGUMENT, /customization: not JSON/);
    await rejects(update(JSON.stringify({ title: 'x'.repeat(70_000) })), status.INVALID_ARGUMENT, /customization: at most 65536 bytes/);
    const got = await call<{ settingsJson: string }>(c().getSiteCustomization, { site: ref(site.id) }, owner.id);
    expect(JSON.parse(got.settingsJson)).not.toHaveProperty('title');
  });

  it('names the premium features a site uses', async () => {
    const [a, b] = await Promise.all([space('One'), space('Two')]);
    const site = await createSite({ visibility: 'share-link', spaceIds: [a.id, b.id] });
    const updated = await call<Site>(c().updateSite, { site: ref(site.id), setHostname: true, hostname: 'features.example.com', adaptiveContent: true }, owner.id);
    expect(updated.features.map((f) => [f.id, f.plan])).toEqual([
      ['sites-share-links', 'premium'],
      ['sites-custom-domain', 'premium'],
      ['sites-adaptive-content', 'ultimate'],
      ['sites-multivariant-site', 'premium'],
    ]);
    await addSection(site.id, (await space('Three')).id, 'Reference');
    const after = await call<Site>(c().getSite, { site: ref(site.id) }, owner.id);
    expect(after.features.map((f) => f.id)).toContain('sites-sections');
  });
});
