import { status } from '@grpc/grpc-js';
import pg from 'pg';
import { rejects } from '@quire/service-kit/testing/expect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Integration, ListIntegrationsRequest, PublishIntegrationRequest } from '@quire/proto/integrations';
import { Role } from '@quire/policy';
import { connectDb, stopAll } from '@quire/service-kit/testing';
import { startOrgs, team, type OrgsHarness, type TestUser } from '@quire/orgs/testing';
import { openSecrets } from '../src/domain/secrets.ts';
import { manifest as publishable } from './fixtures.ts';
import { startIntegrations, type IntegrationsHarness } from './harness.ts';

let orgs: OrgsHarness;
let h: IntegrationsHarness;
let db: pg.Client;
let owner: TestUser, editor: TestUser, reader: TestUser, outsider: TestUser;
let orgId: string, otherOrgId: string;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7]).toString('base64');

beforeAll(async () => {
  orgs = await startOrgs();
  h = await startIntegrations(orgs.address);
  db = await connectDb(h.databaseUrl);
  ({ owner, editor, reader, outsider, orgId, otherOrgId } = await team(orgs, { editor: Role.ROLE_EDIT, reader: Role.ROLE_READ }));
  await orgs.call(
    orgs.client.updateOrganization,
    { organizationId: orgId, hostname: 'acme', setEmailDomains: false, emailDomains: [], clearDefaultContent: false, clearLogo: false },
    owner.id,
  );
});
afterAll(() => stopAll(db, h, orgs));

const manifest = (name: string, over: Partial<PublishIntegrationRequest> = {}) => publishable(name, orgId, over);
const publish = (req: PublishIntegrationRequest, as: TestUser = owner) => h.call<PublishIntegrationRequest, Integration>(h.client.publishIntegration, req, as.id);
const get = (name: string, as?: TestUser) => h.call(h.client.getIntegration, { name }, as?.id);
const list = (req: ListIntegrationsRequest, as: TestUser = owner) => h.call(h.client.listIntegrations, req, as.id);
const names = async (req: ListIntegrationsRequest, as: TestUser = owner) => (await list(req, as)).items.map((i) => i.name);
const rawRow = async (name: string) => (await db.query('SELECT * FROM "Integration" WHERE name = $1', [name])).rows[0];

