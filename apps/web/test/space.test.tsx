import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { fromMarkdown, toHtml } from '@quire/document';
import { App } from '../src/App.tsx';
import { fakeApi, ORG, renderAt, USER, type Handler, spaceAnswer } from './render.tsx';

const SPACE = spaceAnswer({ permissions: { edit: false, view: true } });
const PAGES = [
  { id: 'p1', type: 'document', title: 'Welcome', path: 'welcome', pages: [] },
  { id: 'p2', type: 'document', title: 'Install', path: 'install', pages: [{ id: 'p3', type: 'document', title: 'Linux', path: 'install/linux', pages: [] }] },
];
const MARKDOWN = '## Steps\n\n- one\n- two\n\n```ts\nconst a = 1;\n```\n\n{% hint style="warning" %}\nCareful\n{% endhint %}\n\nSee [Linux](install/linux.md).';
const DOC = fromMarkdown(MARKDOWN, { resolveLink: (url) => (url === 'install/linux.md' ? { kind: 'page', page: 'p3' } : undefined) });

/** The API of a space with PAGES (DOC the body of each), its files and links. */
const spaceApi =
  (space = SPACE): Handler =>
  (_m, url) => {
    const p = url.pathname;
    if (p === '/auth/session') return { body: { user: USER, csrfToken: 'c' } };
    if (p === '/v1/orgs') return { body: { items: [ORG] } };
    if (p === '/v1/orgs/org1/collections' || p === '/v1/orgs/org1/spaces') return { body: { items: p.endsWith('spaces') ? [space] : [] } };
    if (p === '/v1/spaces/s1') return { body: space };
    if (p === '/v1/spaces/s1/content/pages') return { body: { pages: PAGES } };
    if (p === '/v1/spaces/s1/content/files') return { body: { items: [{ id: 'f1', name: 'logo.png', contentType: 'image/png', downloadURL: '/v1/dl/f1' }] } };
    if (p === '/v1/spaces/s1/content/files/f1/backlinks') return { body: { items: [{ kind: 'page', page: { id: 'p2', title: 'Install', path: 'install' } }] } };
    if (p.startsWith('/v1/spaces/s1/content/page/')) {
      const page = PAGES.flatMap((x) => [x, ...x.pages]).find((x) => p.endsWith(x.id))!;
      return { body: { ...page, document: url.searchParams.get('format') === 'document' ? DOC : undefined } };
    }
    if (p === '/v1/spaces/s1/links')
      return {
        body: {
          items: [
            { targetReference: { kind: 'url', url: 'https://gone.example' }, status: 'broken', relation: 'reference', locationReferences: [{ kind: 'page', page: PAGES[1] }] },
          ],
          stats: { total: 1, broken: { total: 1 } },
        },
      };
    return undefined;
  };

const api = (space = SPACE) => fakeApi(spaceApi(space));

describe('reading a space', () => {
  it('renders the page at the urls.app path exactly as the reader renders it, with the page tree', async () => {
    api();
    const { container, location } = renderAt('/s/s1/install', <App />);
    await screen.findByRole('heading', { level: 1, name: 'Install' });
    const body = container.querySelector('.document')!;
    await waitFor(() => expect(body.innerHTML).not.toBe(''));
    // The reader's rendering, with page refs pointing at the app's page URLs.
    expect(body.innerHTML).toBe(toHtml(DOC, { highlight: true, refToUrl: (r) => (r.kind === 'page' && r.page === 'p3' ? '/s/s1/install/linux' : undefined) }));
    expect(body.querySelector('.hint-warning')?.textContent).toContain('Careful');
    expect(document.head.querySelector('style[data-quire=document]')?.textContent).toContain('.document pre{');
    expect(screen.getByRole('link', { name: 'Install', current: 'page' })).toBeTruthy();
    // A link between pages stays in the app.
    fireEvent.click(body.querySelector('a[href="/s/s1/install/linux"]')!);
    await screen.findByRole('heading', { level: 1, name: 'Linux' });
    expect(location.history!.at(-1)).toBe('/s/s1/install/linux');
  });

  it('shows a page with images once the files are known, not first without them', async () => {
    const withImage = fromMarkdown('Before\n\n![Logo](/files/f1)', { resolveLink: (url) => (url === '/files/f1' ? { kind: 'file', file: 'f1' } : undefined) });
    let answerFiles!: () => void;
    const filesAnswered = new Promise<void>((resolve) => (answerFiles = resolve));
    const calls = fakeApi(async (method, url, body) => {
      if (url.pathname === '/v1/spaces/s1/content/files') await filesAnswered;
      if (url.pathname === '/v1/spaces/s1/content/page/p1') return { body: { ...PAGES[0], document: withImage } };
      return spaceApi()(method, url, body);
    });
    const { container } = renderAt('/s/s1/welcome', <App />);
    await screen.findByRole('heading', { level: 1, name: 'Welcome' });
    await waitFor(() => expect(calls.some((c) => c.path.startsWith('/v1/spaces/s1/content/page/p1'))).toBe(true));
    expect(container.querySelector('.document')!.innerHTML).toBe('');
    answerFiles();
    await waitFor(() => expect(container.querySelector('.document img')?.getAttribute('src')).toBe('/v1/dl/f1'));
  });

  it('shows the members a page mentions by name, and nothing for one the caller may not see', async () => {
    const mention = (user: string) => ({ object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user } } });
    const document = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [mention('u9'), mention('hidden')] }] };
    fakeApi((method, url, body) => {
      if (url.pathname === '/v1/users/u9') return { body: { object: 'user', id: 'u9', displayName: 'Grace Hopper' } };
      if (url.pathname === '/v1/spaces/s1/content/page/p1') return { body: { ...PAGES[0], document } };
      return spaceApi()(method, url, body);
    });
    const { container } = renderAt('/s/s1/welcome', <App />);
    await waitFor(() => expect(container.querySelectorAll('.document .mention')).toHaveLength(2));
    expect([...container.querySelectorAll('.document .mention')].map((m) => m.textContent)).toEqual(['Grace Hopper', '']);
  });

  it('opens the first page at the space URL and offers no edit control to a reader', async () => {
    api();
    renderAt('/o/org1/s/s1', <App />);
    await screen.findByRole('heading', { level: 1, name: 'Welcome' });
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
  });

  it('offers Edit to a member who may edit', async () => {
    api({ ...SPACE, permissions: { edit: true, view: true } });
    renderAt('/o/org1/s/s1', <App />);
    expect(await screen.findByRole('link', { name: 'Edit' })).toBeTruthy();
  });

  it('lists files with their backlinks, and broken links', async () => {
    api();
    renderAt('/o/org1/s/s1', <App />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Files' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Backlinks of logo.png' }));
    const used = await screen.findByRole('list', { name: 'Pages using logo.png' });
    expect(used.textContent).toBe('Install');
    fireEvent.click(screen.getByRole('tab', { name: 'Links' }));
    expect((await screen.findByText('https://gone.example')).tagName).toBe('CODE');
  });

  it('says so when the path names no page', async () => {
    api();
    renderAt('/s/s1/nowhere', <App />);
    expect((await screen.findByRole('alert')).textContent).toContain('No page at “nowhere”');
  });
});
