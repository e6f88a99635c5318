// A revision's reusable contents: blocks several pages include (GitBook's reusable content; a Git
// import's `.gitbook/includes/*.md`, `{% include "<id>" %}` in page markdown). Each is a title and
// a document stored like a page's; a Git import sets them and every later revision carries them.
import { PAGE } from '@quire/proto/limits';
import { checkLength, InvalidArgumentError } from '@quire/service-kit';
import { checkMarkdown, documentOfMarkdown, ID, type DocumentBody } from './changes.ts';
import type { GitRef } from './tree.ts';

export interface ReusableContent {
  id: string;
  title: string;
  /** The content hash of its markdown, in the Document table as a page's. */
  documentId: string;
  git?: GitRef;
}

/** As CreateRevision gives them: the markdown, not yet a document. */
export interface ReusableContentInput {
  id: string;
  title: string;
  markdown: string;
  git?: GitRef;
}

export const MAX_REUSABLE_CONTENTS = 1_000;

/** The reusable contents as stored, and their documents; ids given are kept (a reimport keeps them). */
export function checkReusableContents(items: readonly ReusableContentInput[], newId: () => string): { contents: ReusableContent[]; documents: Map<string, DocumentBody> } {
  if (items.length > MAX_REUSABLE_CONTENTS) throw new InvalidArgumentError(`reusableContents: at most ${MAX_REUSABLE_CONTENTS} are allowed`);
  const seen = new Set<string>();
  const documents = new Map<string, DocumentBody>();
  const contents = items.map((r, i): ReusableContent => {
    const at = `reusableContents.items[${i}]`;
    if (r.id && !ID.test(r.id)) throw new InvalidArgumentError(`${at}.id: must be 1 to 64 letters, digits, "-" or "_"`);
    if (seen.has(r.id)) throw new InvalidArgumentError(`${at}.id: "${r.id}" is used twice`);
    const id = r.id || newId();
    seen.add(id);
    const kept = documentOfMarkdown(checkMarkdown(at, r.markdown));
    const content: ReusableContent = { id, title: checkLength(`${at}.title`, r.title, PAGE.title), documentId: kept.id };
    documents.set(kept.id, kept.body);
    if (r.git) content.git = { oid: r.git.oid, path: r.git.path };
    return content;
  });
  return { contents, documents };
}
