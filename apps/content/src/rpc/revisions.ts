import type {
  Change as ChangeMessage,
  CreateRevisionRequest,
  File as FileMessage,
  GitCommit,
  NewFile,
  Page as PageMessage,
  Revision as RevisionMessage,
  SpaceContentServiceServer,
} from '@quire/proto/space-content';
import { checkOneOf, FailedPreconditionError, InvalidArgumentError, NotFoundError, pageArgs, pageOf, PermissionDeniedError, Role, roleAtLeast, type CallContext, type Handlers } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import { fetchPublic } from '@quire/service-kit/outbound';
import { imageSize } from 'image-size';
import { applyChanges, revertTargets, treeFromContent, type Change, type StoredFile } from '../domain/changes.ts';
import { documentOf, markdownOfDocument } from '../domain/document.ts';
import { documentsToMerge, mergeTrees } from '../domain/merge.ts';
import { emptyTree, findPage, findPageByPath, flatten, type Tree, type TreeFile, type TreePage } from '../domain/tree.ts';
import type { BlobStore } from '../blobs/index.ts';
import type { SpaceRow } from '../store/index.ts';
import type { GitCommitInfo, RevisionRow } from '../store/revisions.ts';
import { callerOf, visibleSpace, type Deps } from './deps.ts';

export interface RevisionDeps extends Deps {
  blobs: BlobStore;
}

type H = Pick<
  Handlers<SpaceContentServiceServer>,
  | 'getRevision'
  | 'getPage'
  | 'getDocument'
  | 'listFiles'
  | 'getFile'
  | 'readBlob'
  | 'putBlob'
  | 'applyChanges'
  | 'createRevision'
  | 'mergeRevisions'
  | 'setSpaceRevision'
>;

export const REVISION_TYPES = ['edits', 'merge', 'update', 'rollback', 'computed'] as const;
const PAGE_FORMATS = ['', 'markdown', 'document'] as const;
// The gRPC server takes messages up to 16 MiB; a file's bytes leave room for the rest.
export const MAX_BLOB_BYTES = 15 * 1024 * 1024;
const FILE_FETCH_TIMEOUT_MS = 15_000;

const revisionNotFound = (id: string, field = 'revision') => new NotFoundError(`${field}: revision "${id}" not found`);


/** Writes need `edit` on the space (change requests too, so a locked space still takes them). */
export function requireEdit(space: SpaceRow, role: Role) {
  if (!roleAtLeast(role, Role.ROLE_EDIT)) throw new PermissionDeniedError(`Only editors of space "${space.id}" can change its content`);
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

// Tree to proto.

interface Shown {
  metadata: boolean;
  markdown?: Map<string, string>;
}

export function presentPage(page: TreePage, path: string, shown: Shown): PageMessage {
  return {
    id: page.id,
    type: page.type,
    title: page.title,
    emoji: page.emoji ?? '',
    icon: page.icon ?? '',
    description: page.description ?? '',
    slug: page.slug,
    path,
    documentId: page.documentId ?? '',
    hidden: page.hidden ?? false,
    href: page.href ?? '',
    git: shown.metadata ? page.git : undefined,
    createdAt: new Date(page.createdAt),
    updatedAt: new Date(page.updatedAt),
    pages: page.pages.map((p) => presentPage(p, `${path}/${p.slug}`, shown)),
    markdown: shown.markdown && page.documentId ? (shown.markdown.get(page.documentId) ?? '') : undefined,
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
  };
}

/**
 * A revision without its content, as an edit answers it: the caller has the changes it sent, and
 * the whole tree of a large space costs more to encode and decode than the edit (GetRevision reads it).
 */
const revisionHeader = (r: RevisionRow): RevisionMessage => presentRevision({ ...r, tree: emptyTree() }, { metadata: true });

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
        if (!data) throw new InvalidArgumentError(`files[${i}].blob: no blob "${f.blob}"; store its bytes with PutBlob first`);
        return { size: data.byteLength, dimensions: dimensionsOf(data, f.contentType || 'application/octet-stream') };
      }),
    );
  }

  return async function writeContent(space: SpaceRow, req: Omit<CreateRevisionRequest, 'spaceId'>): Promise<RevisionRow> {
    if (req.setActive) requireLive(space);
    const parent = await revisionOf(deps, space, req.parentRevisionId, 'parentRevisionId');
    const described = await describeBlobs(req.files, parent.tree);
    const files = req.files.map((f, i) => ({ ...f, ...described[i]! }));
    const { tree, documents } = treeFromContent(req.pages, files, parent.tree, { now: now(), newId });
    return deps.store.revisions.writeRevision({ spaceId: space.id, parents: [parent.id], type: req.type, tree, git: gitOf(req.git) }, documents, req.setActive ? { expected: parent.id } : undefined);
  };
}

