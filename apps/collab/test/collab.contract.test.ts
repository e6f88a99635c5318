import { describe, expect } from 'vitest';
import { COLLAB } from '@quire/proto/limits';
import * as Y from 'yjs';
import { ok } from '@quire/gateway/testing';
import { test } from './fixtures.ts';
import { member, startCollab, until, WEB_ORIGIN } from './harness.ts';

// Two members' providers (real, over `ws`) against the real collaboration server and the shared
// stack's services; what they wrote is read back through the gateway.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the API's JSON as the test expects it
type Json = any;

/** The text of the page's first paragraph, as a Y.Doc holds it. */
const paragraph = (doc: Y.Doc) => (doc.getXmlFragment('default').get(0) as Y.XmlElement).get(0) as Y.XmlText;

describe('editing a change request page together', () => {
  test('two editors typing interleaved converge, and the saved page holds both', async ({ g, team, collab, page }) => {
    const a = member(collab.url, page.name, team.owner.token);
    const b = member(collab.url, page.name, team.editor.token);
    expect(await a.outcome).toEqual({ scope: 'read-write' });
    expect(await b.outcome).toEqual({ scope: 'read-write' });
    await Promise.all([a.synced, b.synced]);
    expect(paragraph(a.document).toString()).toBe('Start.');
    for (let i = 0; i < 5; i++) {
      paragraph(a.document).insert(0, `a${i} `);
      paragraph(b.document).insert(paragraph(b.document).length, ` b${i}`);
    }
    await until(() => a.text() === b.text() && paragraph(a.document).toString().includes('b4') && paragraph(b.document).toString().includes('a4'), 'both edits on both sides');
    const text = paragraph(a.document).toString();
    expect(text).toBe('a4 a3 a2 a1 a0 Start. b0 b1 b2 b3 b4');
    a.close();
    b.close();
    // The last editor leaving saves the page as the change request's content.
    await until(async () => {
      const res = await g.call(team.owner, 'GET', `${page.crBase}/content/page/${page.pageId}?format=markdown`);
      return (res.json() as Json).markdown?.includes(text) === true;
    }, 'the page saved');
  });

  test('a reader connects read-only and their edit is not applied', async ({ team, collab, page }) => {
    const reader = member(collab.url, page.name, team.reader.token);
    const owner = member(collab.url, page.name, team.owner.token);
    expect(await reader.outcome).toEqual({ scope: 'readonly' });
    await Promise.all([reader.synced, owner.synced]);
    paragraph(reader.document).insert(0, 'forged ');
    paragraph(owner.document).insert(0, 'real ');
    await until(() => paragraph(reader.document).toString().includes('real'), "the owner's edit reaching the reader");
    const server = collab.server.hocuspocus.documents.get(page.name)!;
    expect(paragraph(server).toString()).toBe('real Start.');
    expect(paragraph(owner.document).toString()).toBe('real Start.');
    reader.close();
    owner.close();
  });

  test('a bad token, a wrong origin, a session without origin and an outsider are refused', async ({ team, collab, page }) => {
    const attempts = [
      member(collab.url, page.name, 'not-a-token'),
      member(collab.url, page.name, team.owner.token, { origin: 'http://evil.test' }),
      member(collab.url, page.name, '', { cookie: 'quire_session=whatever' }),
      member(collab.url, page.name, team.outsider.token),
      member(collab.url, 'not/a page', team.owner.token),
    ];
    const outcomes = await Promise.all(attempts.map((c) => c.outcome));
    expect(outcomes).toEqual([
      { refused: 'the access token is not valid' },
      { refused: "origin http://evil.test is not the web app's" },
      { refused: 'a session needs the Origin header of the web app' },
      { refused: 'change request not found' },
      { refused: expect.stringMatching(/^document name "not\/a page": expected/) },
    ]);
    for (const c of attempts) c.close();
  });

  test('a merged change request takes no edits', async ({ g, team, collab, page, space, changeRequest }) => {
    await ok(g.call(team.owner, 'POST', `${page.crBase}/merge`));
    const owner = member(collab.url, `${space.id}/${changeRequest.id}/${page.pageId}`, team.owner.token, { origin: WEB_ORIGIN });
    expect(await owner.outcome).toEqual({ scope: 'readonly' });
    await owner.synced;
    paragraph(owner.document).insert(0, 'late ');
    await new Promise((r) => setTimeout(r, 300));
    expect(paragraph(collab.server.hocuspocus.documents.get(page.name)!).toString()).toBe('Start.');
    owner.close();
  });

  // Its own server: one whose orgs does not answer (a closed port).
  test('with orgs not answering, a member is refused saying so; where orgs answers they are admitted', async ({ g, team, collab, page }) => {
    const lost = await startCollab({ ...g, orgs: { address: '127.0.0.1:9' } }, { GRPC_TIMEOUT_MS: '500' });
    try {
      const refused = member(lost.url, page.name, team.editor.token);
      expect(await refused.outcome).toEqual({ refused: 'access could not be checked (a service did not answer): try again shortly' });
      refused.close();
    } finally {
      await lost.stop();
    }
    // The control: the same member and page on a server whose orgs answers.
    const admitted = member(collab.url, page.name, team.editor.token);
    expect(await admitted.outcome).toEqual({ scope: 'read-write' });
    admitted.close();
  });

  test('past the editors bound the next member is refused, and an edit past the state bound is not applied', async ({ team, collab, page }) => {
    const editors = Array.from({ length: COLLAB.editors.max }, () => member(collab.url, page.name, team.editor.token));
    expect((await Promise.all(editors.map((e) => e.outcome))).every((o) => 'scope' in o && o.scope === 'read-write')).toBe(true);
    await Promise.all(editors.map((e) => e.synced));
    const extra = member(collab.url, page.name, team.owner.token);
    expect(await extra.outcome).toEqual({ refused: `at most ${COLLAB.editors.max} members edit a page at once` });
    extra.close();
    const writer = editors[0]!;
    paragraph(writer.document).insert(0, 'x'.repeat(COLLAB.stateBytes.max));
    await new Promise((r) => setTimeout(r, 500));
    expect(paragraph(collab.server.hocuspocus.documents.get(page.name)!).toString()).toBe('Start.');
    for (const e of editors) e.close();
  });
});
