import type { Change as ChangeMessage, CreateRevisionRequest, GitCommit, NewFile, Revision as RevisionMessage, SpaceContentServiceServer } from '@quire/proto/space-content';
import { SPACE } from '@quire/proto/limits';
import { Revision as RevisionCodec } from '@quire/proto/space-content';
import {
  callsAsItself,
  checkOneOf,
  encodeCursor,
  FailedPreconditionError,
  InvalidArgumentError,
  MAX_BLOB_BYTES,
  MAX_BLOBS_PER_CALL,
  MAX_MESSAGE_BYTES,
  NotFoundError,
  pageArgs,
  pageOf,
  PermissionDeniedError,
  type CallContext,
  type Handlers,
} from '@quire/service-kit';
import { allow, Role } from '@quire/policy';
import { newId } from '@quire/service-kit/ids';
import { fetchPublic } from '@quire/service-kit/outbound';
import type { JSONDocument } from '@quire/document';
import { imageSize } from 'image-size';
import pLimit from 'p-limit';
import { applyChanges, revertTargets, saysMoreThanMarkdown, treeFromContent, type Change, type StoredFile } from '../domain/changes.ts';
import { documentOf, storedDocument } from '../domain/document.ts';
import { documentsToMerge, mergeTrees } from '../domain/merge.ts';
import { DEFAULT_SEMANTIC_LIMIT, semanticChanges } from '../domain/semantic.ts';
import { checkRedirects, mergeWhole } from '../domain/redirects.ts';
import { checkReusableContents } from '../domain/reusable.ts';
import { emptyTree, findPage, findPageByPath, flatten, type Tree, type TreePage } from '../domain/tree.ts';
import type { BlobStore } from '../blobs/index.ts';
import type { SpaceRow } from '../store/index.ts';
import { spaceMovedOn, type GitCommitInfo, type RevisionRow } from '../store/revisions.ts';
import { callerOf, visibleSpace, type Deps } from './deps.ts';
import { pageLooks, storedMatters } from './front-matter.ts';
import { presentFile, presentPage, presentReusableContent, presentRevision, presentSemanticChange, revisionHeader } from './revision-presenters.ts';

export interface RevisionDeps extends Deps {
  blobs: BlobStore;
}

type H = Pick<
  Handlers<SpaceContentServiceServer>,
  | 'getRevision'
  | 'getPage'
  | 'getDocument'
  | 'getReusableContent'
  | 'listFiles'
  | 'getFile'
  | 'readBlob'
  | 'putBlob'
  | 'putBlobs'
  | 'applyChanges'
  | 'createRevision'
  | 'mergeRevisions'
  | 'setSpaceRevision'
  | 'mergeChangeRequestIntoSpace'
  | 'getChangeRequestMerge'
  | 'getSemanticChanges'
  | 'listRevisions'
>;

export const REVISION_TYPES = ['edits', 'merge', 'update', 'rollback', 'computed'] as const;
const PAGE_FORMATS = ['', 'markdown', 'document'] as const;
const FILE_FETCH_TIMEOUT_MS = 15_000;
/** Files fetched by URL at once by this process, whatever the number of calls asking. */
export const FILE_FETCHES_IN_FLIGHT = 4;
/** Files one PutBlobs call writes to the blob store at once (an object store takes each as a request). */
const BLOB_WRITES_PER_CALL = 8;
/** Bytes one call may fetch by URL in all (its files' sum; each file is also at most MAX_BLOB_BYTES). */
export const MAX_FETCHED_BYTES_PER_CALL = 50 * 1024 * 1024;

/** The content of one page of a space's history: half the message bound, the rest for its envelope. */
const HISTORY_PAGE_BYTES = MAX_MESSAGE_BYTES / 2;

const revisionNotFound = (id: string, field = 'revision') => new NotFoundError(`${field}: revision "${id}" not found`);

/** Writes need `edit` on the space (change requests too, so a locked space still takes them). */
export function requireEdit(space: SpaceRow, role: Role) {
  if (!allow(role, 'writeContent', 'space')) throw new PermissionDeniedError(`Only editors of space "${space.id}" can change its content`);
}

/** Moving a space's revision is refused while it is locked. */
function requireLive(space: SpaceRow) {
  if (space.editMode === 'locked') throw new FailedPreconditionError(`Space "${space.id}" is locked: its content cannot change`, 'space_locked');
}

/** A revision of the space (made in it, or its active one); the active one when `id` is empty. */
export async function revisionOf(deps: Deps, space: SpaceRow, id: string, field = 'revisionId', fetched?: Promise<RevisionRow | undefined>): Promise<RevisionRow> {
  const row = await (fetched ?? deps.store.revisions.getRevision(id || space.revisionId));
  if (!row || (row.spaceId !== space.id && row.id !== space.revisionId)) throw revisionNotFound(id, field);
  return row;
}

