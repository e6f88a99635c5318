import { describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { App } from '../src/App.tsx';
import type { RevisionPage } from '../src/types.ts';
import { pageAnswer } from './objects.ts';
import { fakeApi, ORG, renderAt, USER, spaceAnswer } from './render.tsx';

const SPACE = spaceAnswer({ permissions: { view: true, edit: true } });
const CR = { id: 'cr1', number: 1, subject: 'Tree', status: 'open', revision: 'r2', createdBy: USER, createdAt: '2026-11-24T09:00:00.000Z', urls: {} };
const doc = (id: string, title: string, path: string, pages: RevisionPage[] = []): RevisionPage => pageAnswer({ id, title, path, pages });

/** A change request's content that applies the `update_page` changes it is sent (moves, renames, emoji and icons), in `space`. */
function api(space = SPACE) {
  let pages = [doc('a', 'Alpha', 'alpha'), doc('b', 'Beta', 'beta'), doc('c', 'Gamma', 'gamma')];
  const sent: unknown[] = [];
  const calls = fakeApi((method, url, body) => {
    const p = url.pathname;
    if (p === '/auth/session') return { body: { user: USER, csrfToken: 'c' } };
    if (p === '/v1/orgs') return { body: { items: [ORG] } };
    if (p === '/v1/orgs/org1/collections' || p === '/v1/orgs/org1/spaces') return { body: { items: p.endsWith('spaces') ? [SPACE] : [] } };
    if (p === '/v1/spaces/s1') return { body: space };
    if (p === '/v1/spaces/s1/change-requests/1') return { body: CR };
    if (p === '/v1/spaces/s1/change-requests/1/content/pages') return { body: { pages } };
    if (p.startsWith('/v1/spaces/s1/change-requests/1/content/page/')) return { body: { ...doc('a', 'Alpha', 'alpha'), document: { object: 'document', data: {}, nodes: [] } } };
    if (p === '/v1/spaces/s1/change-requests/1/content' && method === 'POST') {
      const { changes } = body as { changes: { page: string; title?: string; emoji?: string; icon?: string; into?: string | null }[] };
      sent.push(...changes);
      for (const c of changes) {
        if (c.title) pages = pages.map((x) => (x.id === c.page ? { ...x, title: c.title! } : x));
        for (const k of ['emoji', 'icon'] as const) if (c[k] !== undefined) pages = pages.map((x) => (x.id === c.page ? { ...x, [k]: c[k] || undefined } : x));
        // Enough of the API for these tests: indent under the page above.
        if (c.into) {
          const moving = pages.find((x) => x.id === c.page)!;
          pages = pages.filter((x) => x !== moving).map((x) => (x.id === c.into ? { ...x, pages: [{ ...moving, path: `${x.path}/${moving.path}` }] } : x));
        }
      }
      return { body: CR };
    }
    return undefined;
  });
  return { calls, sent };
}

describe('editing the page tree of a change request', () => {
  it('renames another page and indents the open one with buttons, following it to its new path', async () => {
    const { sent } = api();
    const { location } = renderAt('/o/org1/s/s1/~/changes/1/edit/beta', <App />);
    const tree = await screen.findByRole('navigation', { name: 'Page tree' }, { timeout: 15_000 });
    await within(tree).findByRole('link', { name: 'Beta', current: 'page' });
    // The open page is renamed in its title field; the others in the tree.
    expect(within(tree).queryByRole('button', { name: 'Rename Beta' })).toBeNull();
    expect((within(tree).getByRole('button', { name: 'Move up: Alpha' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(within(tree).getByRole('button', { name: 'Rename Gamma' }));
    fireEvent.change(within(tree).getByRole('textbox', { name: 'New title of Gamma' }), { target: { value: 'Delta' } });
    fireEvent.click(within(tree).getByRole('button', { name: 'Save' }));
    await within(tree).findByRole('link', { name: 'Delta' });
    expect(sent).toEqual([{ operation: 'update_page', page: 'c', title: 'Delta' }]);

    fireEvent.click(within(tree).getByRole('button', { name: 'Indent: Beta' }));
    await waitFor(() => expect(location.history!.at(-1)).toBe('/o/org1/s/s1/~/changes/1/edit/alpha/beta'));
    expect(sent.at(-1)).toEqual({ operation: 'update_page', page: 'b', into: 'a' });
    expect(await within(tree).findByRole('link', { name: 'Beta', current: 'page' })).toBeTruthy();
  });

  it("sets the open page's emoji and icon beside its title; they are saved and shown when it is opened again", async () => {
    const { sent } = api();
    renderAt('/o/org1/s/s1/~/changes/1/edit/beta', <App />);
    const emoji = (await screen.findByRole('textbox', { name: 'Page emoji' }, { timeout: 15_000 })) as HTMLInputElement;
    expect(emoji.value).toBe('');
    fireEvent.change(emoji, { target: { value: '🚀' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Page icon' }), { target: { value: 'rocket' } });
    await waitFor(() => expect(sent.at(-1)).toMatchObject({ operation: 'update_page', page: 'b', title: 'Beta', emoji: '🚀', icon: 'rocket' }), { timeout: 5000 });
    const tree = screen.getByRole('navigation', { name: 'Page tree' });
    await waitFor(() => expect(within(tree).getByRole('link', { name: 'Beta' }).textContent).toBe('🚀 Beta'));

    cleanup();
    renderAt('/o/org1/s/s1/~/changes/1/edit/beta', <App />);
    expect(((await screen.findByRole('textbox', { name: 'Page emoji' }, { timeout: 15_000 })) as HTMLInputElement).value).toBe('🚀');
    expect((screen.getByRole('textbox', { name: 'Page icon' }) as HTMLInputElement).value).toBe('rocket');
  });

  it('shows a reader the page read-only: its body, title, emoji and icon, and no delete', async () => {
    api(spaceAnswer({ permissions: { view: true, edit: false } }));
    renderAt('/o/org1/s/s1/~/changes/1/edit/beta', <App />);
    const body = await screen.findByRole('textbox', { name: 'Content of Beta' }, { timeout: 15_000 });
    expect(body.getAttribute('contenteditable')).toBe('false');
    for (const name of ['Page emoji', 'Page icon']) expect((screen.getByRole('textbox', { name }) as HTMLInputElement).readOnly).toBe(true);
    expect((screen.getByRole('button', { name: 'Delete page' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
