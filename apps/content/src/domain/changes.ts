// Edits of a revision: an ordered batch of changes applied to a tree, all or nothing, giving the
// new tree, the documents it needs that may not exist yet and what changed (whole content, as a
// git import gives it, is content-tree.ts). Plain functions: the handler loads and stores.
import { createHash } from 'node:crypto';
import { fromMarkdown, mapRefs, PAGE_SLUG, rawRef, safeFileName, titleSlug, toMarkdown, toPlainText, type JSONDocument } from '@quire/document';
import { CHANGE_REQUEST, COMMON, FILE, PAGE } from '@quire/proto/limits';
import { checkLength, checkNoNul, checkOneOf, InvalidArgumentError, NotFoundError } from '@quire/service-kit';
import { atxHeadingText, matchHead } from '@quire/document/gfm';
import { readFrontMatter } from '@quire/gitbook-layout';
import { stringify } from 'safe-stable-stringify';
import { fieldsFromFrontMatter, givenFrontMatter, matterOf, updatedMarkdown, withMatter } from './front-matter.ts';
import { clonePages, findPage, flatten, PAGE_TYPES, subtreeIds, uniqueSlug, type PageType, type Tree, type TreeFile, type TreePage } from './tree.ts';

export const DEFAULT_PAGE_TITLE = 'Untitled';

export interface PageFieldsInput {
  title?: string;
  slug?: string;
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
}

/** A file of an insert whose bytes are already in the blob store. */
export interface StoredFile {
  ref: string;
  name: string;
  contentType: string;
  blob: string;
  size: number;
  dimensions?: { width: number; height: number };
}

export type Change =
  | { insertPage: { fields?: PageFieldsInput; type: string; markdown?: string; document?: JSONDocument; href: string; into?: string; at?: number; ref: string } }
  | { updatePage: { page: string; fields?: PageFieldsInput; markdown?: string; document?: JSONDocument; move: boolean; into?: string; at?: number; keepParent?: boolean } }
  | { deletePage: { page: string } }
  | { revertPage: { page: string; revision: string } }
  | { insertFiles: { files: StoredFile[] } };

export type ChangeKind = 'created_page' | 'updated_page' | 'deleted_page';
export interface ChangedPage {
  kind: ChangeKind;
  pageId: string;
  ref: string;
}

export interface ApplyContext {
  now: Date;
  newId: () => string;
  /** The trees revert_page may go back to, by revision id; '' is the batch's base. */
  revisions: Map<string, Tree>;
  /** The front matter blocks of the base's documents whose pages get a new body, by document id. */
  matters?: Map<string, string>;
}

/**
 * A document as content stores it: its markdown, and the model a client gave when the markdown
 * does not read back to it (see `documentOfModel`); without one the model is the markdown's.
 */
export interface DocumentBody {
  markdown: string;
  document?: JSONDocument;
}

export interface Applied {
  tree: Tree;
  /** Every document the new tree refers to that the batch wrote, by id. */
  documents: Map<string, DocumentBody>;
  changes: ChangedPage[];
  insertedFiles: TreeFile[];
}

export const documentId = (markdown: string) => createHash('sha256').update(markdown, 'utf8').digest('hex');

/** A page given as markdown as content keeps it, with its id. */
export const documentOfMarkdown = (markdown: string): { id: string; body: DocumentBody } => ({ id: documentId(markdown), body: { markdown } });

// Put before a model's JSON when it is hashed: no stored markdown holds NUL (PostgreSQL's text
// cannot), so a model's id is never a markdown's.
const MODEL_ID_PREFIX = '\0document\n';

/**
 * A page given as a document (stored form: see `storedDocument`) as content keeps it, with its id.
 * The markdown is a projection (what markdown readers, diffs and text merges see), under the
 * page's front matter (`matter`) when it has one. The id is content-addressed either way: the
 * markdown's hash when the markdown reads back to exactly this document, which is then the same
 * page as that markdown written (one id, one stored row, nothing lost); else the hash of the
 * front matter and the document's canonical JSON (keys sorted), kept whole beside its projection,
 * so that the same document written twice is one document.
 */