export function revisionHandlers(deps: RevisionDeps): H {
  const { store, blobs } = deps;
  const revisions = store.revisions;
  const now = deps.now ?? (() => new Date());
  const writeContent = contentWriter(deps);

  /** A new file's bytes: given, or fetched from its public URL (through the outbound filter). */
async function fileSource(f: NewFile, at: string): Promise<{ data: Uint8Array; contentType: string }> {
  if (f.data) {
    if (f.data.byteLength > MAX_BLOB_BYTES) throw new InvalidArgumentError(`${at}.data: must be at most ${MAX_BLOB_BYTES} bytes`);
    return { data: f.data, contentType: f.contentType || 'application/octet-stream' };
  }
  if (!f.url) throw new InvalidArgumentError(`${at}: one of data or url is needed`);
  const got = await fetchPublic(f.url, { maxBytes: MAX_BLOB_BYTES, timeoutMs: FILE_FETCH_TIMEOUT_MS }, { field: `${at}.url` });
  if (got.status < 200 || got.status >= 300) throw new InvalidArgumentError(`${at}.url: ${f.url} answered ${got.status}`);
  return { data: got.body, contentType: f.contentType || got.contentType.split(';')[0]!.trim() || 'application/octet-stream' };
}

/** A page change with its body given as a JSONDocument made a markdown one, as the domain takes it. */
function withMarkdown<C extends { markdown?: string; documentJson?: string }>(at: string, c: C, base: Tree): C {
  if (c.documentJson === undefined) return c;
  if (c.markdown !== undefined) throw new InvalidArgumentError(`${at}: give one of markdown and document`);
  return { ...c, markdown: markdownOfDocument(at, c.documentJson, base), documentJson: undefined };
}

/** The bytes of an insert_files change into the blob store, as the domain takes them. */
  async function storeFiles(changes: ChangeMessage[], base: Tree): Promise<Change[]> {
    return Promise.all(
      changes.map(async (c, i): Promise<Change> => {
        if (c.insertPage) return { insertPage: withMarkdown(`changes[${i}]`, c.insertPage, base) };
        if (c.updatePage) return { updatePage: withMarkdown(`changes[${i}]`, c.updatePage, base) };
        if (c.deletePage) return { deletePage: c.deletePage };
        if (c.revertPage) return { revertPage: c.revertPage };
        if (!c.insertFiles) throw new InvalidArgumentError(`changes[${i}]: one of insertPage, updatePage, deletePage, revertPage or insertFiles is needed`);
        const files = await Promise.all(
          c.insertFiles.files.map(async (f, j): Promise<StoredFile> => {
            const at = `changes[${i}].files[${j}]`;
            const { data, contentType } = await fileSource(f, at);
            const { blob, size } = await blobs.put(data);
            return { ref: f.ref, name: f.name, contentType, blob, size, dimensions: dimensionsOf(data, contentType) };
          }),
        );
        return { insertFiles: { files } };
      }),
    );
  }

  return {
    async getRevision(req, ctx) {
      const { revision } = await readRevision(deps, req.spaceId, req.revisionId, ctx);
      const markdown = req.withMarkdown ? await revisions.getDocuments(flatten(revision.tree.pages).flatMap((l) => l.page.documentId ?? [])) : undefined;
      return presentRevision(revision, { metadata: req.metadata, markdown });
    },

    async getPage(req, ctx) {
      const format = checkOneOf('format', req.format, PAGE_FORMATS);
      if (req.pageId === undefined && req.path === undefined) throw new InvalidArgumentError('page: a pageId or a path is needed');
      const { revision } = await readRevision(deps, req.spaceId, req.revisionId, ctx);
      const found = req.pageId !== undefined ? findPage(revision.tree.pages, req.pageId) : findPageByPath(revision.tree.pages, req.path!);
      if (!found) throw new NotFoundError(req.pageId !== undefined ? `Page "${req.pageId}" not found` : `No page at path "${req.path}"`);
      const page = presentPage(found.page, found.path, { metadata: req.metadata });
      const id = found.page.documentId;
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
      if (data.byteLength > MAX_BLOB_BYTES) throw new InvalidArgumentError(`data: must be at most ${MAX_BLOB_BYTES} bytes`);
      return blobs.put(data);
    },

    async applyChanges(req, ctx) {
      callerOf(ctx);
      const { space, role, revision: base } = await readRevision(deps, req.spaceId, req.revisionId, ctx);
      requireEdit(space, role);
      const changes = await storeFiles(req.changes, base.tree);
      const trees = new Map<string, Tree>();
      for (const id of revertTargets(changes)) trees.set(id, id === '' ? base.tree : (await revisionOf(deps, space, id, 'changes.revision')).tree);
      const applied = applyChanges(base.tree, changes, { now: now(), newId, revisions: trees });
      const revision = await revisions.writeRevision({ spaceId: space.id, parents: [base.id], type: 'edits', tree: applied.tree }, applied.documents);
      return { revision: revisionHeader(revision), changes: applied.changes, insertedFiles: applied.insertedFiles.map((f) => presentFile(f, true)) };
    },

    async createRevision(req, ctx) {
      callerOf(ctx);
      const type = checkOneOf('type', req.type || 'edits', REVISION_TYPES);
      const { space, role } = await visibleSpace(deps, req.spaceId, ctx);
      requireEdit(space, role);
      return presentRevision(await writeContent(space, { ...req, type }), { metadata: true });
    },

    async mergeRevisions(req, ctx) {
      callerOf(ctx);
      const type = checkOneOf('type', req.type || 'merge', ['merge', 'update'] as const);
      const { space, role } = await visibleSpace(deps, req.spaceId, ctx);
      requireEdit(space, role);
      const [base, ours, theirs] = await Promise.all([
        revisionOf(deps, space, req.baseRevisionId, 'baseRevisionId'),
        revisionOf(deps, space, req.oursRevisionId, 'oursRevisionId'),
        revisionOf(deps, space, req.theirsRevisionId, 'theirsRevisionId'),
      ]);
      const markdown = await revisions.getDocuments(documentsToMerge(base.tree, ours.tree, theirs.tree));
      const merged = mergeTrees({ base: base.tree, ours: ours.tree, theirs: theirs.tree, markdown });
      if (!merged.tree) return { conflicts: merged.conflicts };
      const row = await revisions.writeRevision({ spaceId: space.id, parents: [ours.id, theirs.id], type, tree: merged.tree }, merged.documents);
      return { revision: presentRevision(row, { metadata: true }), conflicts: [] };
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
