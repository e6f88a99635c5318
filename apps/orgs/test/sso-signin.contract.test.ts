import { status } from '@grpc/grpc-js';
import { rejects } from '@quire/service-kit/testing/expect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@quire/policy';
import { SignInProviderKind } from '@quire/proto/orgs';
import { startOrgs, type OrgsHarness, type TestUser } from './harness.ts';
import { browser, keyAndCertificate, samlIdentityProvider, startOidcProvider } from './idp.ts';

// SSO sign-in over the real orgs gRPC server against identity providers running in the test.

process.env.QUIRE_ALLOW_PRIVATE_NETWORK = 'true';

const redirectUri = 'http://127.0.0.1:9/auth/oidc/callback';
const service = { entityId: 'http://127.0.0.1:9/auth/saml/sp/metadata', acsUrl: 'http://127.0.0.1:9/auth/saml/sp/acs' };
const domain = `corp-${Date.now().toString(36)}.example`;

let h: OrgsHarness;
let owner: TestUser;
let editor: TestUser;
let orgId: string;
let teamId: string;
let op: Awaited<ReturnType<typeof startOidcProvider>>;

beforeAll(async () => {
  h = await startOrgs();
  [owner, editor] = await Promise.all([h.user('owner'), h.user('editor')]);
  orgId = (await h.organization(owner, [[editor, Role.ROLE_EDIT]])).id;
  await h.call(h.client.updateOrganization, { organizationId: orgId, setEmailDomains: true, emailDomains: [domain], clearDefaultContent: false, clearLogo: false }, owner.id);
  teamId = (await h.call(h.client.createTeam, { organizationId: orgId, title: 'SSO people', members: [] }, owner.id)).id;
  op = await startOidcProvider(redirectUri);
});
afterAll(async () => {
  await op?.stop();
  await h?.stop();
});

/** The settings of a sign-in provider of the organization whose new members join the team at `defaultRole`. */
const joining = (defaultRole: Role) => ({ organizationId: orgId, defaultRole, defaultTeam: teamId });

/** The organization's audit entries of an action, once the events consumer has written `atLeast` of them. */
type AuditEntry = { targetId: string; details: Record<string, unknown> };

/**
 * Waits until at least `atLeast` entries of `action` that `which` keeps are written: the audit
 * consumer writes them after the calls return, and earlier tests leave entries of the same action.
 */
