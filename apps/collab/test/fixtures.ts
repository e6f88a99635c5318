import { ok, type Gateway } from '@quire/gateway/testing';
import { test as base } from '@quire/gateway/testing/fixtures';
import { startCollab, type Collab } from './harness.ts';

// The collaboration suite's fixtures, declared once: the files of a process share fixtures by name
// (isolate: false), so a name defined again in a file would reach the files run after it.

/** A page of a change request, as co-editing names it (`<space>/<change request>/<page>`). */
export interface CrPage {
  crBase: string;
  pageId: string;
  name: string;
}

/** A new page titled Guide of `markdown` in the change request, as its owner writes it. */
export async function crPage(
  g: Gateway,
  owner: Parameters<Gateway['call']>[0],
  space: { id: string },
  changeRequest: { id: string; number: number },
  markdown: string,
): Promise<CrPage> {
  const crBase = `/v1/spaces/${space.id}/change-requests/${changeRequest.number}`;
  await ok(g.call(owner, 'POST', `${crBase}/content`, { changes: [{ operation: 'insert_page', title: 'Guide', document: { markdown } }] }));
  const { pages } = (await ok(g.call(owner, 'GET', `${crBase}/content`))) as { pages: { id: string }[] };
  const pageId = pages[0]!.id;
  return { crBase, pageId, name: `${space.id}/${changeRequest.id}/${pageId}` };
}

/** `collab`: one collaboration server over the shared stack per process; `page`: a one-paragraph page ("Start.") of the test's change request. */
export const test = base.extend<{ page: CrPage; collab: Collab }>({
  collab: [
    async ({ g }, use) => {
      const collab = await startCollab(g);
      await use(collab);
      await collab.stop();
    },
    { scope: 'worker' },
  ],
  page: async ({ g, team, space, changeRequest }, use) => use(await crPage(g, team.owner, space, changeRequest, 'Start.')),
});
