import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { App } from '../src/App.tsx';
import { describeChange } from '../src/views/History.tsx';
import { fakeApi, ORG, renderAt, USER } from './render.tsx';
import { fileAnswer } from './objects.ts';

const SPACE = { object: 'space', id: 's1', title: 'Guides', emoji: '', organization: 'org1', visibility: 'private', revision: 'r3', permissions: { view: true }, urls: {} };
const revision = (id: string, type: string, extra: object = {}) => ({
  object: 'revision',
  id,
  type,
  parents: [],
  pages: [],
  files: [],
  createdAt: '2026-11-24T10:00:00.000Z',
  urls: { app: `http://app.test/s/s1/~/revisions/${id}` },
  ...extra,
});
const CR = { id: 'cr1', number: 4, subject: 'Install guide', status: 'merged', createdBy: USER, createdAt: '2026-11-24T09:00:00.000Z', urls: {} };
const CHANGES: Record<string, object[]> = {
  r3: [
    { type: 'page_created', page: { id: 'p1', title: 'Install' } },
    { type: 'page_moved', page: { id: 'p2', title: 'Linux' }, parent: { after: { title: 'Install' } } },
  ],
  r2: [{ type: 'page_edited', page: { id: 'p0', title: 'Welcome' }, attributes: { title: {} } }],
  r1: [],
};

function api() {
  return fakeApi((_m, url) => {
    const p = url.pathname;
    if (p === '/auth/session') return { body: { user: USER, csrfToken: 'c' } };
    if (p === '/v1/orgs') return { body: { items: [ORG] } };
    if (p === '/v1/orgs/org1/collections' || p === '/v1/orgs/org1/spaces') return { body: { items: p.endsWith('spaces') ? [SPACE] : [] } };
    if (p === '/v1/spaces/s1') return { body: SPACE };
    if (p === '/v1/spaces/s1/revisions')
      return url.searchParams.get('page') === 'next1'
        ? { body: { items: [revision('r1', 'edits')] } }
        : { body: { items: [revision('r3', 'merge', { mergedFrom: CR }), revision('r2', 'edits')], next: { page: 'next1' } } };
    const changes = /^\/v1\/spaces\/s1\/revisions\/(\w+)\/changes$/.exec(p);
    if (changes) return { body: { changes: CHANGES[changes[1]!] } };
    return undefined;
  });
}

describe('the history of a space', () => {
  it('lists revisions newest first with their semantic changes, older ones on demand, each opening at its urls.app', async () => {
    const calls = api();
    const { location } = renderAt('/o/org1/s/s1/~/history', <App />);
    const list = await screen.findByRole('list', { name: 'Revisions' });
    const first = await within(list).findByRole('link', { name: /#4 Install guide/ });
    expect(await within(list).findByText('Added page “Install”')).toBeTruthy();
    expect(await within(list).findByText('Moved page “Linux” from the top to “Install”')).toBeTruthy();
    expect(await within(list).findByText('Edited page “Welcome” (title)')).toBeTruthy();
    expect(calls.find((c) => c.path.startsWith('/v1/spaces/s1/revisions?'))!.path).toContain('limit=20');

    fireEvent.click(screen.getByRole('button', { name: 'Older revisions' }));
    expect(await within(list).findByText('No changes')).toBeTruthy();
    expect(
      within(list)
        .getAllByRole('listitem')
        .filter((li) => li.className === 'revision'),
    ).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Older revisions' })).toBeNull();

    fireEvent.click(first);
    expect(location.history!.at(-1)).toBe('/s/s1/~/revisions/r3');
  });

  it('describes every kind of change', () => {
    expect(describeChange({ type: 'page_deleted', page: { id: 'p', type: 'document', title: 'Old' } })).toBe('Deleted page “Old”');
    expect(describeChange({ type: 'page_moved', page: { id: 'p', type: 'document', title: 'A' }, parent: { before: { id: 'b', type: 'document', title: 'B' } } })).toBe(
      'Moved page “A” from “B” to the top',
    );
    expect(describeChange({ type: 'file_created', file: fileAnswer({ id: 'f', name: 'a.png' }) })).toBe('Added file a.png');
    expect(describeChange({ type: 'variables_edited' })).toBe('Changed variables');
  });
});
