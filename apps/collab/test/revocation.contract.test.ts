import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createLogger, sessionCookieName } from '@quire/service-kit';
import { AUTH_REVOKED_SUBJECT, connectNats, credentialHash, type NatsConnection } from '@quire/service-kit/nats';
import { bearer, ok, type Gateway } from '@quire/gateway/testing';
import { test as base } from './fixtures.ts';
import { member, until, WEB_ORIGIN, type Member } from './harness.ts';
import { expectShutOut, notices, paragraph, WITHIN_MS } from './shut-out.ts';

// Credentials ending while editing: orgs names the hashes of ended sessions and revoked tokens on
// NATS, and a connection made with one is closed within 2 s; a revocation nobody made (a message
// on the subject naming a credential that still works) closes nothing.

let nc: NatsConnection;
beforeAll(async () => {
  nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'collab-revocation-test', createLogger('test', 'silent'));
});
afterAll(() => nc?.drain());

/** A browser session of `user` (signed in through the gateway), and how to sign it out as the web app does. */
async function signedIn(g: Gateway, user: { email: string; password: string }) {
  const res = await g.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: user.email, password: user.password } });
  expect(res.statusCode, res.body).toBe(204);
  const session = res.cookies.find((c) => c.name === sessionCookieName(g.config.QUIRE_PUBLIC_URL))!.value;
  const cookie = `${sessionCookieName(g.config.QUIRE_PUBLIC_URL)}=${session}`;
  const { csrfToken } = await ok(g.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie } }));
  return { session, cookie, signOut: () => ok(g.app.inject({ method: 'POST', url: '/auth/sign-out', headers: { cookie, 'x-csrf-token': csrfToken } }), 204) };
}

// The editor by a browser session and by an API token of their own, and the owner by token: connected, synced, closed after the test.
const test = base.extend<{
  revocable: { bySession: Member; byToken: Member; owner: Member; signOut: () => Promise<unknown>; session: string; token: { id: string; token: string } };
}>({
  revocable: async ({ g, team, collab, page }, use) => {
    const { session, cookie, signOut } = await signedIn(g, team.editor);
    const token = await ok(g.app.inject({ method: 'POST', url: '/v1/user/tokens', headers: bearer(team.editor.token), payload: { label: 'collab' } }), 201);
    const bySession = member(collab.url, page.name, '', { origin: WEB_ORIGIN, cookie });
    const byToken = member(collab.url, page.name, token.token);
    const owner = member(collab.url, page.name, team.owner.token);
    for (const m of [bySession, byToken, owner]) expect(await m.outcome).toEqual({ scope: 'read-write' });
    await Promise.all([bySession.synced, byToken.synced, owner.synced]);
    await use({ bySession, byToken, owner, signOut, session, token });
    for (const m of [bySession, byToken, owner]) m.close();
  },
});

describe('credentials ending while editing', () => {
  test('signing out closes the connections of that session within 2 s, and what it sends after is not applied', async ({ collab, page, revocable }) => {
    const { bySession, byToken, owner, signOut } = revocable;
    await signOut();
    const server = collab.server.hocuspocus.documents.get(page.name)!;
    await expectShutOut(bySession, 'Your session has ended: sign in again', { server, left: 2, since: Date.now() }, owner);
    await until(() => paragraph(byToken.document).toString().startsWith('kept'), "the owner's edit reaching the member by token");
    expect([notices(byToken), notices(owner)]).toEqual([[], []]);
  });

  test('revoking an API token closes its connections within 2 s; the same member by session stays', async ({ g, team, collab, page, revocable }) => {
    const { bySession, byToken, token } = revocable;
    await ok(g.app.inject({ method: 'DELETE', url: `/v1/user/tokens/${token.id}`, headers: bearer(team.editor.token) }), 204);
    const revoked = Date.now();
    await until(() => notices(byToken).length > 0, 'the notice', WITHIN_MS);
    expect(notices(byToken)).toEqual([{ access: 'none', reason: 'Your access token was revoked' }]);
    await until(() => collab.server.hocuspocus.documents.get(page.name)!.getConnectionsCount() === 2, 'the connection closed', WITHIN_MS - (Date.now() - revoked));
    expect(notices(bySession)).toEqual([]);
  });

  test('a revocation nobody made, naming working credentials, closes nothing', async ({ collab, page, revocable }) => {
    const { bySession, byToken, owner, signOut, session, token } = revocable;
    // Anyone able to publish on the subject: the hashes of the session and token in use, and junk.
    nc.publish(AUTH_REVOKED_SUBJECT, JSON.stringify({ hashes: [credentialHash(session), credentialHash(token.token)] }));
    nc.publish(AUTH_REVOKED_SUBJECT, 'not json');
    nc.publish(AUTH_REVOKED_SUBJECT, JSON.stringify({ hashes: 42 }));
    await nc.flush();
    // The control, heard after them: a real sign-out closes the session's connection.
    await signOut();
    await until(() => collab.server.hocuspocus.documents.get(page.name)!.getConnectionsCount() === 2, 'the signed-out connection closed', WITHIN_MS);
    expect([notices(byToken), notices(owner)]).toEqual([[], []]);
    paragraph(byToken.document).insert(0, 'still ');
    await until(() => paragraph(owner.document).toString() === 'still Start.', "the token's edit after the forged revocation");
    expect(notices(bySession)).toEqual([{ access: 'none', reason: 'Your session has ended: sign in again' }]);
  });
});