describe('PublishIntegration', () => {
  it('publishes version 1 with the defaults, by organization id or subdomain', async () => {
    const res = await publish(manifest('first', { icon: PNG, previewImages: [PNG], summary: '# Hello', categories: ['analytics'] }));
    expect(res).toMatchObject({
      name: 'first',
      version: 1,
      runtime: 'v1',
      visibility: 'public',
      target: 'all',
      summary: '# Hello',
      ownerOrganizationId: orgId,
      verified: false,
      permissions: { admin: true, install: true },
      icon: `data:image/png;base64,${PNG}`,
      previewImages: [`data:image/png;base64,${PNG}`],
    });
    const bySubdomain = await publish(manifest('by-subdomain', { organization: 'acme' }));
    expect(bySubdomain.ownerOrganizationId).toBe(orgId);
  });

  it('bumps the version on republish and replaces the manifest', async () => {
    await publish(manifest('bumped'));
    const second = await publish(manifest('bumped', { title: 'Renamed', runtime: 'v2' }));
    expect(second).toMatchObject({ version: 2, title: 'Renamed', runtime: 'v2' });
    expect((await publish(manifest('bumped'))).version).toBe(3);
  });

  it('stores secrets sealed, never returns them, and keeps them on a republish without secrets', async () => {
    const res = await publish(manifest('secretive', { secrets: { values: { API_TOKEN: 'plaintext-hunter2' } } }));
    expect(JSON.stringify(res)).not.toContain('plaintext-hunter2');
    expect(Object.keys(res)).not.toContain('secrets');
    const sealed: Buffer = (await rawRow('secretive')).secrets;
    expect(sealed.includes('plaintext-hunter2')).toBe(false);
    expect(openSecrets(sealed, 'secretive', h.secretsKey)).toEqual({ API_TOKEN: 'plaintext-hunter2' });

    await publish(manifest('secretive'));
    expect(openSecrets((await rawRow('secretive')).secrets, 'secretive', h.secretsKey)).toEqual({ API_TOKEN: 'plaintext-hunter2' });
    await publish(manifest('secretive', { secrets: { values: { OTHER: 'two' } } }));
    expect(openSecrets((await rawRow('secretive')).secrets, 'secretive', h.secretsKey)).toEqual({ OTHER: 'two' });
    expect(JSON.stringify(await get('secretive', owner))).not.toContain('OTHER');
  });

  it('refuses a name another organization owns, changing nothing', async () => {
    await publish(manifest('taken'));
    await rejects(publish(manifest('taken', { organization: otherOrgId, title: 'Hijack' }), outsider), status.ALREADY_EXISTS, /name: "taken"/);
    expect(await get('taken', owner)).toMatchObject({ version: 1, title: 'An integration', ownerOrganizationId: orgId });
  });

  it('lets only admins of the organization publish', async () => {
    await rejects(publish(manifest('by-outsider'), outsider), status.NOT_FOUND, new RegExp(`organization: "${orgId}" not found`));
    await rejects(publish(manifest('by-editor'), editor), status.PERMISSION_DENIED, /organization/);
    await rejects(publish(manifest('no-org', { organization: 'nowhere' })), status.NOT_FOUND, /organization: "nowhere" not found/);
    await rejects(h.call(h.client.publishIntegration, manifest('anonymous')), status.UNAUTHENTICATED);
    expect(await rawRow('by-outsider')).toBeUndefined();
    expect(await rawRow('by-editor')).toBeUndefined();
  });

  it('enforces the bounds, naming the field, and stores nothing', async () => {
    await rejects(publish(manifest('bad', { title: 'x' })), status.INVALID_ARGUMENT, /^title: must be between 2 and 30/);
    await rejects(publish(manifest('bad', { description: 'x'.repeat(101) })), status.INVALID_ARGUMENT, /^description:/);
    await rejects(publish(manifest('bad', { summary: 'x'.repeat(2049) })), status.INVALID_ARGUMENT, /^summary:/);
    await rejects(publish(manifest('bad', { previewImages: [PNG, PNG, PNG, PNG] })), status.INVALID_ARGUMENT, /^previewImages:/);
    await rejects(publish(manifest('bad', { previewImages: [PNG, '%%%'] })), status.INVALID_ARGUMENT, /^previewImages\[1\]: must be base64/);
    await rejects(publish(manifest('bad', { icon: 'abc' })), status.INVALID_ARGUMENT, /^icon:/);
    await rejects(publish(manifest('bad', { script: '' })), status.INVALID_ARGUMENT, /^script:/);
    await rejects(publish(manifest('bad', { visibility: 'secret' })), status.INVALID_ARGUMENT, /^visibility:/);
    await rejects(publish(manifest('bad name')), status.INVALID_ARGUMENT, /^name:/);
    await rejects(publish(manifest('x'.repeat(101))), status.INVALID_ARGUMENT, /^name:/);
    expect(await rawRow('bad')).toBeUndefined();
  });
});

describe('GetIntegration', () => {
  it('shows public integrations to anyone, private ones to members of the owner only', async () => {
    await publish(manifest('hidden', { visibility: 'private' }));
    const asOutsider = await get('first', outsider);
    expect(asOutsider.permissions).toEqual({ admin: false, install: true });
    expect(await get('hidden', reader)).toMatchObject({ name: 'hidden', permissions: { admin: false, install: false } });
    await rejects(get('hidden', outsider), status.NOT_FOUND, /Integration "hidden" not found/);
    await rejects(get('hidden'), status.NOT_FOUND);
    await rejects(get('missing', owner), status.NOT_FOUND, /Integration "missing" not found/);
    await rejects(get('bad/name', owner), status.INVALID_ARGUMENT, /^name:/);
  });
});

