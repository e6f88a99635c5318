import { documentStyles, toHtml, type JSONDocument } from '@quire/document';
import { paths } from '../paths.ts';
import type { RevisionFile, RevisionPage } from '../types.ts';
import { flatten } from './pages.ts';

// Pages are rendered by @quire/document's toHtml, the reader's own sanitized renderer, with its
// stylesheet: a page looks here as it does on the published site. Links to pages open the
// page in the app, files their download URL.

/** The shared document stylesheet, once per document. */
export function ensureDocumentStyles() {
  if (typeof document === 'undefined' || document.head.querySelector('style[data-quire=document]')) return;
  const style = document.createElement('style');
  style.dataset.quire = 'document';
  style.textContent = documentStyles('.document');
  document.head.append(style);
}

/** The page as HTML; `names`: the display names of the members it mentions, by user id. */
export function renderDocument(doc: JSONDocument, spaceId: string, pages: RevisionPage[], files: RevisionFile[], names?: ReadonlyMap<string, string>): string {
  const byId = new Map(flatten(pages).map((p) => [p.id, p]));
  const filesById = new Map(files.map((f) => [f.id, f]));
  return toHtml(doc, {
    highlight: true,
    memberNames: names,
    refToUrl: (ref) => {
      if (ref.kind === 'page' && (!ref.space || ref.space === spaceId)) {
        const page = byId.get(ref.page);
        return page ? paths.page(spaceId, page.path) : undefined;
      }
      if (ref.kind === 'file') return filesById.get(ref.file)?.downloadURL;
      return undefined;
    },
  });
}
