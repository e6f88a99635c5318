import { emptyIfNull } from '@quire/service-kit';
// The revision service's answers: trees, pages, files and semantic changes as proto messages.
import type {
  File as FileMessage,
  Page as PageMessage,
  Revision as RevisionMessage,
  ReusableContent as ReusableContentMessage,
  SemanticChange as SemanticChangeMessage,
} from '@quire/proto/space-content';
import type { PageLook } from '@quire/gitbook-layout';
import { type ChangedPage, type SemanticChange } from '../domain/semantic.ts';
import { type ReusableContent } from '../domain/reusable.ts';
import { emptyTree, type TreeFile, type TreePage } from '../domain/tree.ts';
import { type RevisionRow } from '../store/revisions.ts';
import { lookMessage } from './front-matter.ts';

// Tree to proto.

const json = (v: unknown) => (v === undefined ? undefined : JSON.stringify(v));
const presentChangedPage = (p: ChangedPage | undefined) => p && { ...p };

export function presentSemanticChange(c: SemanticChange): SemanticChangeMessage {
  const attributes = c.type === 'page_edited' || c.type === 'file_edited' ? c.attributes : c.type === 'variables_edited' ? c.variables : {};
  return {
    type: c.type,
    page: 'page' in c ? presentChangedPage(c.page) : undefined,
    parentBefore: c.type === 'page_moved' ? presentChangedPage(c.parent.before) : undefined,
    parentAfter: c.type === 'page_moved' ? presentChangedPage(c.parent.after) : undefined,
    file: 'file' in c ? presentFile(c.file, false) : undefined,
    attributes: Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, { beforeJson: json(v.before), afterJson: json(v.after) }])),
  };
}

export interface Shown {
  metadata: boolean;
  markdown?: Map<string, string>;
  /** A page's document as JSON when it says more than its markdown (GetRevision with_documents). */
  document?: (page: TreePage, path: string) => string | undefined;
  /** The cover and layout of documents, by id. */
  looks?: Map<string, PageLook>;
}

export function presentPage(page: TreePage, path: string, shown: Shown): PageMessage {
  return {
    id: page.id,
    type: page.type,
    title: page.title,
    ...emptyIfNull(page, 'emoji', 'icon', 'description', 'documentId', 'href'),
    slug: page.slug,
    path,
    hidden: page.hidden ?? false,
    git: shown.metadata ? page.git : undefined,
    createdAt: new Date(page.createdAt),
    updatedAt: new Date(page.updatedAt),
    pages: page.pages.map((p) => presentPage(p, `${path}/${p.slug}`, shown)),
    markdown: shown.markdown && page.documentId ? (shown.markdown.get(page.documentId) ?? '') : undefined,
    documentJson: shown.document?.(page, path),
    ...lookMessage(page.documentId ? shown.looks?.get(page.documentId) : undefined),
  };
}

export const presentFile = (f: TreeFile, metadata: boolean): FileMessage => ({
  id: f.id,
  name: f.name,
  contentType: f.contentType,
  size: f.size,
  dimensions: f.dimensions,
  git: metadata ? f.git : undefined,
  blob: f.blob,
});

export function presentRevision(r: RevisionRow, shown: Shown): RevisionMessage {
  return {
    id: r.id,
    spaceId: r.spaceId,
    parents: r.parents,
    type: r.type,
    createdAt: r.createdAt,
    pages: r.tree.pages.map((p) => presentPage(p, p.slug, shown)),
    files: r.tree.files.map((f) => presentFile(f, shown.metadata)),
    variables: r.tree.variables,
    git: shown.metadata && r.git ? r.git : undefined,
    redirects: r.redirects.map((x) => ({ ...x })),
    reusableContents: r.reusableContents.map((c) => presentReusableContent(c, shown)),
  };
}

export const presentReusableContent = (c: ReusableContent, shown: Shown): ReusableContentMessage => ({
  id: c.id,
  title: c.title,
  documentId: c.documentId,
  markdown: shown.markdown?.get(c.documentId) ?? '',
  git: shown.metadata ? c.git : undefined,
});

/**
 * A revision without its content, as an edit or a whole-content write answers it: the caller has
 * what it sent, and the whole tree of a large space costs more to encode and decode than the
 * write's id (GetRevision reads it).
 */
export const revisionHeader = (r: RevisionRow): RevisionMessage => presentRevision({ ...r, tree: emptyTree(), redirects: [], reusableContents: [] }, { metadata: true });
