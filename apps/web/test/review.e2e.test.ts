import { expect, it } from 'vitest';
import type { TestUser } from '@quire/orgs/testing';
import { describeInChromium, expectAccessible, reviewSuite, shots } from './app-server.ts';

// Page tree editing, review requests, page comments, history and a refused merge, in Debian's
// Chromium over the real gateway and services. The content they start from is made over the API.

describeInChromium('editing the tree, reviewing and merging in Chromium', () => {
  const s = reviewSuite('review');
  const { browser } = s;

  const signedIn = (user: TestUser, path: string) => browser.signedIn(s.app.origin, user, path);

  /** One API call as `user`; its JSON answer, failing on any status but `status`. */
  async function call(user: TestUser, method: 'GET' | 'POST', url: string, body?: unknown, status = 200) {
    const res = await s.app.g.call(user, method, url, body);
    expect(res.statusCode, res.body).toBe(status);
    return res.body ? res.json() : undefined;
  }

  /** A space whose content is the given pages, merged from a first change request. */
  async function spaceWith(title: string, pages: { title: string; markdown: string }[]) {
    const spaceId = (await call(s.writer, 'POST', `/v1/orgs/${s.orgId}/spaces`, { title }, 201)).id as string;
    const cr = await changeRequest(
      spaceId,
      'First pages',
      pages.map((p) => ({ operation: 'insert_page', title: p.title, document: { markdown: p.markdown } })),
    );
    await call(s.writer, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`);
    const tree = (await call(s.writer, 'GET', `/v1/spaces/${spaceId}/content/pages`)).pages as { id: string; title: string }[];
    return { spaceId, page: (t: string) => tree.find((p) => p.title === t)!.id };
  }

  async function changeRequest(spaceId: string, subject: string, changes: unknown[]): Promise<number> {
    const { number } = await call(s.writer, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject }, 201);
    if (changes.length) await call(s.writer, 'POST', `/v1/spaces/${spaceId}/change-requests/${number}/content`, { changes });
    return number as number;
  }

  it('pages moved in the tree of a change request (buttons, drag and drop) show at their new place after merge; reviewers and page comments on the way; the history shows the move', async () => {
    const { spaceId } = await spaceWith('Manual', [
      { title: 'Alpha', markdown: 'A.' },
      { title: 'Beta', markdown: 'B.' },
      { title: 'Gamma', markdown: 'G.' },
    ]);
    const number = await changeRequest(spaceId, 'Reorganize', []);
    const crPath = `/o/${s.orgId}/s/${spaceId}/~/changes/${number}`;

    const w = await signedIn(s.writer, `${crPath}/edit`);
    const tree = w.getByRole('navigation', { name: 'Page tree' });
    await tree.getByRole('link', { name: 'Alpha', exact: true }).waitFor();
    // The keyboard way: Beta under Alpha.
    await tree.getByRole('button', { name: 'Indent: Beta' }).click();
    const alpha = tree.getByRole('listitem').filter({ has: w.getByRole('link', { name: 'Alpha', exact: true }) });
    await alpha.getByRole('link', { name: 'Beta' }).waitFor();
    // Drag and drop: Gamma onto the upper half of Alpha, before it.
    await tree.locator('.item', { hasText: 'Gamma' }).dragTo(tree.locator('.item', { hasText: 'Alpha' }), { targetPosition: { x: 20, y: 2 } });
    await expect.poll(async () => (await tree.getByRole('link').allTextContents()).join(' | '), { timeout: 15_000 }).toBe('Gamma | Alpha | Beta');
    await expectAccessible(w, 'tree editing');
    await w.screenshot({ path: `${shots}tree-editing.png` });

    // A review is requested of the reviewer, who comments on the moved page; the writer replies.
    await w.goto(s.app.origin + crPath);
    await w.getByLabel('Reviewer to request').selectOption({ label: `reviewer (${s.reviewer.email})` });
    await w.getByRole('button', { name: 'Request review' }).click();
    await w.getByRole('list', { name: 'Requested reviewers' }).getByText('reviewer').waitFor();
    const r = await signedIn(s.reviewer, crPath);
    const betaDiff = r.getByRole('article', { name: /^Beta/ });
    await betaDiff.getByLabel('Comment on Beta').fill('Is Beta really part of Alpha?');
    await betaDiff.getByRole('button', { name: 'Comment on page' }).click();
    await betaDiff.getByText('Is Beta really part of Alpha?').waitFor();
    await w.reload();
    const thread = w.getByRole('article', { name: /^Beta/ }).getByRole('region', { name: 'Comments on Beta' });
    await thread.getByLabel('Reply to reviewer').fill('Yes: it extends it.');
    await thread.getByRole('button', { name: 'Reply' }).click();
    await thread.getByRole('list', { name: 'Replies to reviewer' }).getByText('Yes: it extends it.').waitFor();
    await thread.getByRole('button', { name: "React with thumbs up to reviewer's comment" }).click();
    await thread.getByRole('button', { name: "React with thumbs up to reviewer's comment", pressed: true }).waitFor();
    // The page comment stays with its page, out of the change request's own thread.
    expect(await w.getByRole('region', { name: 'Comments', exact: true }).getByText('Is Beta really part of Alpha?').count()).toBe(0);
    await expectAccessible(w, 'change request with reviewers and page comments');
    await w.screenshot({ path: `${shots}change-request-review.png`, fullPage: true });

    await w.getByRole('button', { name: 'Merge' }).click();
    await w.getByText('merged', { exact: true }).waitFor();

    // In the space, the pages are where the tree put them: Beta under Alpha, at its new path.
    await w.goto(`${s.app.origin}/o/${s.orgId}/s/${spaceId}`);
    const spaceTree = w.getByRole('navigation', { name: 'Page tree' });
    await expect.poll(async () => (await spaceTree.getByRole('link').allTextContents()).join(' | '), { timeout: 15_000 }).toBe('Gamma | Alpha | Beta');
    await spaceTree
      .getByRole('listitem')
      .filter({ has: w.getByRole('link', { name: 'Alpha', exact: true }) })
      .getByRole('link', { name: 'Beta' })
      .click();
    await w.getByRole('heading', { level: 1, name: 'Beta' }).waitFor();
    expect(new URL(w.url()).pathname).toBe(`/s/${spaceId}/alpha/beta`);

    // The history lists the merge first, with the move, and opens that revision.
    await w.getByRole('link', { name: 'History' }).click();
    const revisions = w.getByRole('list', { name: 'Revisions' });
    await revisions.getByText('Moved page “Beta” from the top to “Alpha”').waitFor();
    await revisions.getByRole('link', { name: /#\d+ Reorganize/ }).waitFor();
    await expectAccessible(w, 'history');
    await w.screenshot({ path: `${shots}history.png`, fullPage: true });
    await revisions.getByRole('link', { name: /#\d+ Reorganize/ }).click();
    await w.getByText(/You are reading revision/).waitFor();
    expect(new URL(w.url()).pathname).toMatch(new RegExp(`^/s/${spaceId}/~/revisions/\\w+$`));
  });

  it('a merge refused for conflicts shows the conflicting pages', async () => {
    const { spaceId, page } = await spaceWith('Conflicts', [
      { title: 'Guide', markdown: 'Run the installer.' },
      { title: 'Notes', markdown: 'Nothing yet.' },
    ]);
    const edit = (markdown: string) => [{ operation: 'update_page', page: page('Guide'), document: { markdown } }];
    const first = await changeRequest(spaceId, 'Installer wording', edit('Run the installer as root.'));
    const second = await changeRequest(spaceId, 'Installer again', edit('Run the installer twice.'));
    await call(s.writer, 'POST', `/v1/spaces/${spaceId}/change-requests/${first}/merge`);

    const w = await signedIn(s.writer, `/o/${s.orgId}/s/${spaceId}/~/changes/${second}`);
    await w.getByRole('button', { name: 'Merge' }).click();
    const alert = w.getByRole('alert').filter({ hasText: 'Refused' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('"Guide"');
    expect(await alert.textContent()).not.toContain('"Notes"');
    await w.screenshot({ path: `${shots}merge-conflict.png`, fullPage: true });
    // Nothing merged: the change request is still open.
    expect((await call(s.writer, 'GET', `/v1/spaces/${spaceId}/change-requests/${second}`)).status).toBe('open');
  });
});
