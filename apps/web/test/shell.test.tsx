import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { App } from '../src/App.tsx';
import { buildLibrary } from '../src/components/library.ts';
import { safeNext } from '../src/views/SignIn.tsx';
import { fakeApi, ORG, renderAt, USER } from './render.tsx';

const space = (id: string, title: string, parent?: string) => ({
  object: 'space',
  id,
  title,
  emoji: '',
  organization: 'org1',
  parent,
  visibility: 'private',
  revision: 'r1',
  permissions: {},
  urls: {},
});
const collection = (id: string, title: string, parent?: string) => ({ object: 'collection', id, title, organization: 'org1', parent, urls: {} });

const signedIn = (extra: (method: string, url: URL, body: unknown) => { status?: number; body?: unknown } | undefined = () => undefined) =>
  fakeApi((method, url, body) => {
    if (url.pathname === '/auth/session') return { body: { user: USER, csrfToken: 'csrf-1' } };
    if (url.pathname === '/v1/orgs') return { body: { items: [ORG], count: 1 } };
    if (url.pathname === '/v1/orgs/org1') return { body: { ...ORG, permissions: { admin: true, createContent: true } } };
    if (url.pathname === '/v1/orgs/org1/collections') return { body: { items: [collection('c1', 'Guides')] } };
    if (url.pathname === '/v1/orgs/org1/spaces') return { body: { items: [space('s1', 'API', 'c1'), space('s2', 'Handbook')] } };
    return extra(method, url, body);
  });

describe('the library tree', () => {
  it('nests spaces and collections by parent, collections first, by title; orphans at the top', () => {
    const tree = buildLibrary(
      [collection('c2', 'Zeta'), collection('c1', 'Alpha'), collection('c3', 'Inner', 'c1')] as never,
      [space('s1', 'b', 'c1'), space('s2', 'a', 'c1'), space('s3', 'Top'), space('s4', 'Lost', 'gone'), { ...space('s5', 'Deleted'), deletedAt: '2026-01-01T00:00:00Z' }] as never,
    );
    expect(tree.map((n) => n.title)).toEqual(['Alpha', 'Zeta', 'Lost', 'Top']);
    expect(tree[0]!.children.map((n) => n.title)).toEqual(['Inner', 'a', 'b']);
  });
});

describe('sign-in', () => {
  it('goes back only to paths of this app, never to another origin', () => {
    expect(safeNext('/o/org1/s/s1')).toBe('/o/org1/s/s1');
    for (const bad of [null, '', 'https://evil.example', '//evil.example/x', '/\\evil.example']) expect(safeNext(bad)).toBe('/');
  });

  it('signs in with email and password, then opens the address asked first', async () => {
    let session = false;
    const calls = fakeApi((method, url, body) => {
      if (url.pathname === '/auth/session') return session ? { body: { user: USER, csrfToken: 'csrf-1' } } : { status: 401, body: { error: { code: 401, message: 'No session' } } };
      if (url.pathname === '/auth/providers') return { body: { items: [{ type: 'oidc', id: 'p1', label: 'Acme SSO', startURL: '/auth/oidc/p1/start' }] } };
      if (url.pathname === '/auth/sign-in' && method === 'POST') {
        const { password } = body as { password: string };
        if (password !== 'right horse battery') return { status: 401, body: { error: { code: 401, message: 'Wrong email or password' } } };
        session = true;
        return { status: 204 };
      }
      if (url.pathname === '/v1/orgs') return { body: { items: [ORG] } };
      return { body: { items: [] } };
    });
    const { location } = renderAt('/o/org1', <App />);
    await screen.findByRole('heading', { name: 'Sign in to Quire' });
    expect(location.history!.at(-1)).toBe('/sign-in?next=%2Fo%2Forg1');
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    expect(await screen.findByRole('link', { name: 'Sign in with Acme SSO' })).toHaveProperty('href', 'http://localhost:3000/auth/oidc/p1/start');
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong email or password.');
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'right horse battery' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('heading', { name: 'Library' });
    expect(location.history!.at(-1)).toBe('/o/org1');
    expect(calls.filter((c) => c.path === '/auth/sign-in')).toHaveLength(2);
  });
});

describe('the shell', () => {
  it('shows the organization switcher, the library sidebar and named controls', async () => {
    signedIn();
    renderAt('/o/org1', <App />);
    const nav = await screen.findByRole('navigation', { name: 'Library' });
    await waitFor(() => expect(nav.textContent).toContain('Handbook'));
    expect(nav.textContent).toContain('Guides');
    expect((screen.getByLabelText('Organization') as HTMLSelectElement).value).toBe('org1');
    for (const name of ['Search Ctrl K', 'Theme: system', 'Settings', 'Sign out Ada']) expect(screen.getByRole(name === 'Settings' ? 'link' : 'button', { name })).toBeTruthy();
  });

  it('cycles the theme and keeps it in the browser', async () => {
    signedIn();
    renderAt('/o/org1', <App />);
    fireEvent.click(await screen.findByRole('button', { name: 'Theme: system' }));
    expect(document.documentElement.dataset.theme).toBe('light');
    fireEvent.click(screen.getByRole('button', { name: 'Theme: light' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem('quire-theme')).toBe('dark');
  });

  it('sends the CSRF token with writes: creating a space', async () => {
    const calls = signedIn((method, url) => (method === 'POST' && url.pathname === '/v1/orgs/org1/spaces' ? { status: 201, body: space('s9', 'New') } : undefined));
    renderAt('/o/org1', <App />);
    fireEvent.change(await screen.findByLabelText('New space title'), { target: { value: 'Runbooks' } });
    fireEvent.click(screen.getByRole('button', { name: 'New space' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')).toBeTruthy());
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ title: 'Runbooks' });
    expect(post.headers['x-csrf-token']).toBe('csrf-1');
  });

  it('opens organization search with Ctrl-K and goes to the result', async () => {
    signedIn((_m, url) =>
      url.pathname === '/v1/orgs/org1/search'
        ? { body: { items: [{ id: 's1', title: 'API', pages: [{ id: 'p1', title: 'Install', path: 'install', urls: { app: 'http://app.test/s/s1/install' } }] }] } }
        : undefined,
    );
    const { location } = renderAt('/o/org1', <App />);
    await screen.findByRole('navigation', { name: 'Library' });
    fireEvent.keyDown(window, { key: 'k', ctrlKey: true });
    fireEvent.change(await screen.findByLabelText('Search the organization'), { target: { value: 'install' } });
    fireEvent.click(await screen.findByRole('link', { name: /Install/ }));
    await waitFor(() => expect(location.history!.at(-1)).toBe('/s/s1/install'));
  });

  it('shows a clear state for an unknown address', async () => {
    signedIn();
    renderAt('/nowhere/at/all', <App />);
    expect((await screen.findByRole('alert')).textContent).toContain('Page not found');
  });
});