export function documentOfModel(at: string, document: JSONDocument, matter = ''): { id: string; body: DocumentBody } {
  let markdown: string;
  try {
    markdown = withMatter(matter, toMarkdown(document));
  } catch (e) {
    throw new InvalidArgumentError(`${at}.document: not a valid JSONDocument (${(e as Error).message})`);
  }
  if (markdown.length > PAGE.markdown.max) throw new InvalidArgumentError(`${at}.document: its markdown must be at most ${PAGE.markdown.max} characters`);
  const json = stringify(document);
  if (stringify(fromMarkdown(markdown)) === json) return { id: documentId(markdown), body: { markdown } };
  return { id: documentId(MODEL_ID_PREFIX + matter + json), body: { markdown, document } };
}

/** Whether the stored document `id` says more than its `markdown` reads back to: ids tell (documentOfModel). */
export const saysMoreThanMarkdown = (id: string, markdown: string): boolean => id !== documentId(markdown);

/** The revision ids revert_page changes go back to ('' for the base). */
export const revertTargets = (changes: Change[]) => [...new Set(changes.flatMap((c) => ('revertPage' in c ? [c.revertPage.revision] : [])))];

// The heading's line only, read greedily; its text is trimmed by atxHeadingText (linear time).
const LEADING_H1 = /^\s*#[ \t]+([^\r\n]*)/;

/**
 * GitBook's rule for markdown given with a new page: the front matter's `description` and `icon`
 * and the leading `# heading` (else the front matter's `title`) fill the fields not given, and
 * what was used leaves the body, where it would show twice.
 */
export function fieldsFromMarkdown(markdown: string, given: PageFieldsInput): { fields: PageFieldsInput; markdown: string } {
  let fields = { ...given };
  let body = markdown;
  const fm = readFrontMatter(body);
  if (fm) {
    const read = fieldsFromFrontMatter(fm.data, given);
    fields = read.fields;
    // Anything else GitBook's front matter holds stays in the markdown.
    if (read.whole) body = body.slice(fm.block.length);
  }
  const h1 = matchHead(LEADING_H1, body);
  const title = h1 ? atxHeadingText(h1[1]!) : '';
  if (h1 && title && given.title === undefined) {
    fields.title = title;
    body = body.slice(h1[0].length).replace(/^\s*\n/, '');
  }
  return { fields, markdown: body };
}