describe('ListIntegrations', () => {
  beforeAll(async () => {
    await publish(
      manifest('list-video', {
        title: 'Video Embeds',
        categories: ['content'],
        scopes: ['space:content:read'],
        target: 'space',
        blocks: [{ id: 'video', title: 'Video', urlUnfurl: ['https://www.youtube.com/watch*'] }],
      }),
    );
    await publish(
      manifest('list-source', {
        categories: ['gitsync'],
        target: 'site',
        contentSources: [{ id: 'src', title: 'Source', configuration: { componentId: 'config' } }],
      }),
    );
    await publish(manifest('list-outside', { organization: otherOrgId, visibility: 'unlisted' }), outsider);
    await publish(manifest('list-private', { visibility: 'private' }));
  });

  it('filters by search, category, block domain, blocks, content sources, scope and target', async () => {
    expect(await names({ search: 'VIDEO' })).toEqual(['list-video']);
    expect(await names({ search: 'list-s' })).toEqual(['list-source']);
    expect(await names({ category: 'content' })).toEqual(['list-video']);
    expect(await names({ blockDomain: 'youtube.com' })).toEqual(['list-video']);
    expect(await names({ blockDomain: 'www.youtube.com' })).toEqual(['list-video']);
    expect(await names({ blockDomain: 'vimeo.com' })).toEqual([]);
    expect(await names({ blocks: true })).toEqual(['list-video']);
    expect(await names({ blocks: false })).not.toContain('list-video');
    expect(await names({ contentSources: true })).toEqual(['list-source']);
    expect(await names({ contentSources: false })).not.toContain('list-source');
    expect(await names({ scope: 'space:content:read' })).toEqual(['list-video']);
    const space = await names({ target: 'space' });
    expect(space).toContain('list-video');
    expect(space).toContain('first');
    expect(space).not.toContain('list-source');
  });

  it("lists public integrations, and all of an organization's own for its members", async () => {
    const all = await names({}, outsider);
    expect(all).toContain('first');
    expect(all).not.toContain('list-private');
    expect(all).not.toContain('list-outside');
    expect(all).not.toContain('hidden');
    expect(await names({ owner: otherOrgId }, outsider)).toEqual(['list-outside']);
    expect(await names({ owner: otherOrgId }, owner)).toEqual([]);
    const own = await names({ owner: orgId }, reader);
    expect(own).toEqual(expect.arrayContaining(['list-private', 'hidden', 'first']));
    expect(await names({ owner: orgId }, outsider)).not.toContain('list-private');
  });

  it('pages with a cursor and refuses a bad page or limit', async () => {
    const first = await list({ page: { page: '', limit: 2 } });
    expect(first.items).toHaveLength(2);
    const second = await list({ page: { page: first.page!.next!, limit: 2 } });
    expect(second.items[0]!.name > first.items[1]!.name).toBe(true);
    await rejects(list({ page: { page: '', limit: 1001 } }), status.INVALID_ARGUMENT, /limit/);
    await rejects(list({ page: { page: 'garbage!', limit: 1 } }), status.INVALID_ARGUMENT, /page/);
    await rejects(list({ category: 'games' }), status.INVALID_ARGUMENT, /^category:/);
  });
});

describe('UnpublishIntegration', () => {
  it('lets only admins of the owner unpublish, and hides private ones from outsiders', async () => {
    await publish(manifest('to-remove'));
    await publish(manifest('private-remove', { visibility: 'private' }));
    await rejects(h.call(h.client.unpublishIntegration, { name: 'to-remove' }, editor.id), status.PERMISSION_DENIED);
    await rejects(h.call(h.client.unpublishIntegration, { name: 'to-remove' }, outsider.id), status.PERMISSION_DENIED);
    await rejects(h.call(h.client.unpublishIntegration, { name: 'private-remove' }, outsider.id), status.NOT_FOUND);
    await rejects(h.call(h.client.unpublishIntegration, { name: 'to-remove' }), status.UNAUTHENTICATED);
    expect(await rawRow('to-remove')).toBeDefined();
    await expect(h.call(h.client.unpublishIntegration, { name: 'to-remove' }, owner.id)).resolves.toEqual({});
    await rejects(get('to-remove', owner), status.NOT_FOUND);
    await rejects(h.call(h.client.unpublishIntegration, { name: 'to-remove' }, owner.id), status.NOT_FOUND);
  });

  it('frees the name for another organization', async () => {
    await publish(manifest('freed'));
    await h.call(h.client.unpublishIntegration, { name: 'freed' }, owner.id);
    expect(await publish(manifest('freed', { organization: otherOrgId }), outsider)).toMatchObject({ version: 1, ownerOrganizationId: otherOrgId });
  });
});
