// Pages' front matter in calls: their cover and layout in answers (see store/looks.ts), and the
// blocks edits keep (see domain/front-matter.ts).
import type { ImageRef, PageLook } from '@quire/gitbook-layout';
import type { ImageRef as ImageRefMessage, Page as PageMessage } from '@quire/proto/space-content';
import type { Change } from '../domain/changes.ts';
import { matterOf } from '../domain/front-matter.ts';
import { findPage, flatten, type Tree, type TreePage } from '../domain/tree.ts';
import type { Deps } from './deps.ts';

const imageMessage = (ref: ImageRef): ImageRefMessage => (ref.kind === 'file' ? { fileId: ref.file } : { url: ref.url });

/** A document's cover and layout as a page answers them (unset where its front matter sets none). */
export const lookMessage = (look: PageLook | undefined): Pick<PageMessage, 'cover' | 'layout'> => ({
  cover: look?.cover && { ref: imageMessage(look.cover.ref), refDark: look.cover.refDark && imageMessage(look.cover.refDark), yPos: look.cover.yPos },
  layout: look?.layout && { ...look.layout },
});

/** The cover and layout of the documents of `pages` and theirs, by document id. */
export const pageLooks = (deps: Deps, pages: TreePage[]) => deps.store.looks.looks(flatten(pages).flatMap((l) => l.page.documentId ?? []));

/** The front matter blocks of the stored documents of the pages of `base` that `changes` give a new body, by document id. */
export async function storedMatters(deps: Deps, base: Tree, changes: Change[]): Promise<Map<string, string>> {
  const ids = changes.flatMap((c) => {
    if (!('updatePage' in c) || (c.updatePage.markdown === undefined && !c.updatePage.document)) return [];
    return findPage(base.pages, c.updatePage.page)?.page.documentId ?? [];
  });
  // Whole, not their heads: an edit must not cut a long block.
  const markdown = await deps.store.revisions.getDocuments(ids);
  const matters = new Map<string, string>();
  for (const [id, md] of markdown) {
    const matter = matterOf(md);
    if (matter) matters.set(id, matter);
  }
  return matters;
}
