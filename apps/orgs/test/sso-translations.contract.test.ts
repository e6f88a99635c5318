import { status } from '@grpc/grpc-js';
import { rejects } from '@quire/service-kit/testing/expect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@quire/policy';
import { SignInProviderKind } from '@quire/proto/orgs';
import { TEST_CERTIFICATE } from './fixtures.ts';
import { startOrgs, type OrgsHarness, type TestUser } from './harness.ts';

let h: OrgsHarness;
let owner: TestUser;
let editor: TestUser;
let outsider: TestUser;
let orgId: string;

beforeAll(async () => {
  h = await startOrgs();
  [owner, editor, outsider] = await Promise.all([h.user('owner'), h.user('editor'), h.user('outsider')]);
  orgId = (await h.organization(owner, [[editor, Role.ROLE_EDIT]])).id;
});
afterAll(() => h?.stop());

describe('SAML providers', () => {
  it('creates pending, completes to active, lists, updates and deletes, as an admin', async () => {
    const base = { organizationId: orgId, defaultRole: Role.ROLE_UNSPECIFIED };
    const created = await h.call(h.client.createSamlProvider, { ...base, label: 'Okta' }, owner.id);
    expect(created).toMatchObject({ label: 'Okta', ssoUrl: '', entityId: '', certificate: '', active: false, defaultRole: Role.ROLE_READ });
    expect((await h.call(h.client.listSsoLogins, { organizationId: orgId }, outsider.id)).items).toEqual([]);

    const team = await h.call(h.client.createTeam, { organizationId: orgId, title: 'SSO people', members: [] }, owner.id);
    const updated = await h.call(
      h.client.updateSamlProvider,
      {
        organizationId: orgId,
        samlProviderId: created.id,
        ssoUrl: 'https://idp.example/sso',
        entityId: 'https://idp.example',
        certificate: TEST_CERTIFICATE,
        defaultTeam: team.id,
        defaultRole: Role.ROLE_EDIT,
      },
      owner.id,
    );
    expect(updated).toMatchObject({ active: true, defaultRole: Role.ROLE_EDIT, defaultTeam: { id: team.id, title: 'SSO people' } });
    expect(updated.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect((await h.call(h.client.listSsoLogins, { organizationId: orgId }, outsider.id)).items).toEqual([
      { id: created.id, label: 'Okta', kind: SignInProviderKind.SIGN_IN_PROVIDER_KIND_SAML },
    ]);

    const list = await h.call(h.client.listSamlProviders, { organizationId: orgId }, owner.id);
    expect(list.items.map((p) => p.id)).toEqual([created.id]);
    await h.call(h.client.deleteTeam, { organizationId: orgId, teamId: team.id }, owner.id);
    expect((await h.call(h.client.getSamlProvider, { organizationId: orgId, samlProviderId: created.id }, owner.id)).defaultTeam).toBeUndefined();
    await h.call(h.client.deleteSamlProvider, { organizationId: orgId, samlProviderId: created.id }, owner.id);
    await rejects(h.call(h.client.getSamlProvider, { organizationId: orgId, samlProviderId: created.id }, owner.id), status.NOT_FOUND);
  });

  it('refuses bad input and other callers, writing nothing', async () => {
    const base = { organizationId: orgId, defaultRole: Role.ROLE_UNSPECIFIED };
    await rejects(h.call(h.client.createSamlProvider, { ...base, label: '' }, owner.id), status.INVALID_ARGUMENT, /label/);
    await rejects(h.call(h.client.createSamlProvider, { ...base, label: 'x'.repeat(31) }, owner.id), status.INVALID_ARGUMENT, /label/);
    await rejects(h.call(h.client.createSamlProvider, { ...base, label: 'Bad', certificate: 'not a certificate' }, owner.id), status.INVALID_ARGUMENT, /X\.509/);
    await rejects(h.call(h.client.createSamlProvider, { ...base, label: 'Bad', ssoUrl: 'ftp://idp' }, owner.id), status.INVALID_ARGUMENT, /ssoURL/);
    await rejects(h.call(h.client.createSamlProvider, { ...base, label: 'Bad', entityId: 'e'.repeat(1025) }, owner.id), status.INVALID_ARGUMENT, /entityID/);
    await rejects(h.call(h.client.createSamlProvider, { ...base, label: 'Bad', defaultTeam: 'nope' }, owner.id), status.INVALID_ARGUMENT, /defaultTeam/);
    await rejects(h.call(h.client.createSamlProvider, { ...base, label: 'Mine' }, editor.id), status.PERMISSION_DENIED);
    await rejects(h.call(h.client.createSamlProvider, { ...base, label: 'Mine' }, outsider.id), status.NOT_FOUND);
    await rejects(h.call(h.client.listSsoLogins, { organizationId: 'missing' }, outsider.id), status.NOT_FOUND);
    expect((await h.call(h.client.listSamlProviders, { organizationId: orgId }, owner.id)).items).toEqual([]);
  });
});

describe('translation settings', () => {
  it('creates, reads, replaces and deletes; members read, admins change', async () => {
    const t = await h.call(h.client.createTranslation, { organizationId: orgId, title: 'Docs in French', languages: ['fr', 'pt-br'] }, owner.id);
    expect(t).toMatchObject({ title: 'Docs in French', languages: ['fr', 'pt-BR'], permissions: { view: true, edit: true } });
    const seen = await h.call(h.client.getTranslation, { organizationId: orgId, translationSettingsId: t.id }, editor.id);
    expect(seen.permissions).toEqual({ view: true, edit: false });
    expect((await h.call(h.client.listTranslations, { organizationId: orgId }, editor.id)).items.map((x) => x.id)).toEqual([t.id]);
    const renamed = await h.call(h.client.updateTranslation, { organizationId: orgId, translationSettingsId: t.id, title: 'French', setLanguages: false, languages: [] }, owner.id);
    expect(renamed).toMatchObject({ title: 'French', languages: ['fr', 'pt-BR'] });
    await rejects(
      h.call(h.client.updateTranslation, { organizationId: orgId, translationSettingsId: t.id, title: 'Mine', setLanguages: false, languages: [] }, editor.id),
      status.PERMISSION_DENIED,
    );
    await rejects(h.call(h.client.createTranslation, { organizationId: orgId, title: '', languages: [] }, owner.id), status.INVALID_ARGUMENT, /title/);
    await rejects(h.call(h.client.createTranslation, { organizationId: orgId, title: 'x'.repeat(101), languages: [] }, owner.id), status.INVALID_ARGUMENT, /title/);
    await rejects(h.call(h.client.createTranslation, { organizationId: orgId, title: 'Ok', languages: ['??'] }, owner.id), status.INVALID_ARGUMENT, /languages\[0\]/);
    await rejects(h.call(h.client.getTranslation, { organizationId: orgId, translationSettingsId: t.id }, outsider.id), status.NOT_FOUND);
    await h.call(h.client.deleteTranslation, { organizationId: orgId, translationSettingsId: t.id }, owner.id);
    await rejects(h.call(h.client.getTranslation, { organizationId: orgId, translationSettingsId: t.id }, owner.id), status.NOT_FOUND);
  });
});