// `[text](./ref)`, `![alt](./ref.md#anchor "title")` and `[id]: ./ref` definitions.
const REF_LINK = /(\]\(\s*<?|^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*<?)\.\/([^\s)>#?]+?)(\.md)?(?=[#)>\s]|$)/gm;
// The same destination as a document holds it.
const REF_URL = /^\.\/([^\s)>#?]+?)(\.md)?(?=#|$)/;

/** Markdown with links to `./<ref>` (or `./<ref>.md`) of the batch's pages and files made app links. */
export function resolveRefs(markdown: string, target: (ref: string) => string | undefined): string {
  return markdown.replace(REF_LINK, (all, lead: string, ref: string) => {
    const to = target(ref);
    return to ? lead + to : all;
  });
}

/** `resolveRefs` for a document's destinations (as written: `url` and `file` refs), in place. */
export function resolveDocumentRefs(document: JSONDocument, target: (ref: string) => string | undefined): JSONDocument {
  return mapRefs(document, (ref, context) => {
    const url = ref.kind === 'url' ? ref.url : ref.kind === 'file' ? ref.file : undefined;
    const m = url === undefined ? null : REF_URL.exec(url);
    const to = m && target(m[1]!);
    return to ? rawRef(to + url!.slice(m![0].length), context) : ref;
  });
}

/**
 * GitBook's leading-heading rule (see `fieldsFromMarkdown`) for a page given as a document: a
 * first `heading-1` fills the title when none is given, and leaves the body.
 */
function fieldsFromDocument(document: JSONDocument, given: PageFieldsInput): { fields: PageFieldsInput; document: JSONDocument } {
  const [first, ...rest] = document.nodes;
  const title = first?.type === 'heading-1' ? toPlainText({ ...document, nodes: [first] }).trim() : '';
  if (!title || given.title !== undefined) return { fields: given, document };
  return { fields: { ...given, title }, document: { ...document, nodes: rest } };
}

export function checkFields(at: string, f: PageFieldsInput | undefined): PageFieldsInput {
  if (!f) return {};
  if (f.title !== undefined) checkLength(`${at}.title`, f.title, PAGE.title);
  if (f.slug !== undefined && !PAGE_SLUG.test(f.slug))
    throw new InvalidArgumentError(`${at}.slug: must be ${PAGE.slug.min} to ${PAGE.slug.max} lower case letters, digits, "-", "_", "." or "+" (not first, nor a dot last)`);
  if (f.emoji !== undefined) checkLength(`${at}.emoji`, f.emoji, COMMON.emoji);
  if (f.icon !== undefined) checkLength(`${at}.icon`, f.icon, COMMON.icon);
  if (f.description !== undefined) checkLength(`${at}.description`, f.description, PAGE.description);
  return f;
}

export function checkMarkdown(at: string, markdown: string): string {
  if (markdown.length > PAGE.markdown.max) throw new InvalidArgumentError(`${at}.markdown: must be at most ${PAGE.markdown.max} characters`);
  return checkNoNul(`${at}.markdown`, markdown);
}

/** Sets the optional fields of a page, leaving out the empty ones. */
export function setFields(page: TreePage, f: PageFieldsInput) {
  if (f.title !== undefined) page.title = f.title;
  for (const k of ['emoji', 'icon', 'description'] as const) {
    const v = f[k];
    if (v === undefined) continue;
    if (v) page[k] = v;
    else delete page[k];
  }
  if (f.hidden !== undefined) {
    if (f.hidden) page.hidden = true;
    else delete page.hidden;
  }
}

/** Applies `changes` in order to `base`; the first bad one throws, naming its index. */
export function applyChanges(base: Tree, changes: Change[], ctx: ApplyContext): Applied {
  if (changes.length === 0) throw new InvalidArgumentError('changes: at least one change is needed');
  if (changes.length > CHANGE_REQUEST.changes.max) throw new InvalidArgumentError(`changes: at most ${CHANGE_REQUEST.changes.max} changes per batch (got ${changes.length})`);
  const now = ctx.now.toISOString();
  const root: TreePage = { id: '', type: 'group', title: '', slug: '', createdAt: now, updatedAt: now, pages: clonePages(base.pages) };
  const files = [...base.files];
  const refs = new Map<string, { kind: 'pages' | 'files'; id: string }>();
  // Each page's new body: markdown, or a document under the page's front matter (`at` names its change).
  const bodies = new Map<string, string | { document: JSONDocument; at: string; matter: string }>();
  const changed = new Map<string, ChangedPage>();
  const insertedFiles: TreeFile[] = [];

  const mark = (pageId: string, kind: ChangeKind, ref = '') => {
    const before = changed.get(pageId);
    if (kind === 'deleted_page' && before?.kind === 'created_page') changed.delete(pageId);
    else if (kind === 'updated_page' && before) return;
    else changed.set(pageId, { kind, pageId, ref: before?.ref ?? ref });
  };
  const idOf = (idOrRef: string) => (refs.get(idOrRef)?.kind === 'pages' ? refs.get(idOrRef)!.id : idOrRef);
  const locate = (at: string, idOrRef: string) => {
    const found = findPage(root.pages, idOf(idOrRef));
    if (!found) throw new NotFoundError(`${at}: page "${idOrRef}" not found`);
    return { ...found, siblings: found.parent ? found.parent.pages : root.pages };
  };
  /** The page that will hold children: the root when `into` is unset. */
  const container = (at: string, into: string | undefined, type: PageType): TreePage => {
    if (into === undefined || into === '') return root;
    const parent = locate(at, into).page;
    if (type === 'group') throw new InvalidArgumentError(`${at}.into: groups are top-level pages only`);
    if (parent.type === 'link') throw new InvalidArgumentError(`${at}.into: link page "${into}" cannot hold pages`);
    return parent;
  };
  const position = (at: string, index: number | undefined, siblings: TreePage[]) => {
    if (index === undefined) return siblings.length;
    if (index > siblings.length) throw new InvalidArgumentError(`${at}.at: must be at most ${siblings.length}`);
    return index;
  };
  const addRef = (at: string, ref: string, kind: 'pages' | 'files', id: string) => {
    if (!ref) return;
    if (refs.has(ref)) throw new InvalidArgumentError(`${at}.ref: "${ref}" is used twice in the batch`);
    refs.set(ref, { kind, id });
  };
  const remove = (siblings: TreePage[], page: TreePage) => {
    siblings.splice(siblings.indexOf(page), 1);
    for (const id of subtreeIds(page)) {
      bodies.delete(id);
      mark(id, 'deleted_page');
    }
  };

  changes.forEach((change, i) => {
    const at = `changes[${i}]`;
    if ('insertPage' in change) {
      const c = change.insertPage;
      const type = checkOneOf(`${at}.type`, c.type || 'document', PAGE_TYPES);
      let fields = checkFields(at, c.fields);
      let body: string | { document: JSONDocument; at: string; matter: string } | undefined;
      if (type === 'document') {
        let given: string | JSONDocument;
        if (c.document) ({ fields, document: given } = fieldsFromDocument(c.document, fields));
        else {
          const markdown = checkMarkdown(at, c.markdown ?? '');
          givenFrontMatter(at, markdown, files);
          ({ fields, markdown: given } = fieldsFromMarkdown(markdown, fields));
        }
        checkFields(at, fields);
        body = typeof given === 'string' ? given : { document: given, at, matter: '' };
      } else if (c.markdown !== undefined || c.document) throw new InvalidArgumentError(`${at}.markdown: only document pages have markdown`);
      if (type === 'link') checkLength(`${at}.href`, c.href, COMMON.url);
      const parent = container(at, c.into, type);
      const index = position(at, c.at, parent.pages);
      const title = fields.title ?? DEFAULT_PAGE_TITLE;
      if (fields.slug !== undefined && parent.pages.some((s) => s.slug === fields.slug))
        throw new InvalidArgumentError(`${at}.slug: "${fields.slug}" is used by another page there`);
      const page: TreePage = { id: ctx.newId(), type, title, slug: fields.slug ?? uniqueSlug(titleSlug(title), parent.pages), createdAt: now, updatedAt: now, pages: [] };
      setFields(page, fields);
      if (type === 'link') page.href = c.href;
      if (body !== undefined) bodies.set(page.id, body);
      addRef(at, c.ref, 'pages', page.id);
      parent.pages.splice(index, 0, page);
      mark(page.id, 'created_page', c.ref);
    } else if ('updatePage' in change) {
      const c = change.updatePage;
      const found = locate(at, c.page);
      const page = found.page;
      let fields = checkFields(at, c.fields);
      if (c.markdown !== undefined || c.document) {
        if (page.type !== 'document') throw new InvalidArgumentError(`${at}.markdown: only document pages have markdown`);
        // The page's front matter as it stands: its body's earlier in the batch, or its stored document's.
        const before = bodies.get(page.id);
        const previous = before === undefined ? page.documentId && ctx.matters?.get(page.documentId) : typeof before === 'string' ? matterOf(before) : before.matter;
        if (c.document) bodies.set(page.id, { document: c.document, at, matter: previous || '' });
        else {
          const markdown = checkMarkdown(at, c.markdown!);
          const updated = updatedMarkdown(markdown, givenFrontMatter(at, markdown, files), previous || undefined, fields);
          fields = checkFields(at, updated.fields);
          bodies.set(page.id, checkMarkdown(at, updated.markdown));
        }
      }
      let siblings = found.siblings;
      if (c.move) {
        const parent = c.keepParent ? (found.parent ?? root) : container(at, c.into, page.type);
        if (subtreeIds(page).includes(parent.id)) throw new InvalidArgumentError(`${at}.into: cannot move page "${c.page}" under itself or its own pages`);
        siblings.splice(siblings.indexOf(page), 1);
        siblings = parent.pages;
        siblings.splice(position(at, c.at, siblings), 0, page);
        if (fields.slug === undefined) page.slug = uniqueSlug(page.slug, siblings, page.id);
      }
      if (fields.slug !== undefined && siblings.some((s) => s.id !== page.id && s.slug === fields.slug))
        throw new InvalidArgumentError(`${at}.slug: "${fields.slug}" is used by another page there`);
      if (fields.slug !== undefined) page.slug = fields.slug;
      setFields(page, fields);
      page.updatedAt = now;
      mark(page.id, 'updated_page');
    } else if ('deletePage' in change) {
      const found = locate(at, change.deletePage.page);
      remove(found.siblings, found.page);
    } else if ('revertPage' in change) {
      const c = change.revertPage;
      const source = ctx.revisions.get(c.revision);
      if (!source) throw new NotFoundError(`${at}.revision: revision "${c.revision}" not found`);
      const id = idOf(c.page);
      const then = findPage(source.pages, id);
      const current = findPage(root.pages, id);
      if (!then && !current) throw new NotFoundError(`${at}: page "${c.page}" not found`);
      if (!then) remove(current!.parent ? current!.parent.pages : root.pages, current!.page);
      else if (!current) {
        const present = new Set(flatten(root.pages).map((l) => l.page.id));
        const restored = withoutPages(structuredClone(then.page), present);
        const parent = (then.parent && findPage(root.pages, then.parent.id)?.page) || root;
        restored.slug = uniqueSlug(restored.slug, parent.pages);
        parent.pages.splice(Math.min(then.index, parent.pages.length), 0, restored);
        for (const pid of subtreeIds(restored)) mark(pid, 'created_page');
      } else {
        const page = current.page;
        const siblings = current.parent ? current.parent.pages : root.pages;
        const { pages, createdAt } = page;
        for (const k of Object.keys(page)) delete (page as unknown as Record<string, unknown>)[k];
        Object.assign(page, structuredClone({ ...then.page, pages: [] }), { pages, createdAt, updatedAt: now });
        page.slug = uniqueSlug(page.slug, siblings, page.id);
        bodies.delete(page.id);
        mark(page.id, 'updated_page');
      }
    } else {
      change.insertFiles.files.forEach((f, j) => {
        const fat = `${at}.files[${j}]`;
        checkLength(`${fat}.name`, f.name, FILE.name);
        const file: TreeFile = { id: ctx.newId(), name: safeFileName(f.name), contentType: f.contentType || 'application/octet-stream', size: f.size, blob: f.blob };
        if (f.dimensions) file.dimensions = f.dimensions;
        addRef(fat, f.ref, 'files', file.id);
        files.push(file);
        insertedFiles.push(file);
      });
    }
  });

  // Refs resolve after the whole batch: a page may link to one inserted after it.
  const target = (ref: string) => {
    const r = refs.get(ref);
    return r && `/${r.kind}/${r.id}`;
  };
  const documents = new Map<string, DocumentBody>();
  const present = new Map(flatten(root.pages).map((l) => [l.page.id, l.page]));
  for (const [pageId, body] of bodies) {
    const page = present.get(pageId);
    if (!page) continue;
    const kept =
      typeof body === 'string'
        ? documentOfMarkdown(refs.size ? resolveRefs(body, target) : body)
        : documentOfModel(body.at, refs.size ? resolveDocumentRefs(body.document, target) : body.document, body.matter);
    page.documentId = kept.id;
    documents.set(kept.id, kept.body);
  }
  return { tree: { pages: root.pages, files, variables: { ...base.variables } }, documents, changes: [...changed.values()], insertedFiles };
}

function withoutPages(page: TreePage, ids: Set<string>): TreePage {
  page.pages = page.pages.filter((p) => !ids.has(p.id)).map((p) => withoutPages(p, ids));
  return page;
}

export const ID = /^[A-Za-z0-9_-]{1,64}$/;
