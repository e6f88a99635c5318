import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGitServer } from '@quire/git-sync/testing';
import { TEST_CERTIFICATE, type TestUser } from '@quire/orgs/testing';
import { page as pageContent, readerOver, spaceWith } from '@quire/reader/testing';
import { reservedPort } from '@quire/service-kit/testing';
import { chromiumFor, describeInChromium, expectAccessible, shots, startApp } from './app-server.ts';

// The admin and publishing views in Debian's Chromium over the real gateway, services, reader
// and a Git server: an admin invites a member and changes a role, the member (a reader) sees no
// edit controls, the admin imports a repository, creates a site, adds a space, publishes it and
// reads the page on the published site; axe-core scans every one of these views.
const CREDS = { username: 'bob', password: 'gh-token-never-shown' };

describeInChromium('the admin and publishing views in Chromium', () => {
  let app: Awaited<ReturnType<typeof startApp>>;
  let reader: Awaited<ReturnType<typeof readerOver>>;
  let git: Awaited<ReturnType<typeof startGitServer>>;
  const browser = chromiumFor('admin');
  let admin: TestUser;
  let invitee: TestUser;
  let orgId: string;
  let spaceId: string;

  beforeAll(async () => {
    // Published URLs point at the reader, on its own port.
    const readerPort = await reservedPort();
    const readerUrl = `http://127.0.0.1:${readerPort}`;
    [app, git] = await Promise.all([startApp({ QUIRE_READER_URL: readerUrl }), startGitServer(CREDS)]);
    reader = await readerOver(app.g, { QUIRE_READER_URL: readerUrl });
    await reader.reader.app.listen({ host: '127.0.0.1', port: readerPort });
    await browser.launch();
    admin = await app.g.orgs.user('admin');
    // A test user's display name is the name given here.
    invitee = await app.g.orgs.user('invitee');
    orgId = (await app.g.orgs.organization(admin)).id;
    spaceId = await spaceWith(app.g, admin, orgId, 'Handbook', [pageContent('Welcome', 'Hello from the handbook.')]);
  });
  afterAll(async () => {
    await browser.close();
    await reader?.stop();
    await app?.g.stop();
    await git?.stop();
  });

  const signedIn = (user: TestUser, path = '/') => browser.signedIn(app.origin, user, path, { permissions: ['clipboard-read', 'clipboard-write'] });

  it('an admin invites a member and changes the role; the member, a reader, sees no edit controls', async () => {
    const a = await signedIn(admin, `/o/${orgId}/settings/members`);
    await a.getByLabel('Emails to invite').fill(invitee.email);
    await a.getByLabel('Role of the invited').selectOption('edit');
    await a.getByRole('button', { name: 'Invite' }).click();
    const role = a.getByLabel(`Role of invitee`);
    await expect.poll(() => role.inputValue(), { timeout: 15_000 }).toBe('edit');
    await role.selectOption('read');
    await expect.poll(async () => (await app.g.call(admin, 'GET', `/v1/orgs/${orgId}/members/${invitee.id}`)).json().role, { timeout: 15_000 }).toBe('read');
    await a.reload();
    await expect.poll(() => a.getByLabel(`Role of invitee`).inputValue()).toBe('read');
    await expectAccessible(a, 'members');
    await a.screenshot({ path: `${shots}members.png` });

    // The reader: the space reads, with no control that changes it.
    const r = await signedIn(invitee, `/o/${orgId}/s/${spaceId}`);
    await r.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();
    await r.locator('.document').getByText('Hello from the handbook.').waitFor();
    for (const name of ['Edit', 'Space settings']) expect(await r.getByRole('link', { name, exact: true }).count(), name).toBe(0);
    await r.goto(`${app.origin}/o/${orgId}`);
    await r.getByRole('heading', { name: 'Library' }).waitFor();
    await r.getByRole('navigation', { name: 'Library' }).getByRole('link', { name: 'Handbook' }).waitFor();
    expect(await r.getByRole('button', { name: 'New space' }).count()).toBe(0);
    expect(await r.getByRole('button', { name: /^(Rename|Delete)/ }).count()).toBe(0);
    // The settings of the space say why nothing can be changed, and nothing can.
    await r.goto(`${app.origin}/o/${orgId}/s/${spaceId}/~/settings/general`);
    await r.getByText("Only the space's admins change its settings.").waitFor();
    expect(await r.getByLabel('Visibility').isDisabled()).toBe(true);
    expect(await r.getByRole('button', { name: 'Delete space' }).count()).toBe(0);
    await r.screenshot({ path: `${shots}reader-space-settings.png` });
  });

  it('an admin changes the space settings and permissions, and imports a Git repository, watching the job to its end', async () => {
    const a = await signedIn(admin, `/o/${orgId}/s/${spaceId}`);
    await a.getByRole('link', { name: 'Space settings' }).click();
    await a.getByRole('heading', { name: 'Settings of Handbook' }).waitFor();
    await a.getByLabel('Visibility').selectOption('unlisted');
    await a.getByLabel("Default level of the organization's members").selectOption('comment');
    await expect
      .poll(async () => (await app.g.call(admin, 'GET', `/v1/spaces/${spaceId}`)).json(), { timeout: 15_000 })
      .toMatchObject({ visibility: 'unlisted', defaultLevel: 'comment' });
    await expectAccessible(a, 'space settings');

    await a.getByRole('link', { name: 'Permissions' }).click();
    await a.getByLabel('Member to invite to the space').selectOption(invitee.id);
    await a.getByLabel('Role of the invited member').selectOption('review');
    await a.getByRole('button', { name: 'Invite member' }).click();
    const spaceRole = a.getByLabel(`Space role of invitee`);
    await expect.poll(() => spaceRole.inputValue(), { timeout: 15_000 }).toBe('review');
    await spaceRole.selectOption('edit');
    await expect
      .poll(
        async () =>
          (await app.g.call(admin, 'GET', `/v1/spaces/${spaceId}/permissions/users`))
            .json()
            .items.map((p: { permission: string; user: { id: string } }) => [p.user.id, p.permission]),
        { timeout: 15_000 },
      )
      .toEqual([[invitee.id, 'edit']]);
    await expectAccessible(a, 'space permissions');
    await a.screenshot({ path: `${shots}space-permissions.png` });

    // Git sync: a wrong token fails with its reason; the right one imports, the token never shown.
    await git.create('guides', {
      'README.md': '# Guides\n\nImported from Git.\n',
      'SUMMARY.md': '# Table of contents\n\n* [Guides](README.md)\n* [Setup](setup.md)\n',
      'setup.md': '# Setup\n',
    });
    const gitSpace = await spaceWith(app.g, admin, orgId, 'Guides', []);
    await a.goto(`${app.origin}/o/${orgId}/s/${gitSpace}/~/settings/git`);
    await a.getByText('This space is not linked to a repository yet.').waitFor();
    await a.getByLabel('Repository URL', { exact: true }).fill(git.url('guides'));
    await a.getByLabel('Branch', { exact: true }).fill('main');
    await a.getByLabel('User name (optional)', { exact: true }).fill(CREDS.username);
    await a.getByLabel(/Access token or password/).fill('wrong-token');
    await a.getByRole('button', { name: 'Start import' }).click();
    await a
      .getByRole('status')
      .filter({ hasText: /Import failed: / })
      .waitFor({ timeout: 60_000 });
    expect(await a.getByLabel(/Access token or password/).inputValue()).toBe('');
    await a.getByLabel(/Access token or password/).fill(CREDS.password);
    await a.getByRole('button', { name: 'Start import' }).click();
    await a
      .getByRole('status')
      .filter({ hasText: /Import done \(\d+ of \d+ files\)/ })
      .waitFor({ timeout: 60_000 });
    expect(await a.content()).not.toContain(CREDS.password);
    expect(await a.getByLabel(/Access token or password/).inputValue()).toBe('');
    await expectAccessible(a, 'git sync');
    await a.screenshot({ path: `${shots}git-sync.png` });
    const imported = (await app.g.call(admin, 'GET', `/v1/spaces/${gitSpace}/content/pages`)).json() as { pages: { title: string }[] };
    expect(imported.pages.map((p) => p.title)).toEqual(['Guides', 'Setup']);
  });

  it('an admin creates a site, adds a space, publishes it and the page is on the published site', async () => {
    const runbook = await spaceWith(app.g, admin, orgId, 'Runbook', [pageContent('On call', 'Page the on-call engineer.')]);
    const a = await signedIn(admin, `/o/${orgId}`);
    await a.getByRole('link', { name: 'Sites' }).click();
    await a.getByRole('heading', { name: 'Sites', exact: true }).waitFor();
    await expectAccessible(a, 'sites');
    await a.getByLabel('New site title').fill('Public docs');
    await a.getByRole('button', { name: 'New site' }).click();
    await a.getByRole('heading', { name: 'Public docs' }).waitFor();
    const siteId = new URL(a.url()).pathname.split('/')[4]!;
    await a.getByLabel('Space to add to the site').selectOption({ label: 'Handbook' });
    await a.getByRole('button', { name: 'Add space' }).click();
    await a.getByRole('list', { name: 'Spaces of the site' }).getByText('Handbook').waitFor();
    // A second space as a section, then sorted.
    await a.getByLabel('Space of the new section').selectOption(runbook);
    await a.getByLabel('New section title').fill('Operations');
    await a.getByRole('button', { name: 'Add section' }).click();
    // The site's spaces at its root go into a first section, the site's default; the two sections then sort.
    const sections = a.getByRole('list', { name: 'Sections and groups' });
    await sections.getByRole('list', { name: 'Spaces of section Operations' }).getByText('Runbook').waitFor();
    const titles = async () => ((await app.g.call(admin, 'GET', `/v1/orgs/${orgId}/sites/${siteId}/structure`)).json().structure as { title: string }[]).map((x) => x.title);
    expect(await titles()).toEqual(['Public docs', 'Operations']);
    await sections.getByRole('button', { name: 'Move section Operations up' }).click();
    await expect.poll(titles, { timeout: 15_000 }).toEqual(['Operations', 'Public docs']);
    await expectAccessible(a, 'site structure');
    await a.screenshot({ path: `${shots}site-structure.png`, fullPage: true });

    await a.getByRole('button', { name: 'Publish' }).click();
    const open = a.getByRole('link', { name: 'Open the published site' });
    await open.waitFor();
    const published = (await open.getAttribute('href'))!;
    expect(published.startsWith(reader.config.QUIRE_READER_URL)).toBe(true);

    // Share links, the adaptive schema, the customization and the insights views.
    await a.getByRole('link', { name: 'Publishing' }).click();
    await a.getByLabel('Share link name').fill('Partners');
    await a.getByRole('button', { name: 'New share link' }).click();
    await a.getByRole('button', { name: 'Deactivate share link Partners' }).click();
    await a.getByRole('button', { name: 'Activate share link Partners' }).waitFor();
    // The clipboard takes text only from the focused page; the earlier tests' pages are still open.
    await a.bringToFront();
    await a.getByRole('button', { name: 'Copy share link Partners' }).click();
    await a.getByRole('status').filter({ hasText: 'Copied the link “Partners” to the clipboard.' }).waitFor();
    const link = (await app.g.call(admin, 'GET', `/v1/orgs/${orgId}/sites/${siteId}/share-links`)).json().items[0] as { urls: { published: string }; active: boolean };
    expect(link.active).toBe(false);
    expect(await a.evaluate(() => navigator.clipboard.readText())).toBe(link.urls.published);
    await expectAccessible(a, 'site publishing');

    await a.getByRole('link', { name: 'Adaptive content' }).click();
    await a.getByLabel('Claim name').fill('isBeta');
    await a.getByLabel('Claim description').fill('Tries new features');
    await a.getByRole('button', { name: 'Add claim' }).click();
    await a.getByText('visitor.claims.isBeta', { exact: false }).first().waitFor();
    await a.getByLabel('Claim name').fill('1 bad');
    await a.getByLabel('Claim description').fill('Not a word');
    await a.getByRole('button', { name: 'Add claim' }).click();
    await a.getByRole('alert').filter({ hasText: 'Claim name: letters' }).waitFor();
    await expectAccessible(a, 'adaptive content');

    await a.getByRole('link', { name: 'Customization' }).click();
    await a.getByLabel('Title shown on the site').fill('Acme documentation');
    await a.getByLabel('Accent colour (light mode)').fill('#aa3300');
    await a.getByLabel('Default mode').selectOption('dark');
    await a.getByRole('button', { name: 'Save customization' }).click();
    await a.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const custom = (await app.g.call(admin, 'GET', `/v1/orgs/${orgId}/sites/${siteId}/customization`)).json();
    expect(custom).toMatchObject({ title: 'Acme documentation', styling: { primaryColor: { light: '#aa3300' } }, themes: { default: 'dark' } });
    await expectAccessible(a, 'customization');

    // The published site, as a visitor reads it.
    const visitorContext = await browser.context();
    const visitor = await visitorContext.newPage();
    await visitor.goto(published);
    await visitor.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();
    await visitor.getByText('Hello from the handbook.').waitFor();
    expect(await visitor.title()).toContain('Acme documentation');
    await visitor.screenshot({ path: `${shots}published-site.png` });

    // The visit shows in the insights (the reader sends it in the background, insights stores
    // it in batches: slow on a loaded machine). The page's three queries run side by side, so a
    // batch can land between them: both charts are read from the same load, once all have answered.
    await a.getByRole('link', { name: 'Insights' }).click();
    await expect
      .poll(
        async () => {
          await a.reload();
          await a.getByRole('heading', { name: 'Searches', exact: true }).waitFor();
          await a.getByRole('heading', { name: "AI assistants' searches that found nothing" }).waitFor();
          await a.getByRole('heading', { name: 'Top pages' }).waitFor();
          const visitors = await a.getByRole('img', { name: /^Visitors per day: / }).getAttribute('aria-label');
          const pages = await a.getByRole('img', { name: /^Page views per page: / }).count();
          return `${visitors} | page charts: ${pages}`;
        },
        { timeout: 90_000, interval: 2000 },
      )
      .toMatch(/^Visitors per day: [1-9]\d* in all.* \| page charts: 1$/);
    await expectAccessible(a, 'insights');
    await a.screenshot({ path: `${shots}site-insights.png`, fullPage: true });
    // The insights may take up to 90 s on a loaded machine.
  }, 240_000);

  it('the organization settings: SSO providers, translations, integrations and the audit log', async () => {
    const a = await signedIn(admin, `/o/${orgId}/settings/sso`);
    await a.getByLabel('OIDC label').fill('Okta');
    await a.getByLabel('Issuer URL').fill('https://idp.example.com');
    await a.getByLabel('Client ID').fill('quire');
    await a.getByLabel('Client secret (never shown again)').fill('oidc-client-secret');
    await a.getByRole('button', { name: 'Add OIDC provider' }).click();
    await a.getByText(/Register the redirect URI/).waitFor();
    expect(await a.getByLabel('Client secret (never shown again)').inputValue()).toBe('');
    expect(await a.content()).not.toContain('oidc-client-secret');
    await a.getByLabel('SAML label').fill('Corp SAML');
    await a.getByLabel('Sign-in URL of the identity provider').fill('https://idp.example.com/sso');
    await a.getByLabel('Entity ID of the identity provider').fill('https://idp.example.com');
    await a.getByLabel('Certificate of the identity provider (PEM)').fill(TEST_CERTIFICATE);
    await a.getByRole('button', { name: 'Add SAML provider' }).click();
    await a.getByRole('button', { name: 'Delete SAML provider Corp SAML' }).waitFor();
    await expectAccessible(a, 'sso');
    await a.screenshot({ path: `${shots}settings-sso.png`, fullPage: true });

    await a.getByRole('link', { name: 'Translations' }).click();
    await a.getByLabel('Translation title').fill('Docs in French');
    await a.getByLabel('Languages (BCP 47 tags)').fill('fr, fr-CA');
    await a.getByRole('button', { name: 'New translation' }).click();
    await expect.poll(() => a.getByLabel('Languages of Docs in French', { exact: true }).inputValue(), { timeout: 15_000 }).toBe('fr, fr-CA');
    await expectAccessible(a, 'translations');

    await a.getByRole('link', { name: 'Integrations' }).click();
    await a
      .getByRole('heading', { name: 'No integrations' })
      .or(a.getByRole('list').filter({ has: a.locator('.card') }))
      .first()
      .waitFor();
    await expectAccessible(a, 'integrations');

    await a.getByRole('link', { name: 'Audit log' }).click();
    await a.getByLabel('Who').selectOption(admin.id);
    await a.getByLabel('Action').fill('oidc_provider.created');
    await a.getByRole('button', { name: 'Filter' }).click();
    const rows = a.getByRole('table', { name: 'Audit log, newest first' }).locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(new Set(await rows.locator('td:nth-child(3)').allTextContents())).toEqual(new Set(['oidc_provider.created']));
    await expectAccessible(a, 'audit log');
    await a.screenshot({ path: `${shots}settings-audit.png`, fullPage: true });
  });
});
