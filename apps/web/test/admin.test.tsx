import { describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { App } from '../src/App.tsx';
import { fakeApi, ORG, renderAt, USER, type Handler, spaceAnswer } from './render.tsx';

// The views are loaded lazily, each its own module to transform on first use: slower than 1 s
// (much slower on a loaded machine).
configure({ asyncUtilTimeout: 10_000 });

const SPACE = spaceAnswer({ title: 'Handbook', defaultLevel: null, permissions: { admin: true, edit: true, triggerGitSync: true } });
const member = (id: string, name: string) => ({ object: 'member', id, role: 'read', user: { object: 'user', id, displayName: name, email: `${id}@example.com` } });

/** The signed-in shell's calls, then `extra`. */
function api(extra: Handler, org: Record<string, unknown> = { permissions: { admin: true, createContent: true } }) {
  return fakeApi((method, url, body) => {
    const p = url.pathname;
    if (p === '/auth/session') return { body: { user: USER, csrfToken: 'c' } };
    if (p === '/v1/orgs') return { body: { items: [ORG] } };
    if (p === '/v1/orgs/org1') return { body: { ...ORG, ...org } };
    if (p === '/v1/orgs/org1/collections') return { body: { items: [] } };
    if (p === '/v1/orgs/org1/spaces') return { body: { items: [SPACE] } };
    if (p === '/v1/spaces/s1' && method === 'GET') return { body: SPACE };
    return extra(method, url, body);
  });
}

describe('git sync', () => {
  it('starts an import with the credentials in the URL, clears them, and watches the job until done', async () => {
    let info: unknown;
    const calls = api((method, url) => {
      if (url.pathname === '/v1/spaces/s1/git/info') return info ? { body: info } : undefined;
      if (url.pathname === '/v1/spaces/s1/git/import' && method === 'POST') {
        info = {
          repoName: 'docs',
          integration: 'git-sync',
          url: 'https://git.example.com/docs.git',
          updatedAt: '2026-11-24T10:00:00Z',
          job: { id: 'j1', direction: 'import', state: 'running', createdAt: '2026-11-24T10:00:00Z', filesDone: 1, filesTotal: 3 },
        };
        return { status: 204 };
      }
      return undefined;
    });
    renderAt('/o/org1/s/s1/~/settings/git', <App />);
    await screen.findByText('This space is not linked to a repository yet.');
    fireEvent.change(screen.getByLabelText('Repository URL'), { target: { value: 'https://git.example.com/docs.git' } });
    fireEvent.change(screen.getByLabelText('Branch'), { target: { value: 'docs' } });
    fireEvent.change(screen.getByLabelText('User name (optional)'), { target: { value: 'bob' } });
    fireEvent.change(screen.getByLabelText(/Access token or password/), { target: { value: 'tok/en' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start import' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/v1/spaces/s1/git/import')?.body).toEqual({ url: 'https://bob:tok%2Fen@git.example.com/docs.git', ref: 'refs/heads/docs' }),
    );
    expect(await screen.findByText('Import running (1 of 3 files)')).toBeTruthy();
    expect((screen.getByLabelText(/Access token or password/) as HTMLInputElement).value).toBe('');
    expect((screen.getByRole('button', { name: 'Start import' }) as HTMLButtonElement).disabled).toBe(true);
    // The job ends: the view asks again by itself and shows it.
    const asked = calls.filter((c) => c.path === '/v1/spaces/s1/git/info').length;
    info = {
      ...(info as object),
      job: { id: 'j1', direction: 'import', state: 'failed', error: 'Authentication failed', createdAt: '2026-11-24T10:00:00Z', filesDone: 0, filesTotal: 0 },
    };
    expect(await screen.findByText('Import failed: Authentication failed')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/v1/spaces/s1/git/info').length).toBeGreaterThan(asked);
    expect(document.body.textContent).not.toContain('tok/en');
  });

  it('names the field at fault before sending anything', async () => {
    const calls = api(() => undefined);
    renderAt('/o/org1/s/s1/~/settings/git', <App />);
    await screen.findByText('This space is not linked to a repository yet.');
    fireEvent.change(screen.getByLabelText('Repository URL'), { target: { value: 'ssh://git.example.com/docs.git' } });
    fireEvent.change(screen.getByLabelText(/Access token or password/), { target: { value: 'tok' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start import' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Repository URL: credentials need an http(s) address');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});

describe('continuous git sync', () => {
  it('lists the sync log, and sets the webhook up showing its URL and secret once', async () => {
    const items = [
      {
        id: 'e2',
        direction: 'export',
        trigger: 'merge',
        user: 'u1',
        changeRequest: 'cr1',
        commit: 'abcdef0123',
        result: 'failed',
        reason: 'both sides changed: the branch moved',
        pagesChanged: 0,
        attempts: 1,
        createdAt: '2026-11-29T10:01:00Z',
      },
      { id: 'e1', direction: 'import', trigger: 'webhook', commit: '0123456789', result: 'done', pagesChanged: 3, attempts: 1, createdAt: '2026-11-29T10:00:00Z' },
    ];
    const calls = api((method, url) => {
      if (url.pathname === '/v1/spaces/s1/git/info')
        return { body: { repoName: 'docs', integration: 'git-sync', url: 'https://git.example.com/docs.git', updatedAt: '2026-11-29T10:00:00Z' } };
      if (url.pathname === '/v1/spaces/s1/git/log') return { body: { items } };
      if (url.pathname === '/v1/spaces/s1/git/webhook' && method === 'POST')
        return { status: 201, body: { url: 'https://quire.test/v1/git/webhooks/s1', secret: 'f'.repeat(64), ref: 'refs/heads/main' } };
      return undefined;
    });
    renderAt('/o/org1/s/s1/~/settings/git', <App />);
    const log = await screen.findByRole('region', { name: 'Sync log' });
    await within(log).findByText('Export · Merged change request');
    expect(within(log).getByText('both sides changed: the branch moved')).toBeTruthy();
    expect(within(log).getByText('Import · Push')).toBeTruthy();
    expect(within(log).getByText('abcdef0')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Synced repository URL'), { target: { value: 'https://git.example.com/docs.git' } });
    fireEvent.change(screen.getByLabelText(/Access token with write access/), { target: { value: 'w-token' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set up the webhook' }));
    expect(await screen.findByText('f'.repeat(64))).toBeTruthy();
    expect(screen.getByText('https://quire.test/v1/git/webhooks/s1')).toBeTruthy();
    expect(calls.find((c) => c.path === '/v1/spaces/s1/git/webhook')?.body).toEqual({ url: 'https://git:w-token@git.example.com/docs.git', ref: 'refs/heads/main' });
    expect((screen.getByLabelText(/Access token with write access/) as HTMLInputElement).value).toBe('');
  });
});

describe('space settings', () => {
  it('invites a member, gives a team a role and takes it away, changes visibility', async () => {
    const calls = api((method, url) => {
      const p = url.pathname;
      if (p === '/v1/spaces/s1/permissions/users') return { body: { items: [] } };
      if (p === '/v1/orgs/org1/members') return { body: { items: [member('u2', 'Bob')] } };
      if (p === '/v1/orgs/org1/teams') return { body: { items: [{ object: 'team', id: 't1', title: 'Writers', members: 2, spaces: 0 }] } };
      if (p === '/v1/spaces/s1/permissions' && method === 'POST') return { status: 204 };
      if (p === '/v1/spaces/s1' && method === 'PATCH') return { body: SPACE };
      return undefined;
    });
    renderAt('/o/org1/s/s1/~/settings/permissions', <App />);
    await screen.findByRole('option', { name: 'Bob (u2@example.com)' });
    fireEvent.change(screen.getByLabelText('Member to invite to the space'), { target: { value: 'u2' } });
    fireEvent.change(screen.getByLabelText('Role of the invited member'), { target: { value: 'edit' } });
    fireEvent.click(screen.getByRole('button', { name: 'Invite member' }));
    await screen.findByRole('option', { name: 'Writers' });
    fireEvent.change(screen.getByLabelText('Team'), { target: { value: 't1' } });
    fireEvent.change(screen.getByLabelText('Role of the team'), { target: { value: 'remove' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set team role' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/v1/spaces/s1/permissions').map((c) => c.body)).toEqual([
        { role: 'edit', users: ['u2'] },
        { role: null, teams: ['t1'] },
      ]),
    );
    fireEvent.click(screen.getByRole('link', { name: 'General' }));
    fireEvent.change(await screen.findByLabelText('Visibility'), { target: { value: 'unlisted' } });
    fireEvent.change(screen.getByLabelText("Default level of the organization's members"), { target: { value: 'none' } });
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ visibility: 'unlisted' }, { defaultLevel: null }]));
  });

  it('a member without the right sees the settings but cannot change them', async () => {
    api((_m, url) => (url.pathname === '/v1/spaces/s2' ? { body: { ...SPACE, id: 's2', permissions: { view: true } } } : undefined));
    renderAt('/o/org1/s/s2/~/settings/general', <App />);
    await screen.findByText("Only the space's admins change its settings.");
    expect((screen.getByLabelText('Visibility') as HTMLSelectElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Delete space' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Rename' })).toBeNull();
  });
});

describe('the library', () => {
  it('shows no create forms to a member who may not create content', async () => {
    api(() => undefined, { permissions: { admin: false, createContent: false } });
    renderAt('/o/org1', <App />);
    await screen.findByRole('heading', { name: 'Library' });
    await screen.findAllByRole('link', { name: /Handbook/ });
    expect(screen.queryByLabelText('New space title')).toBeNull();
    expect(screen.queryByRole('button', { name: 'New space' })).toBeNull();
  });
});

describe('sites', () => {
  const site = {
    object: 'site',
    id: 'site1',
    title: 'Docs',
    visibility: 'public',
    published: false,
    siteSpaces: 2,
    urls: { app: '', location: '', published: 'http://reader.test/org1/site1' },
  };
  const ss = (id: string, title: string) => ({ object: 'site-space', id, title, path: id, default: false, urls: {} });
  const section = (id: string, title: string) => ({ object: 'site-section', id, title, path: id, default: false, siteSpaces: [ss(`${id}-ss`, title)] });

  it('sorts sections with the move buttons and publishes', async () => {
    const calls = api((method, url) => {
      const p = url.pathname;
      if (p === '/v1/orgs/org1/sites/site1') return { body: site };
      if (p === '/v1/orgs/org1/sites/site1/structure' && method === 'GET') return { body: { type: 'sections', structure: [section('a', 'Guides'), section('b', 'API')] } };
      if (p === '/v1/orgs/org1/sites/site1/structure/sort') return { body: section('b', 'API') };
      if (p === '/v1/orgs/org1/sites/site1/publish') return { body: { ...site, published: true } };
      return undefined;
    });
    renderAt('/o/org1/sites/site1/structure', <App />);
    const list = await screen.findByRole('list', { name: 'Sections and groups' });
    expect((within(list).getByRole('button', { name: 'Move section Guides up' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(list).getByRole('button', { name: 'Move section API up' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path.endsWith('/structure/sort'))?.body).toEqual({
        item: { type: 'site-section', id: 'b' },
        position: { before: { type: 'site-section', id: 'a' } },
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/v1/orgs/org1/sites/site1/publish')).toBe(true));
  });

  it('draws visits, top pages and searches from the aggregate API', async () => {
    const today = new Date().toISOString().slice(0, 10);
    api((method, url, body) => {
      if (url.pathname === '/v1/orgs/org1/sites/site1') return { body: site };
      if (url.pathname !== '/v1/orgs/org1/sites/site1/insights/events/aggregate' || method !== 'POST') return undefined;
      const first = (body as { select: { column: string }[] }).select[0]!.column;
      if (first === 'datetime')
        return {
          body: {
            columns: [
              { column: 'datetime', values: [`${today}T00:00:00.000Z`] },
              { column: 'visitorsCount', values: [4] },
              { column: 'eventsCount', values: [9] },
            ],
          },
        };
      if (first === 'url')
        return {
          body: {
            columns: [
              { column: 'url', values: ['http://reader.test/org1/site1/install'] },
              { column: 'eventsCount', values: [7] },
            ],
          },
        };
      const missed = (body as { where: { column: string }[] }).where.some((w) => w.column === 'eventFound');
      return {
        body: {
          columns: [
            { column: 'eventSearchQuery', values: missed ? ['rollback'] : [] },
            { column: 'eventsCount', values: missed ? [3] : [] },
          ],
        },
      };
    });
    renderAt('/o/org1/sites/site1/insights', <App />);
    expect((await screen.findByRole('img', { name: /^Visitors per day/ })).getAttribute('aria-label')).toBe('Visitors per day: 4 in all, at most 4 a day');
    expect(screen.getByRole('img', { name: /^Page views per page/ }).getAttribute('aria-label')).toBe('Page views per page: /org1/site1/install 7');
    expect(screen.getByText('No searches in this period.')).toBeTruthy();
    expect((await screen.findByRole('img', { name: /^Searches through the MCP server that found nothing/ })).getAttribute('aria-label')).toBe(
      'Searches through the MCP server that found nothing, per query: rollback 3',
    );
  });

  it("shows one audience's insights: AI assistants' (MCP) calls apart from visitors'", async () => {
    const calls = api((method, url) => {
      if (url.pathname === '/v1/orgs/org1/sites/site1') return { body: site };
      if (url.pathname === '/v1/orgs/org1/sites/site1/insights/events/aggregate' && method === 'POST') return { body: { columns: [] } };
      return undefined;
    });
    renderAt('/o/org1/sites/site1/insights', <App />);
    fireEvent.change(await screen.findByLabelText('Audience'), { target: { value: 'mcp' } });
    const origins = () =>
      calls
        .filter((c) => c.path.endsWith('/insights/events/aggregate'))
        .map((c) => (c.body as { where: { column: string; values: string[] }[] }).where.find((w) => w.column === 'eventOrigin')?.values[0] ?? 'all');
    // Three charts of the audience, and the assistants' searches that found nothing (asked once, whatever the audience).
    await waitFor(() => expect(origins().filter((o) => o === 'mcp')).toHaveLength(4));
    expect(origins().filter((o) => o === 'all')).toHaveLength(3);
    const unanswered = calls.filter((c) => (c.body as { where?: { column: string }[] } | undefined)?.where?.some((w) => w.column === 'eventFound'));
    expect(unanswered.map((c) => c.body)).toEqual([
      expect.objectContaining({
        where: [
          { column: 'eventType', values: ['search_type_query'] },
          { column: 'eventOrigin', values: ['mcp'] },
          { column: 'eventFound', values: [false] },
        ],
      }),
    ]);
    expect(await screen.findByText('Every search of an AI assistant found something in this period.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Audience'), { target: { value: 'web' } });
    await waitFor(() => expect(screen.queryByText('Every search of an AI assistant found something in this period.')).toBeNull());
  });

  it("shows the published site's MCP server with a configuration to copy, as its audience needs it", async () => {
    let audience = 'public';
    api((_method, url) => {
      if (url.pathname === '/v1/orgs/org1/sites/site1') return { body: { ...site, title: 'Acme Docs', published: true, visibility: audience } };
      if (url.pathname === '/v1/orgs/org1/sites/site1/share-links') return { body: { items: [] } };
      return undefined;
    });
    let copied: string | undefined;
    // jsdom has no clipboard: the browser suite copies through Chromium's own.
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void (copied = text) } });
    const view = renderAt('/o/org1/sites/site1/sharing', <App />);
    const url = 'http://reader.test/org1/site1/~gitbook/mcp';
    expect((await screen.findByLabelText('MCP server URL')).textContent).toBe(url);
    const config = screen.getByLabelText('MCP configuration').textContent!;
    expect(JSON.parse(config)).toEqual({ mcpServers: { 'acme-docs': { type: 'http', url } } });
    fireEvent.click(screen.getByRole('button', { name: 'Copy the MCP configuration' }));
    expect((await screen.findByText('Copied the MCP configuration to the clipboard.')).getAttribute('role')).toBe('status');
    expect(copied).toBe(config);
    view.unmount();

    audience = 'visitor-auth';
    renderAt('/o/org1/sites/site1/sharing', <App />);
    await screen.findByLabelText('MCP server URL');
    expect(JSON.parse(screen.getByLabelText('MCP configuration').textContent!).mcpServers['acme-docs']).toEqual({
      type: 'http',
      url,
      headers: { Authorization: 'Bearer <visitor token>' },
    });
    expect(screen.getByText(/^Replace <visitor token> with a visitor's token/)).toBeTruthy();
  });

  it('says an unpublished site has no MCP server yet', async () => {
    api((_method, url) => {
      if (url.pathname === '/v1/orgs/org1/sites/site1') return { body: site };
      if (url.pathname === '/v1/orgs/org1/sites/site1/share-links') return { body: { items: [] } };
      return undefined;
    });
    renderAt('/o/org1/sites/site1/sharing', <App />);
    await screen.findByRole('heading', { name: 'AI assistants' });
    expect(screen.getByText(/^Once published, the site has an MCP server/)).toBeTruthy();
    expect(screen.queryByLabelText('MCP server URL')).toBeNull();
  });
});

describe('OpenAPI specs', () => {
  const spec = {
    object: 'openapi-spec',
    id: 'sp1',
    slug: 'petstore',
    createdAt: '2026-11-29T10:00:00Z',
    updatedAt: '2026-11-29T10:00:00Z',
    processingState: 'complete',
    visibility: 'private',
    permissions: { view: true, edit: false, delete: false },
  };
  const specs = () =>
    api((_m, url) => (url.pathname === '/v1/orgs/org1/openapi' ? { body: { items: [spec] } } : undefined), {
      permissions: { admin: false, createContent: false, createOpenAPISpec: false },
    });

  it('lists the specs to a member who may not change them, with no upload form and no delete', async () => {
    specs();
    renderAt('/o/org1/openapi', <App />);
    await screen.findByRole('heading', { name: 'OpenAPI specs', level: 1 });
    await screen.findByText('petstore');
    expect(screen.getByRole('row', { name: /petstore/ }).textContent).toContain('uploaded file');
    expect(screen.queryByLabelText('Slug')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Upload' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete petstore' })).toBeNull();
  });
});