/**
 * The space and one of its revisions (the active one when `revisionId` is empty). A named
 * revision is read while the caller's access is checked, and shown only once it passed.
 */
export async function readRevision(deps: Deps, spaceId: string, revisionId: string, ctx: CallContext) {
  const early = revisionId ? deps.store.revisions.getRevision(revisionId) : undefined;
  early?.catch(() => undefined);
  const { space, role } = await visibleSpace(deps, spaceId, ctx);
  return { space, role, revision: await revisionOf(deps, space, revisionId, 'revisionId', early) };
}

const dimensionsOf = (data: Uint8Array, contentType: string) => {
  if (!contentType.startsWith('image/')) return undefined;
  try {
    const { width, height } = imageSize(data);
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
};

const gitOf = (g: GitCommit | undefined): GitCommitInfo | undefined => g && { oid: g.oid, message: g.message, createdByService: g.createdByService, url: g.url, ref: g.ref };

/** Whole content as a new revision of `space` (the caller has checked it may edit it). */
export function contentWriter(deps: RevisionDeps) {
  const now = deps.now ?? (() => new Date());

  /** Size and dimensions of files given by blob hash: from the previous tree when it has the blob, else read. */
  async function describeBlobs(files: { blob: string; contentType: string }[], previous: Tree) {
    const known = new Map(previous.files.map((f) => [f.blob, f]));
    return Promise.all(
      files.map(async (f, i) => {
        const k = known.get(f.blob);
        if (k) return { size: k.size, dimensions: k.dimensions };
        const data = await deps.blobs.get(f.blob);
        if (!data) throw new InvalidArgumentError(`files[${i}].blob: no blob "${f.blob}"; store its bytes with PutBlobs first`);
        return { size: data.byteLength, dimensions: dimensionsOf(data, f.contentType || 'application/octet-stream') };
      }),
    );
  }

  return async function writeContent(space: SpaceRow, req: Omit<CreateRevisionRequest, 'spaceId'>): Promise<RevisionRow> {
    if (req.setActive) requireLive(space);
    // Checked (bounds first) before any blob is read.
    const reusable = req.reusableContents && checkReusableContents(req.reusableContents.items, newId);
    const parent = await revisionOf(deps, space, req.parentRevisionId, 'parentRevisionId');
    const described = await describeBlobs(req.files, parent.tree);
    const files = req.files.map((f, i) => ({ ...f, ...described[i]! }));
    const { tree, documents } = treeFromContent(req.pages, files, parent.tree, { now: now(), newId });
    const redirects = req.redirects ? checkRedirects(req.redirects.items, tree.pages) : parent.redirects;
    for (const [id, body] of reusable?.documents ?? []) documents.set(id, body);
    return deps.store.revisions.writeRevision(
      { spaceId: space.id, parents: [parent.id], type: req.type, tree, git: gitOf(req.git), redirects, reusableContents: reusable?.contents ?? parent.reusableContents },
      documents,
      req.setActive ? { expected: parent.id } : undefined,
    );
  };
}

export function revisionHandlers(deps: RevisionDeps): H {
  const { store, blobs } = deps;
  const revisions = store.revisions;
  const now = deps.now ?? (() => new Date());
  const writeContent = contentWriter(deps);
  const fetches = pLimit(FILE_FETCHES_IN_FLIGHT);

  /**
   * A new file's bytes: given, or fetched from its public URL (through the outbound filter), within
   * what is left of the call's `budget` of fetched bytes.
   */
  async function fileSource(f: NewFile, at: string, budget: { left: number }): Promise<{ data: Uint8Array; contentType: string }> {
    if (f.data) {
      if (f.data.byteLength > MAX_BLOB_BYTES) throw new InvalidArgumentError(`${at}.data: must be at most ${MAX_BLOB_BYTES} bytes`);
      return { data: f.data, contentType: f.contentType || 'application/octet-stream' };
    }
    if (!f.url) throw new InvalidArgumentError(`${at}: one of data or url is needed`);
    const overBudget = () => new InvalidArgumentError(`${at}.url: the files fetched by URL in one call must be at most ${MAX_FETCHED_BYTES_PER_CALL} bytes in all`);
    if (budget.left <= 0) throw overBudget();
    const maxBytes = Math.min(MAX_BLOB_BYTES, budget.left);
    const got = await fetchPublic(f.url, { maxBytes, timeoutMs: FILE_FETCH_TIMEOUT_MS }, { field: `${at}.url` }).catch((err: unknown) => {
      // Cut at the call's remaining budget rather than the file's own bound: say which.
      throw maxBytes < MAX_BLOB_BYTES && err instanceof InvalidArgumentError && err.message.includes(' is larger than ') ? overBudget() : err;
    });
    budget.left -= got.body.byteLength;
    if (budget.left < 0) throw overBudget();
    if (got.status < 200 || got.status >= 300) throw new InvalidArgumentError(`${at}.url: ${f.url} answered ${got.status}`);
    return { data: got.body, contentType: f.contentType || got.contentType.split(';')[0]!.trim() || 'application/octet-stream' };
  }

  /** Files' bytes into the blob store, every bound checked before any is stored. */
  async function putBlobs(data: Uint8Array[]) {
    if (data.length === 0) throw new InvalidArgumentError('data: at least one file is needed');
    if (data.length > MAX_BLOBS_PER_CALL) throw new InvalidArgumentError(`data: at most ${MAX_BLOBS_PER_CALL} files a call`);
    data.forEach((d, i) => {
      if (d.byteLength > MAX_BLOB_BYTES) throw new InvalidArgumentError(`data[${i}]: must be at most ${MAX_BLOB_BYTES} bytes`);
    });
    const writes = pLimit(BLOB_WRITES_PER_CALL);
    return Promise.all(data.map((d) => writes(() => blobs.put(d))));
  }

  /** A page change with its body given as a JSONDocument, that document as content stores it. */
  function withDocument<C extends { markdown?: string; documentJson?: string }>(at: string, c: C, base: Tree): C & { document?: JSONDocument } {
    if (c.documentJson === undefined) return c;
    if (c.markdown !== undefined) throw new InvalidArgumentError(`${at}: give one of markdown and document`);
    return { ...c, document: storedDocument(at, c.documentJson, base), documentJson: undefined };
  }

  /** The bytes of an insert_files change into the blob store, as the domain takes them. */
  async function storeFiles(changes: ChangeMessage[], base: Tree): Promise<Change[]> {
    const budget = { left: MAX_FETCHED_BYTES_PER_CALL };
    return Promise.all(
      changes.map(async (c, i): Promise<Change> => {
        if (c.insertPage) return { insertPage: withDocument(`changes[${i}]`, c.insertPage, base) };
        if (c.updatePage) return { updatePage: withDocument(`changes[${i}]`, c.updatePage, base) };
        if (c.deletePage) return { deletePage: c.deletePage };
        if (c.revertPage) return { revertPage: c.revertPage };
        if (!c.insertFiles) throw new InvalidArgumentError(`changes[${i}]: one of insertPage, updatePage, deletePage, revertPage or insertFiles is needed`);
        const files = await Promise.all(
          c.insertFiles.files.map(async (f, j): Promise<StoredFile> => {
            const at = `changes[${i}].files[${j}]`;
            const { data, contentType } = f.data ? await fileSource(f, at, budget) : await fetches(() => fileSource(f, at, budget));
            const { blob, size } = await blobs.put(data);
            return { ref: f.ref, name: f.name, contentType, blob, size, dimensions: dimensionsOf(data, contentType) };
          }),
        );
        return { insertFiles: { files } };
      }),
    );
  }

  /** The 3-way merge of `theirs` into `ours` from `base`, revisions of `space` (`fields` name them in errors). */
  async function merge3(space: SpaceRow, ids: { base: string; ours: string; theirs: string }, fields: [string, string, string]) {
    const [base, ours, theirs] = await Promise.all([
      revisionOf(deps, space, ids.base, fields[0]),
      revisionOf(deps, space, ids.ours, fields[1]),
      revisionOf(deps, space, ids.theirs, fields[2]),
    ]);
    const markdown = await revisions.getDocuments(documentsToMerge(base.tree, ours.tree, theirs.tree));
    const merged = mergeTrees({ base: base.tree, ours: ours.tree, theirs: theirs.tree, markdown });
    return {
      ...merged,
      parents: [ours.id, theirs.id],
      redirects: mergeWhole(base.redirects, ours.redirects, theirs.redirects),
      reusableContents: mergeWhole(base.reusableContents, ours.reusableContents, theirs.reusableContents),
    };
  }

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

    // No caller check: the gateway serves blobs on links it signed for someone who could read the file.
    async readBlob({ blob }) {
      const data = await blobs.get(blob);
      if (!data) throw new NotFoundError(`Blob "${blob}" not found`);
      return { data };
    },

    async putBlob({ data }, ctx) {
      callerOf(ctx);
      return (await putBlobs([data]))[0]!;
    },

    async putBlobs({ data }, ctx) {
      callerOf(ctx);
      return { blobs: await putBlobs(data) };
    },

    async applyChanges(req, ctx) {
      callerOf(ctx);
      const { space, role, revision: base } = await readRevision(deps, req.spaceId, req.revisionId, ctx);
      requireEdit(space, role);
      const changes = await storeFiles(req.changes, base.tree);
      const trees = new Map<string, Tree>();
      for (const id of revertTargets(changes)) trees.set(id, id === '' ? base.tree : (await revisionOf(deps, space, id, 'changes.revision')).tree);
      const applied = applyChanges(base.tree, changes, { now: now(), newId, revisions: trees, matters: await storedMatters(deps, base.tree, changes) });
      const revision = await revisions.writeRevision(
        { spaceId: space.id, parents: [base.id], type: 'edits', tree: applied.tree, redirects: base.redirects, reusableContents: base.reusableContents },
        applied.documents,
      );
      return { revision: revisionHeader(revision), changes: applied.changes, insertedFiles: applied.insertedFiles.map((f) => presentFile(f, true)) };
    },

    async createRevision(req, ctx) {
      callerOf(ctx);
      const type = checkOneOf('type', req.type || 'edits', REVISION_TYPES);
      const { space, role } = await visibleSpace(deps, req.spaceId, ctx);
      requireEdit(space, role);
      return revisionHeader(await writeContent(space, { ...req, type }));
    },

    async mergeRevisions(req, ctx) {
      callerOf(ctx);
      const type = checkOneOf('type', req.type || 'merge', ['merge', 'update'] as const);
      const { space, role } = await visibleSpace(deps, req.spaceId, ctx);
      requireEdit(space, role);
      const merged = await merge3(space, { base: req.baseRevisionId, ours: req.oursRevisionId, theirs: req.theirsRevisionId }, [
        'baseRevisionId',
        'oursRevisionId',
        'theirsRevisionId',
      ]);
      if (!merged.tree) return { conflicts: merged.conflicts };
      const row = await revisions.writeRevision(
        { spaceId: space.id, parents: merged.parents, type, tree: merged.tree, redirects: merged.redirects, reusableContents: merged.reusableContents },
        merged.documents,
      );
      return { revision: presentRevision(row, { metadata: true }), conflicts: [] };
    },

    async mergeChangeRequestIntoSpace(req, ctx) {
      callerOf(ctx);
      // Review records the change request as merged from this revision: no one else may name one.
      if (ctx.chain.at(-1) !== 'review') throw new PermissionDeniedError('Only the review service merges change requests');
      if (!req.changeRequestId) throw new InvalidArgumentError('changeRequestId: the change request being merged is needed');
      // Review reads nothing of the space before this call: the caller's right to merge is checked here.
      const { space, role } = await visibleSpace(deps, req.spaceId, ctx);
      if (!allow(role, 'merge', 'space', space)) throw new PermissionDeniedError(`You need the merge permission on space "${space.id}" to merge a change request`);
      // Merged already (a retry after the answer was lost): the same answer, nothing written again.
      const done = await revisions.changeRequestMerge(space.id, req.changeRequestId);
      if (done) return { revision: revisionHeader((await revisions.getRevision(done))!), conflicts: [] };
      const expected = req.expectedRevisionId || space.revisionId;
      if (space.revisionId !== expected) throw spaceMovedOn(space.id);
      const merged = await merge3(space, { base: req.baseRevisionId, ours: expected, theirs: req.headRevisionId }, ['baseRevisionId', 'expectedRevisionId', 'headRevisionId']);
      if (!merged.tree) return { conflicts: merged.conflicts };
      const row = await revisions.writeRevision(
        {
          spaceId: space.id,
          parents: merged.parents,
          type: 'merge',
          tree: merged.tree,
          redirects: merged.redirects,
          reusableContents: merged.reusableContents,
          changeRequestId: req.changeRequestId,
        },
        merged.documents,
        { expected },
      );
      // Review records the merge from this event when its own write after this call did not happen.
      await deps.events.emit(ctx, {
        entity: 'change_request',
        verb: 'merged',
        organizationId: space.organizationId,
        target: { type: 'change_request', id: req.changeRequestId },
        details: { spaceId: space.id, revisionId: row.id },
      });
      return { revision: revisionHeader(row), conflicts: [] };
    },

    // Review's, as itself (settling a merge it did not see end, with or without a caller): a revision id only.
    async getChangeRequestMerge(req, ctx) {
      if (!callsAsItself(ctx, 'review')) throw new PermissionDeniedError('Only the review service asks which revision a change request was merged as');
      return { revisionId: (await revisions.changeRequestMerge(req.spaceId, req.changeRequestId)) ?? '' };
    },

    async setSpaceRevision(req, ctx) {
      callerOf(ctx);
      const { space, role } = await visibleSpace(deps, req.spaceId, ctx);
      requireEdit(space, role);
      requireLive(space);
      if (!req.revisionId) throw new InvalidArgumentError('revisionId: the revision to make active is needed');
      const revision = await revisionOf(deps, space, req.revisionId);
      if (!req.expectedRevisionId) throw new InvalidArgumentError('expectedRevisionId: the revision the space is expected to be on is needed');
      await revisions.setSpaceRevision(space.id, revision, req.expectedRevisionId);
      return {};
    },
  };
}