async function audited(action: string, atLeast: number, which: (e: AuditEntry) => boolean = () => true) {
  for (let i = 0; ; i++) {
    const { items } = await h.call(h.client.listAuditLog, { organizationId: orgId, action, page: { page: '', limit: 100 } }, owner.id);
    const kept = items.map((e) => ({ ...e, details: JSON.parse(e.detailsJson) as Record<string, unknown> })).filter(which);
    if (kept.length >= atLeast || i >= 100) return kept;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const memberOf = (userId: string) => h.call(h.client.getMember, { organizationId: orgId, userId }, owner.id);

describe('OIDC providers', () => {
  it('are managed by admins, never answer the client secret, and refuse bad input', async () => {
    const base = { organizationId: orgId, defaultRole: Role.ROLE_UNSPECIFIED, issuer: 'https://accounts.example', clientId: 'quire', clientSecret: 's3cret' };
    const created = await h.call(h.client.createOidcProvider, { ...base, label: 'Google' }, owner.id);
    expect(created).toMatchObject({ label: 'Google', issuer: 'https://accounts.example', clientId: 'quire', defaultRole: Role.ROLE_READ });
    expect(JSON.stringify(created)).not.toContain('s3cret');
    const updated = await h.call(
      h.client.updateOidcProvider,
      { organizationId: orgId, oidcProviderId: created.id, defaultTeam: teamId, defaultRole: Role.ROLE_EDIT, clientSecret: 'other' },
      owner.id,
    );
    expect(updated).toMatchObject({ defaultRole: Role.ROLE_EDIT, defaultTeam: { id: teamId } });
    expect((await h.call(h.client.listOidcProviders, { organizationId: orgId }, owner.id)).items.map((p) => p.id)).toEqual([created.id]);

    await rejects(h.call(h.client.createOidcProvider, { ...base, label: '' }, owner.id), status.INVALID_ARGUMENT, /label/);
    await rejects(h.call(h.client.createOidcProvider, { ...base, label: 'X', issuer: 'not a url' }, owner.id), status.INVALID_ARGUMENT, /issuer/);
    await rejects(h.call(h.client.createOidcProvider, { ...base, label: 'X', clientId: '' }, owner.id), status.INVALID_ARGUMENT, /clientId/);
    await rejects(h.call(h.client.createOidcProvider, { ...base, label: 'X', clientSecret: '' }, owner.id), status.INVALID_ARGUMENT, /clientSecret/);
    await rejects(h.call(h.client.createOidcProvider, { ...base, label: 'X', defaultTeam: 'nope' }, owner.id), status.INVALID_ARGUMENT, /defaultTeam/);
    await rejects(h.call(h.client.createOidcProvider, { ...base, label: 'X' }, editor.id), status.PERMISSION_DENIED);
    const stranger = await h.user('stranger');
    await rejects(h.call(h.client.getOidcProvider, { organizationId: orgId, oidcProviderId: created.id }, stranger.id), status.NOT_FOUND);
    // Another organization's admin does not reach this one's provider through their own organization.
    const otherOrg = await h.organization(stranger);
    await rejects(h.call(h.client.getOidcProvider, { organizationId: otherOrg.id, oidcProviderId: created.id }, stranger.id), status.NOT_FOUND);
    await rejects(h.call(h.client.deleteOidcProvider, { organizationId: otherOrg.id, oidcProviderId: created.id }, stranger.id), status.NOT_FOUND);

    await h.call(h.client.deleteOidcProvider, { organizationId: orgId, oidcProviderId: created.id }, owner.id);
    await rejects(h.call(h.client.getOidcProvider, { organizationId: orgId, oidcProviderId: created.id }, owner.id), status.NOT_FOUND);
    const settings = await Promise.all(['created', 'updated', 'deleted'].map((verb) => audited(`oidc_provider.${verb}`, 1)));
    expect(settings.map((entries) => entries.find((e) => e.targetId === created.id)?.details.fields)).toEqual([
      expect.arrayContaining(['label', 'issuer', 'clientId', 'clientSecret']),
      expect.arrayContaining(['defaultTeamId', 'defaultRole', 'clientSecret']),
      [],
    ]);
    expect(JSON.stringify(settings)).not.toContain('s3cret');
  });
});

describe('OIDC sign-in', () => {
  let providerId: string;
  beforeAll(async () => {
    const oidc = { label: 'Test OP', issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret };
    providerId = (await h.call(h.client.createOidcProvider, { ...joining(Role.ROLE_EDIT), ...oidc }, owner.id)).id;
  });

  /** Start, then the browser's way through the provider until it comes back to the callback. */
  async function authorize() {
    const start = await h.call(h.client.startOidcSignIn, { oidcProviderId: providerId, redirectUri });
    const url = new URL(start.authorizationUrl);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBe(start.state);
    expect(url.searchParams.get('nonce')).toBe(start.nonce);
    const { stoppedAt } = await browser().follow(start.authorizationUrl, (next) => next.href.startsWith(redirectUri));
    return { start, callbackUrl: stoppedAt!.href };
  }
  const finish = (start: { state: string; nonce: string; codeVerifier: string }, callbackUrl: string) =>
    h.call(h.client.finishOidcSignIn, { oidcProviderId: providerId, redirectUri, callbackUrl, ...start });

  it('creates the user on first sign-in, joins them with the default role and team, and matches them after', async () => {
    const email = `ada@${domain}`;
    op.signInAs({ email, email_verified: true, name: 'Ada' });
    const first = await authorize();
    const signedIn = await finish(first.start, first.callbackUrl);
    expect(signedIn).toMatchObject({ organizationId: orgId, created: true, joined: true });
    const member = await memberOf(signedIn.userId);
    expect(member).toMatchObject({ role: Role.ROLE_EDIT, sso: true, user: { email, displayName: 'Ada' } });
    const teams = await h.call(h.client.listMemberTeams, { organizationId: orgId, userId: signedIn.userId }, owner.id);
    expect(teams.items.map((t) => t.team?.id)).toEqual([teamId]);

    const again = await authorize();
    expect(await finish(again.start, again.callbackUrl)).toEqual({ userId: signedIn.userId, organizationId: orgId, created: false, joined: false });
    // A code is good once.
    await rejects(finish(again.start, again.callbackUrl), status.PERMISSION_DENIED);
  });

  it('refuses a wrong state, a wrong nonce, a wrong PKCE verifier and an unverified email', async () => {
    op.signInAs({ email: `bob@${domain}`, email_verified: true });
    const other = await h.call(h.client.startOidcSignIn, { oidcProviderId: providerId, redirectUri });
    let flow = await authorize();
    await rejects(finish({ ...flow.start, state: other.state }, flow.callbackUrl), status.PERMISSION_DENIED, /state/);
    flow = await authorize();
    await rejects(finish({ ...flow.start, nonce: other.nonce }, flow.callbackUrl), status.PERMISSION_DENIED, /nonce/);
    flow = await authorize();
    await rejects(finish({ ...flow.start, codeVerifier: other.codeVerifier }, flow.callbackUrl), status.PERMISSION_DENIED);

    const email = `unverified@${domain}`;
    op.signInAs({ email, email_verified: false });
    flow = await authorize();
    await rejects(finish(flow.start, flow.callbackUrl), status.PERMISSION_DENIED, /verify/);
    expect(await h.store.findUserByEmail(email)).toBeNull();

    // Five: these four, and the reused code of the test before (the log is written asynchronously).
    const failures = await audited('user.sign_in_failed', 5, (e) => e.details.method === 'oidc');
    expect(failures.map((e) => e.details.reason)).toEqual(
      expect.arrayContaining([expect.stringMatching(/state/), expect.stringMatching(/nonce/), expect.stringMatching(/verify/)]),
    );
    expect(failures.every((e) => e.details.provider === providerId && e.actor === '')).toBe(true);
  });

  it('does not let an organization sign in an address outside its email domains', async () => {
    // The victim has an account (and another organization); this organization's provider vouches for them.
    const victim = await h.user('victim');
    op.signInAs({ email: victim.email, email_verified: true });
    const flow = await authorize();
    await rejects(finish(flow.start, flow.callbackUrl), status.PERMISSION_DENIED, /email domain/);
    await rejects(memberOf(victim.id), status.NOT_FOUND);
  });

  it('signs in a member an admin made an SSO member, whatever their domain', async () => {
    const member = await h.user('sso-member');
    await h.member(orgId, member, Role.ROLE_COMMENT);
    op.signInAs({ email: member.email, email_verified: true });
    let flow = await authorize();
    await rejects(finish(flow.start, flow.callbackUrl), status.PERMISSION_DENIED);
    await h.call(h.client.setMemberSso, { organizationId: orgId, userId: member.id }, owner.id);
    flow = await authorize();
    expect(await finish(flow.start, flow.callbackUrl)).toMatchObject({ userId: member.id, joined: false });
    expect((await memberOf(member.id)).role).toBe(Role.ROLE_COMMENT);
  });

  it('refuses an issuer on a private address without QUIRE_ALLOW_PRIVATE_NETWORK', async () => {
    process.env.QUIRE_ALLOW_PRIVATE_NETWORK = 'false';
    try {
      await rejects(h.call(h.client.startOidcSignIn, { oidcProviderId: providerId, redirectUri }), status.INVALID_ARGUMENT, /private or reserved/);
    } finally {
      process.env.QUIRE_ALLOW_PRIVATE_NETWORK = 'true';
    }
  });

  it('answers not found for an unknown provider', async () => {
    await rejects(h.call(h.client.startOidcSignIn, { oidcProviderId: 'missing', redirectUri }), status.NOT_FOUND);
  });
});

describe('SAML sign-in', () => {
  const idp = samlIdentityProvider();
  let providerId: string;
  beforeAll(async () => {
    const saml = { label: 'Test IdP', entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificate: idp.certificate };
    providerId = (await h.call(h.client.createSamlProvider, { ...joining(Role.ROLE_REVIEW), ...saml }, owner.id)).id;
  });

  async function requestId() {
    const { redirectUrl } = await h.call(h.client.startSamlSignIn, { samlProviderId: providerId, service });
    return idp.requestIdOf(redirectUrl);
  }
  const post = (samlResponse: string) => h.call(h.client.finishSamlSignIn, { samlProviderId: providerId, service, samlResponse });
  const valid = async (email: string) => ({ email, inResponseTo: await requestId(), audience: service.entityId, recipient: service.acsUrl });

  it('serves metadata with the entity id and the ACS', async () => {
    const { xml } = await h.call(h.client.getSamlMetadata, { samlProviderId: providerId, service });
    expect(xml).toContain(`entityID="${service.entityId}"`);
    expect(xml).toContain(`Location="${service.acsUrl}"`);
  });

  it('signs in a valid signed response, creating the user and membership on first sign-in', async () => {
    const email = `grace@${domain}`;
    const signedIn = await post(idp.response({ ...(await valid(email)), name: 'Grace' }));
    expect(signedIn).toMatchObject({ organizationId: orgId, created: true, joined: true });
    expect(await memberOf(signedIn.userId)).toMatchObject({ role: Role.ROLE_REVIEW, sso: true, user: { email, displayName: 'Grace' } });
    expect((await post(idp.response(await valid(email)))).userId).toBe(signedIn.userId);
    const joined = await audited('member.added', 1, (e) => e.targetId === signedIn.userId);
    expect(joined).toMatchObject([{ actor: signedIn.userId, details: { via: 'saml', provider: providerId, role: 'review' } }]);
  });

  it('refuses tampered, expired, replayed, wrong-audience, wrong-recipient, unsolicited, forged and unsigned responses', async () => {
    const email = `mallory@${domain}`;
    // Tampered: the signed assertion's email changed after signing.
    const signed = Buffer.from(idp.response(await valid(email)), 'base64').toString('utf8');
    await rejects(post(Buffer.from(signed.replace(email, `admin@${domain}`)).toString('base64')), status.PERMISSION_DENIED, /signature/i);
    const past = Date.now() - 3_600_000;
    await rejects(
      post(idp.response({ ...(await valid(email)), notBefore: new Date(past - 60_000), notOnOrAfter: new Date(past) })),
      status.PERMISSION_DENIED,
      /no valid subject confirmation/i,
    );
    await rejects(post(idp.response({ ...(await valid(email)), audience: 'https://other-sp.example' })), status.PERMISSION_DENIED, /audience/i);
    await rejects(post(idp.response({ ...(await valid(email)), recipient: 'https://other-sp.example/acs' })), status.PERMISSION_DENIED, /recipient/);
    await rejects(post(idp.response({ ...(await valid(email)), sign: false })), status.PERMISSION_DENIED, /signature/i);
    await rejects(post(idp.response({ ...(await valid(email)), signingKey: keyAndCertificate('Forger') })), status.PERMISSION_DENIED, /signature/i);
    await rejects(post(idp.response({ email, inResponseTo: '_never-asked', audience: service.entityId, recipient: service.acsUrl })), status.PERMISSION_DENIED, /InResponseTo/);
    expect(await h.store.findUserByEmail(email)).toBeNull();
    const failures = await audited('user.sign_in_failed', 7, (e) => e.details.method === 'saml');
    expect(failures.length).toBeGreaterThanOrEqual(7);
    expect(failures.map((e) => e.details.reason)).toEqual(
      expect.arrayContaining([expect.stringMatching(/audience/i), expect.stringMatching(/recipient/), expect.stringMatching(/signature/i)]),
    );

    // Replayed: the same response twice, then the same assertion id under a fresh request.
    const assertionId = `_replay${Date.now()}`;
    const response = idp.response({ ...(await valid(email)), assertionId });
    await post(response);
    await rejects(post(response), status.PERMISSION_DENIED);
    await rejects(post(idp.response({ ...(await valid(email)), assertionId })), status.PERMISSION_DENIED, /already used/);
  });

  it('refuses an address outside the email domains, and a provider not fully configured', async () => {
    const outsider = await h.user('saml-outsider');
    await rejects(post(idp.response(await valid(outsider.email))), status.PERMISSION_DENIED, /email domain/);
    const pending = await h.call(h.client.createSamlProvider, { organizationId: orgId, label: 'Pending', defaultRole: Role.ROLE_UNSPECIFIED }, owner.id);
    await rejects(h.call(h.client.startSamlSignIn, { samlProviderId: pending.id, service }), status.PERMISSION_DENIED, /configured/);
    await h.call(h.client.deleteSamlProvider, { organizationId: orgId, samlProviderId: pending.id }, owner.id);
  });
});

describe('sign-in providers for an email', () => {
  it('lists the active SSO providers of the organizations with that email domain, and nothing else', async () => {
    const { items } = await h.call(h.client.listSignInProviders, { email: `someone@${domain.toUpperCase()}` });
    expect(items.map((p) => [p.kind, p.label]).sort()).toEqual(
      [
        [SignInProviderKind.SIGN_IN_PROVIDER_KIND_SAML, 'Test IdP'],
        [SignInProviderKind.SIGN_IN_PROVIDER_KIND_OIDC, 'Test OP'],
      ].sort(),
    );
    expect((await h.call(h.client.listSignInProviders, { email: 'someone@elsewhere.example' })).items).toEqual([]);
    await rejects(h.call(h.client.listSignInProviders, { email: 'not-an-email' }), status.INVALID_ARGUMENT, /email/);
  });
});
