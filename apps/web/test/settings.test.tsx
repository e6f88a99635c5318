import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { App } from '../src/App.tsx';
import { fakeApi, ORG, renderAt, USER } from './render.tsx';

const member = (id: string, name: string, role: string) => ({ object: 'member', id, role, user: { object: 'user', id, displayName: name, email: `${id}@example.com` } });

function api(myRole: string) {
  return fakeApi((method, url) => {
    const p = url.pathname;
    if (p === '/auth/session') return { body: { user: USER, csrfToken: 'c' } };
    if (p === '/v1/orgs') return { body: { items: [ORG] } };
    if (p === '/v1/orgs/org1/collections' || p === '/v1/orgs/org1/spaces') return { body: { items: [] } };
    if (p === '/v1/orgs/org1/members' && method === 'GET') return { body: { items: [member('u1', 'Ada', myRole), member('u2', 'Bob', 'read')] } };
    if (p === '/v1/orgs/org1/members/u2' && method === 'PATCH') return { body: member('u2', 'Bob', 'edit') };
    if (p === '/v1/orgs/org1/invites' && method === 'POST') return { status: 204 };
    if (p === '/v1/user/tokens' && method === 'GET') return { body: { items: [] } };
    if (p === '/v1/user/tokens' && method === 'POST') return { status: 201, body: { object: 'api-token', id: 't1', label: 'CI', scope: 'read', token: 'gb_api_secret' } };
    return undefined;
  });
}

describe('administration', () => {
  it('an admin changes a role and invites people', async () => {
    const calls = api('admin');
    renderAt('/o/org1/settings/members', <App />);
    fireEvent.change(await screen.findByLabelText('Role of Bob'), { target: { value: 'edit' } });
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ role: 'edit' }));
    expect(screen.queryByLabelText('Role of Ada')).toBeNull();
    fireEvent.change(screen.getByLabelText('Emails to invite'), { target: { value: 'cy@example.com, di@example.com' } });
    fireEvent.change(screen.getByLabelText('Role of the invited'), { target: { value: 'review' } });
    fireEvent.click(screen.getByRole('button', { name: 'Invite' }));
    await waitFor(() => expect(calls.find((c) => c.path === '/v1/orgs/org1/invites')?.body).toEqual({ emails: ['cy@example.com', 'di@example.com'], role: 'review' }));
  });

  it('a member who is not an admin sees the members without controls', async () => {
    api('read');
    renderAt('/o/org1/settings/members', <App />);
    await screen.findByText('Bob');
    expect(screen.queryByLabelText('Role of Bob')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Invite' })).toBeNull();
  });

  it('creates a token and shows its secret once', async () => {
    api('admin');
    renderAt('/o/org1/settings/tokens', <App />);
    fireEvent.change(await screen.findByLabelText('Token label'), { target: { value: 'CI' } });
    fireEvent.change(screen.getByLabelText('Token scope'), { target: { value: 'read' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect((await screen.findByText('gb_api_secret')).tagName).toBe('CODE');
  });
});
