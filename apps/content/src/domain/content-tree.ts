// Whole content of a revision, as a git import gives it, made a tree under the same rules as
// the edits of changes.ts: ids kept, fields and markdown checked, unchanged pages left alone.
import { safeFileName, titleSlug } from '@quire/document';
import { COMMON, FILE } from '@quire/proto/limits';
import { checkLength, checkOneOf, InvalidArgumentError } from '@quire/service-kit';
import { checkFields, checkMarkdown, DEFAULT_PAGE_TITLE, documentOfMarkdown, fieldsFromMarkdown, ID, setFields, type DocumentBody, type PageFieldsInput } from './changes.ts';
import { flatten, PAGE_TYPES, uniqueSlug, type GitRef, type Tree, type TreeFile, type TreePage } from './tree.ts';

/** Whole content of a revision, as a git import gives it. */
export interface PageContentInput {
  id: string;
  type: string;
  fields?: PageFieldsInput;
  markdown: string;
  href: string;
  git?: GitRef;
  pages: PageContentInput[];
  /** Keep the parent's page of this id (same Git source) as it is, subpages aside: its markdown is not parsed. */
  keepDocument?: boolean;
}

export interface FileContentInput {
  id: string;
  name: string;
  contentType: string;
  blob: string;
  size: number;
  dimensions?: { width: number; height: number };
  git?: GitRef;
}

/**
 * The tree of whole content. Ids given are kept (a reimport keeps its pages); pages the previous
 * tree already had keep their creation time, and their update time when nothing of them changed.
 */
export function treeFromContent(
  pages: PageContentInput[],
  files: FileContentInput[],
  previous: Tree,
  ctx: { now: Date; newId: () => string },
): { tree: Tree; documents: Map<string, DocumentBody> } {
  const now = ctx.now.toISOString();
  const before = new Map(flatten(previous.pages).map((l) => [l.page.id, l.page]));
  const documents = new Map<string, DocumentBody>();
  const seen = new Set<string>();
  const unique = (at: string, id: string) => {
    if (!id) return ctx.newId();
    if (!ID.test(id)) throw new InvalidArgumentError(`${at}.id: must be 1 to 64 letters, digits, "-" or "_"`);
    if (seen.has(id)) throw new InvalidArgumentError(`${at}.id: "${id}" is used twice`);
    seen.add(id);
    return id;
  };

  const build = (list: PageContentInput[], prefix: string, depth: number): TreePage[] => {
    const siblings: TreePage[] = [];
    list.forEach((p, i) => {
      const at = `${prefix}[${i}]`;
      const type = checkOneOf(`${at}.type`, p.type || 'document', PAGE_TYPES);
      if (type === 'group' && depth > 0) throw new InvalidArgumentError(`${at}.type: groups are top-level pages only`);
      if (type === 'link' && p.pages.length) throw new InvalidArgumentError(`${at}.pages: link pages cannot hold pages`);
      const id = unique(at, p.id);
      if (p.keepDocument) {
        siblings.push({ ...keptPage(at, before.get(id), p), pages: build(p.pages, `${at}.pages`, depth + 1) });
        return;
      }
      let fields = checkFields(at, p.fields);
      const page: TreePage = { id, type, title: '', slug: '', createdAt: now, updatedAt: now, pages: [] };
      if (type === 'document') {
        let body: string;
        ({ fields, markdown: body } = fieldsFromMarkdown(checkMarkdown(at, p.markdown), fields));
        checkFields(at, fields);
        const kept = documentOfMarkdown(body);
        page.documentId = kept.id;
        documents.set(kept.id, kept.body);
      }
      if (type === 'link') page.href = checkLength(`${at}.href`, p.href, COMMON.url);
      page.title = fields.title ?? DEFAULT_PAGE_TITLE;
      if (fields.slug !== undefined && siblings.some((s) => s.slug === fields.slug)) throw new InvalidArgumentError(`${at}.slug: "${fields.slug}" is used by another page there`);
      page.slug = fields.slug ?? uniqueSlug(titleSlug(page.title), siblings);
      setFields(page, fields);
      if (p.git) page.git = { oid: p.git.oid, path: p.git.path };
      page.pages = build(p.pages, `${at}.pages`, depth + 1);
      const old = before.get(id);
      if (old) {
        page.createdAt = old.createdAt;
        if (samePage(old, page)) page.updatedAt = old.updatedAt;
      }
      siblings.push(page);
    });
    return siblings;
  };
  const tree = build(pages, 'pages', 0);
  const fileIds = new Set<string>();
  const treeFiles = files.map((f, i): TreeFile => {
    const at = `files[${i}]`;
    const id = f.id || ctx.newId();
    if (f.id && !ID.test(f.id)) throw new InvalidArgumentError(`${at}.id: must be 1 to 64 letters, digits, "-" or "_"`);
    if (fileIds.has(id)) throw new InvalidArgumentError(`${at}.id: "${id}" is used twice`);
    fileIds.add(id);
    checkLength(`${at}.name`, f.name, FILE.name);
    const file: TreeFile = { id, name: safeFileName(f.name), contentType: f.contentType || 'application/octet-stream', size: f.size, blob: f.blob };
    if (f.dimensions) file.dimensions = f.dimensions;
    if (f.git) file.git = { oid: f.git.oid, path: f.git.path };
    return file;
  });
  return { tree: { pages: tree, files: treeFiles, variables: { ...previous.variables } }, documents };
}

/**
 * The parent's page a Git import keeps (its file unchanged): the same document page, from the
 * same Git file, or the request is refused (a page is never kept from another source).
 */
function keptPage(at: string, old: TreePage | undefined, p: PageContentInput): TreePage {
  if (old?.type !== 'document' || !old.documentId || !p.git || old.git?.oid !== p.git.oid || old.git.path !== p.git.path)
    throw new InvalidArgumentError(`${at}.keepDocument: the parent revision has no document page "${p.id}" from ${p.git ? `${p.git.path} at ${p.git.oid}` : 'a Git file'}`);
  return old;
}

/** Same own content (children aside): a reimport leaves such a page's update time alone. */
function samePage(a: TreePage, b: TreePage): boolean {
  const own = (p: TreePage) => JSON.stringify({ ...p, pages: undefined, createdAt: undefined, updatedAt: undefined });
  return own(a) === own(b);
}
