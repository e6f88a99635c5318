import { describe, expect } from 'vitest';
import { ok } from '@quire/gateway/testing';
import { test as base } from './fixtures.ts';
import { member, until, type Member } from './harness.ts';
import { expectShutOut, notices, paragraph, WITHIN_MS } from './shut-out.ts';

// Access taken away while editing: the orgs service's member events and review's change request
// events reach the collaboration server over NATS, and the open editor is changed within 2 s.

// The page's editor and its owner, connected and synced; closed after the test however it ends.
const test = base.extend<{ editing: { editor: Member; owner: Member } }>({
  editing: async ({ team, collab, page }, use) => {
    const editor = member(collab.url, page.name, team.editor.token);
    const owner = member(collab.url, page.name, team.owner.token);
    await Promise.all([editor.synced, owner.synced]);
    await use({ editor, owner });
    editor.close();
    owner.close();
  },
});

describe('access changing while editing', () => {
  test('a member removed from the organization is told and disconnected within 2 s; their edits are not applied', async ({ g, team, collab, page, editing }) => {
    const { editor, owner } = editing;
    await ok(g.call(team.owner, 'DELETE', `/v1/orgs/${team.orgId}/members/${team.editor.id}`), 204);
    const server = collab.server.hocuspocus.documents.get(page.name)!;
    await expectShutOut(editor, 'Your access to this change request was removed', { server, left: 1, since: Date.now() }, owner);
    expect(notices(owner)).toEqual([]);
  });

  test('a member whose role is lowered to read is made read-only within 2 s', async ({ g, team, collab, page, editing }) => {
    const { editor, owner } = editing;
    await ok(g.call(team.owner, 'PATCH', `/v1/orgs/${team.orgId}/members/${team.editor.id}`, { role: 'read' }));
    await until(() => notices(editor).length > 0, 'the notice', WITHIN_MS);
    expect(notices(editor)).toEqual([{ access: 'read', reason: 'You may now only read this page' }]);
    paragraph(editor.document).insert(0, 'forged ');
    paragraph(owner.document).insert(0, 'real ');
    await until(() => paragraph(editor.document).toString().includes('real'), "the owner's edit reaching the reader");
    expect(paragraph(collab.server.hocuspocus.documents.get(page.name)!).toString()).toBe('real Start.');
  });

  test('merging the change request stops every open editor, who is told', async ({ g, team, collab, page, editing }) => {
    const { editor, owner } = editing;
    await ok(g.call(team.owner, 'POST', `${page.crBase}/merge`));
    for (const m of [editor, owner]) await until(() => notices(m).length > 0, 'the notice', WITHIN_MS);
    for (const m of [editor, owner]) expect(notices(m)).toEqual([{ access: 'read', reason: 'The change request is merged: editing has stopped' }]);
    paragraph(owner.document).insert(0, 'late ');
    await new Promise((r) => setTimeout(r, 300));
    expect(paragraph(collab.server.hocuspocus.documents.get(page.name)!).toString()).toBe('Start.');
  });
});
