import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { fromMarkdown } from '@quire/document';
import { App } from '../src/App.tsx';
import { fakeApi, ORG, renderAt, USER, type Handler, spaceAnswer } from './render.tsx';

const BOB = { object: 'user', id: 'u2', displayName: 'Bob', email: 'bob@example.com' };
const EVE = { object: 'user', id: 'u3', displayName: 'Eve', email: 'eve@example.com' };
const SPACE = spaceAnswer({ permissions: { view: true, edit: true, comment: true } });
const CR = { id: 'cr1', number: 1, subject: 'Tree', status: 'open', revision: 'r2', revisionInitial: 'r1', createdBy: USER, createdAt: '2026-11-24T09:00:00.000Z', urls: {} };
const PAGE = { id: 'p1', type: 'document', title: 'Install', path: 'install', documentId: 'd2', pages: [] };
const CR_PATH = '/v1/spaces/s1/change-requests/1';
const comment = (id: string, markdown: string, extra: object = {}) => ({
  id,
  body: { markdown },
  postedBy: BOB,
  postedAt: '2026-11-24T10:00:00.000Z',
  replies: 0,
  reactions: [],
  ...extra,
});

/** The API of a change request with one page, PAGE, and the space it is against. */
const reviewApi =
  (space: object = SPACE): Handler =>
  (method, url) => {
    const p = url.pathname;
    if (p === '/auth/session') return { body: { user: USER, csrfToken: 'c' } };
    if (p === '/v1/orgs') return { body: { items: [ORG] } };
    if (p === '/v1/orgs/org1/collections' || p === '/v1/orgs/org1/spaces') return { body: { items: p.endsWith('spaces') ? [SPACE] : [] } };
    if (p === '/v1/orgs/org1/members') return { body: { items: [USER, BOB, EVE].map((user) => ({ id: user.id, role: 'edit', user })) } };
    if (p === '/v1/spaces/s1') return { body: space };
    if (p === CR_PATH) return { body: CR };
    if (p === `${CR_PATH}/reviews`) return { body: { items: [] } };
    if (p === `${CR_PATH}/requested-reviewers` && method === 'GET') return { body: { items: [{ user: BOB, requestedBy: USER, createdAt: CR.createdAt }] } };
    if (p.startsWith(`${CR_PATH}/requested-reviewers`)) return { status: method === 'DELETE' ? 204 : 200, body: { users: [] } };
    if (p === '/v1/spaces/s1/revisions/r1/pages') return { body: { pages: [] } };
    if (p === `${CR_PATH}/content/pages`) return { body: { pages: [PAGE] } };
    if (p === `${CR_PATH}/content/page/p1`) return { body: { ...PAGE, markdown: 'Run it.' } };
    if (p === `${CR_PATH}/comments` && method === 'GET') {
      // The page's thread when asked for it; else every comment, the page's too.
      const onPage = comment('c2', 'Which version?', { target: { page: { id: 'p1', title: 'Install' } }, reactions: [{ emoji: '👍', count: 1, users: [{ user: USER }] }] });
      return { body: { items: url.searchParams.get('targetPage') === 'p1' ? [onPage] : [comment('c1', 'Looks good'), onPage] } };
    }
    if (p.startsWith(`${CR_PATH}/comments`)) return { status: 201, body: comment('c9', 'x') };
    return undefined;
  };

const api = () => fakeApi(reviewApi());

describe('reviewing a change request', () => {
  it('lists requested reviewers, asks another member and withdraws one', async () => {
    const calls = api();
    renderAt('/o/org1/s/s1/~/changes/1', <App />);
    const list = await screen.findByRole('list', { name: 'Requested reviewers' }, { timeout: 10_000 });
    expect(list.textContent).toContain('Bob');
    const select = await screen.findByRole('combobox', { name: 'Reviewer to request' });
    // Those already asked are not offered again.
    await waitFor(() =>
      expect(
        within(select)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Choose a member', 'Ada (ada@example.com)', 'Eve (eve@example.com)']),
    );
    fireEvent.change(select, { target: { value: 'u3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Request review' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST' && c.path === `${CR_PATH}/requested-reviewers`)?.body).toEqual({ users: ['u3'] }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove reviewer Bob' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === `${CR_PATH}/requested-reviewers/u2`)).toBe(true));
  });

  it('shows page comments with their page, posts on the page, and takes back its own reaction', async () => {
    const calls = api();
    renderAt('/o/org1/s/s1/~/changes/1', <App />);
    const thread = await screen.findByRole('region', { name: 'Comments on Install' }, { timeout: 10_000 });
    await within(thread).findByText(/Which version\?/);
    // The change request's own thread leaves the page's comment to its page.
    const own = screen.getByRole('region', { name: 'Comments' });
    await within(own).findByText(/Looks good/);
    expect(within(own).queryByText(/Which version\?/)).toBeNull();

    fireEvent.change(within(thread).getByLabelText('Comment on Install'), { target: { value: 'The latest.' } });
    fireEvent.click(within(thread).getByRole('button', { name: 'Comment on page' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST' && c.path === `${CR_PATH}/comments`)?.body).toEqual({ body: { markdown: 'The latest.' }, page: 'p1' }));

    const reaction = within(thread).getByRole('button', { name: /React with thumbs up to Bob's comment/ });
    expect(reaction.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(reaction);
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ path: `${CR_PATH}/comments/c2`, body: { removedReactions: ['👍'] } }));
  });

  it('after a merge, the space shows the merged page, never first the page as it was', async () => {
    let merged = false;
    let answerMerged!: () => void;
    const mergedAnswered = new Promise<void>((resolve) => (answerMerged = resolve));
    const calls = fakeApi(async (method, url, body) => {
      const p = url.pathname;
      if (p === `${CR_PATH}/merge`) return ((merged = true), { body: {} });
      if (p === '/v1/spaces/s1/content/pages') return { body: { pages: [PAGE] } };
      if (p === '/v1/spaces/s1/content/files') return { body: { items: [] } };
      if (p === '/v1/spaces/s1/content/page/p1') {
        if (merged) await mergedAnswered;
        return { body: { ...PAGE, document: fromMarkdown(merged ? 'Run it twice.' : 'Run it.') } };
      }
      return reviewApi({ ...SPACE, permissions: { ...SPACE.permissions, merge: true } })(method, url, body);
    });
    const { container, location } = renderAt('/s/s1/install', <App />);
    await screen.findByText('Run it.', { selector: '.document p' });
    act(() => location.navigate('/o/org1/s/s1/~/changes/1'));
    fireEvent.click(await screen.findByRole('button', { name: 'Merge' }, { timeout: 10_000 }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === `${CR_PATH}/merge`)).toBe(true));
    act(() => location.navigate('/s/s1/install'));
    await screen.findByRole('heading', { level: 1, name: 'Install' });
    expect(container.querySelector('.document')?.textContent ?? '').toBe('');
    answerMerged();
    await screen.findByText('Run it twice.', { selector: '.document p' });
  });
});
