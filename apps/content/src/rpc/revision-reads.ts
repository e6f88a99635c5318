import type { Revision as RevisionMessage, SpaceContentServiceServer } from '@quire/proto/space-content';
import { SPACE } from '@quire/proto/limits';
import { Revision as RevisionCodec } from '@quire/proto/space-content';
import { checkOneOf, encodeCursor, InvalidArgumentError, MAX_MESSAGE_BYTES, NotFoundError, pageArgs, pageOf, type Handlers } from '@quire/service-kit';
import { saysMoreThanMarkdown } from '../domain/changes.ts';
import { documentOf } from '../domain/document.ts';
import { DEFAULT_SEMANTIC_LIMIT, semanticChanges } from '../domain/semantic.ts';
import { emptyTree, findPage, findPageByPath, flatten, type TreePage } from '../domain/tree.ts';
import { visibleSpace, type Deps } from './deps.ts';
import { pageLooks } from './front-matter.ts';
import { readRevision, revisionOf } from './revision-access.ts';
import { presentFile, presentPage, presentReusableContent, presentRevision, presentSemanticChange } from './revision-presenters.ts';

type H = Pick<
  Handlers<SpaceContentServiceServer>,
  'getRevision' | 'getPage' | 'getDocument' | 'getReusableContent' | 'listFiles' | 'getFile' | 'getSemanticChanges' | 'listRevisions'
>;

const PAGE_FORMATS = ['', 'markdown', 'document'] as const;

/** The content of one page of a space's history: half the message bound, the rest for its envelope. */
const HISTORY_PAGE_BYTES = MAX_MESSAGE_BYTES / 2;

