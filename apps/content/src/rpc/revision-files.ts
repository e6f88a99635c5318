import type { Change as ChangeMessage, NewFile, SpaceContentServiceServer } from '@quire/proto/space-content';
import { InvalidArgumentError, MAX_BLOB_BYTES, MAX_BLOBS_PER_CALL, NotFoundError, callerOf, type Handlers } from '@quire/service-kit';
import { fetchPublic } from '@quire/service-kit/outbound';
import type { JSONDocument } from '@quire/document';
import { imageSize } from 'image-size';
import pLimit from 'p-limit';
import type { Change, StoredFile } from '../domain/changes.ts';
import { storedDocument } from '../domain/document.ts';
import type { Tree } from '../domain/tree.ts';
import type { BlobStore } from '../blobs/index.ts';
import type { RevisionDeps } from './revision-access.ts';

const FILE_FETCH_TIMEOUT_MS = 15_000;
/** Files fetched by URL at once by this process, whatever the number of calls asking. */
export const FILE_FETCHES_IN_FLIGHT = 4;
/** Files one PutBlobs call writes to the blob store at once (an object store takes each as a request). */
const BLOB_WRITES_PER_CALL = 8;
/** Bytes one call may fetch by URL in all (its files' sum; each file is also at most MAX_BLOB_BYTES). */
export const MAX_FETCHED_BYTES_PER_CALL = 50 * 1024 * 1024;

const dimensionsOf = (data: Uint8Array, contentType: string) => {
  if (!contentType.startsWith('image/')) return undefined;
  try {
    const { width, height } = imageSize(data);
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
};

/** Size and dimensions of files given by blob hash: from the previous tree when it has the blob, else read. */
export async function describeBlobs(blobs: BlobStore, files: { blob: string; contentType: string }[], previous: Tree) {
  const known = new Map(previous.files.map((f) => [f.blob, f]));
  return Promise.all(
    files.map(async (f, i) => {
      const k = known.get(f.blob);
      if (k) return { size: k.size, dimensions: k.dimensions };
      const data = await blobs.get(f.blob);
      if (!data) throw new InvalidArgumentError(`files[${i}].blob: no blob "${f.blob}"; store its bytes with PutBlobs first`);
      return { size: data.byteLength, dimensions: dimensionsOf(data, f.contentType || 'application/octet-stream') };
    }),
  );
}

/** A page change with its body given as a JSONDocument, that document as content stores it. */
function withDocument<C extends { markdown?: string; documentJson?: string }>(at: string, c: C, base: Tree): C & { document?: JSONDocument } {
  if (c.documentJson === undefined) return c;
  if (c.markdown !== undefined) throw new InvalidArgumentError(`${at}: give one of markdown and document`);
  return { ...c, document: storedDocument(at, c.documentJson, base), documentJson: undefined };
}

/** The files' side of a space's content: bytes given or fetched by URL, into the blob store. */
export function fileStore({ blobs }: RevisionDeps) {
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

  return { putBlobs, storeFiles };
}

/** The blob store's calls. */
export function blobHandlers(deps: RevisionDeps): Pick<Handlers<SpaceContentServiceServer>, 'readBlob' | 'putBlob' | 'putBlobs'> {
  const { blobs } = deps;
  const { putBlobs } = fileStore(deps);
  return {
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
  };
}