/** Reading a space's revisions: its history, pages, documents and files. */
export function revisionReadHandlers(deps: Deps): H {
  const revisions = deps.store.revisions;
  return {
    async getSemanticChanges(req, ctx) {
      if (req.limit < 0 || req.limit > SPACE.changesLimit.max) throw new InvalidArgumentError(`limit: must be between ${SPACE.changesLimit.min} and ${SPACE.changesLimit.max}`);
      const { space, revision } = await readRevision(deps, req.spaceId, req.revisionId, ctx);
      // The first parent may be another space's (a duplicate's first revision): its tree is this one's source.
      const baseId = req.baseRevisionId || revision.parents[0];
      const base = req.baseRevisionId ? await revisionOf(deps, space, req.baseRevisionId, 'baseRevisionId') : baseId ? await revisions.getRevision(baseId) : undefined;
      const result = semanticChanges(base?.tree ?? emptyTree(), revision.tree, req.limit || DEFAULT_SEMANTIC_LIMIT);
      return { changes: result.changes.map(presentSemanticChange), more: result.more };
    },

    async listRevisions(req, ctx) {
      const { space } = await visibleSpace(deps, req.spaceId, ctx);
      const { limit, page } = pageArgs(req.page);
      // A next page starts after the previous one's last revision, which must be the space's.
      const chain = await revisions.listHistory(space.id, space.revisionId, page.after ?? space.revisionId, page.take + (page.after === undefined ? 0 : 1));
      if (chain.length === 0) throw new InvalidArgumentError('page: not a revision of this space');
      const ids = page.after === undefined ? chain : chain.slice(1);
      const items: RevisionMessage[] = [];
      let bytes = 0;
      for (const id of ids.slice(0, limit)) {
        const row = await revisions.getRevision(id);
        if (!row) break;
        const item = presentRevision(row, { metadata: req.metadata, looks: await pageLooks(deps, row.tree.pages) });
        bytes += RevisionCodec.encode(item).finish().byteLength;
        // Whole revisions are large: a page ends before the answer could pass the message bound.
        if (items.length > 0 && bytes > HISTORY_PAGE_BYTES) break;
        items.push(item);
      }
      const more = items.length < ids.length;
      return { items, page: { next: more ? encodeCursor(items[items.length - 1]!.id) : undefined } };
    },

    async getRevision(req, ctx) {
      const { revision } = await readRevision(deps, req.spaceId, req.revisionId, ctx);
      const ids = () => [...flatten(revision.tree.pages).flatMap((l) => l.page.documentId ?? []), ...revision.reusableContents.map((c) => c.documentId)];
      const [markdown, looks] = await Promise.all([req.withMarkdown || req.withDocuments ? revisions.getDocuments(ids()) : undefined, pageLooks(deps, revision.tree.pages)]);
      // Only the documents their markdown cannot say whole: every other one is what its markdown reads back to.
      const models =
        markdown && req.withDocuments ? await revisions.getStoredDocuments([...markdown].filter(([id, md]) => saysMoreThanMarkdown(id, md)).map(([id]) => id)) : undefined;
      const document =
        models &&
        ((page: TreePage, path: string) => {
          const found = page.documentId ? models.get(page.documentId) : undefined;
          return found && JSON.stringify(documentOf(found, revision.tree, { path, hasChildren: page.pages.length > 0 }));
        });
      return presentRevision(revision, { metadata: req.metadata, markdown: req.withMarkdown ? markdown : undefined, document, looks });
    },

    async getPage(req, ctx) {
      const format = checkOneOf('format', req.format, PAGE_FORMATS);
      if (req.pageId === undefined && req.path === undefined) throw new InvalidArgumentError('page: a pageId or a path is needed');
      const { revision } = await readRevision(deps, req.spaceId, req.revisionId, ctx);
      const found = req.pageId !== undefined ? findPage(revision.tree.pages, req.pageId) : findPageByPath(revision.tree.pages, req.path!);
      if (!found) throw new NotFoundError(req.pageId !== undefined ? `Page "${req.pageId}" not found` : `No page at path "${req.path}"`);
      const id = found.page.documentId;
      const page = presentPage(found.page, found.path, { metadata: req.metadata, looks: await pageLooks(deps, [found.page]) });
      if (format && id) {
        const stored = (await revisions.getStoredDocuments([id])).get(id) ?? { markdown: '', document: null };
        if (format === 'markdown') page.markdown = stored.markdown;
        else page.documentJson = JSON.stringify(documentOf(stored, revision.tree, { path: found.path, hasChildren: found.page.pages.length > 0 }));
      }
      return page;
    },

    async getDocument(req, ctx) {
      const { space } = await visibleSpace(deps, req.spaceId, ctx);
      const notFound = new NotFoundError(`Document "${req.documentId}" not found`);
      if (!/^[0-9a-f]{64}$/.test(req.documentId)) throw notFound;
      if (!(await revisions.spaceHasDocument(space.id, space.revisionId, req.documentId))) throw notFound;
      const stored = (await revisions.getStoredDocuments([req.documentId])).get(req.documentId);
      if (stored === undefined) throw notFound;
      // A document may sit at several paths: only links that name their target resolve.
      const revision = await revisionOf(deps, space, '');
      return { id: req.documentId, markdown: stored.markdown, documentJson: JSON.stringify(documentOf(stored, revision.tree)) };
    },

    async getReusableContent(req, ctx) {
      const { revision } = await readRevision(deps, req.spaceId, req.revisionId, ctx);
      const content = revision.reusableContents.find((c) => c.id === req.reusableContentId);
      if (!content) throw new NotFoundError(`Reusable content "${req.reusableContentId}" not found`);
      return presentReusableContent(content, { metadata: req.metadata, markdown: await revisions.getDocuments([content.documentId]) });
    },

    async listFiles(req, ctx) {
      const { revision } = await readRevision(deps, req.spaceId, req.revisionId, ctx);
      const { limit, page } = pageArgs(req.page);
      const files = revision.tree.files;
      const start = page.after === undefined ? 0 : files.findIndex((f) => f.id === page.after) + 1;
      const { items, next } = pageOf(files.slice(start, start + page.take), limit, (f) => f.id);
      return { items: items.map((f) => presentFile(f, req.metadata)), page: { next } };
    },

    async getFile(req, ctx) {
      const { revision } = await readRevision(deps, req.spaceId, req.revisionId, ctx);
      const file = revision.tree.files.find((f) => f.id === req.fileId);
      if (!file) throw new NotFoundError(`File "${req.fileId}" not found`);
      return presentFile(file, req.metadata);
    },
  };
}
