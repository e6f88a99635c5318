// ZIP archives given to import (Notion and Confluence exports, and .docx files, which are ZIPs):
// read with yauzl, bounded BEFORE anything is inflated. The central directory's declared sizes
// are checked first (entries, total uncompressed bytes, compression ratio), then each entry is
// inflated with yauzl's size validation, so an entry that inflates past what it declared (a
// lying bomb) fails mid-stream. Names are checked too: absolute paths, `..` and `.git` segments
// and backslashes are refused, never written anywhere or resolved against a directory.
import { InvalidArgumentError } from '@quire/service-kit';
import yauzl, { type Entry } from 'yauzl';

export interface ArchiveLimits {
  /** Entries in the archive, folders included. */
  maxEntries: number;
  /** Uncompressed bytes of all entries together. */
  maxTotalBytes: number;
  /** Uncompressed size over compressed size, for entries above RATIO_FLOOR bytes. */
  maxRatio: number;
}

export interface ArchiveEntry {
  path: string;
  data: Buffer;
}

/** Small entries compress well for honest reasons (a page of spaces); only large ones count for the ratio. */
export const RATIO_FLOOR = 64 * 1024;

/** Why an entry's name or declared size is refused, or undefined; `total` is the declared bytes so far, this entry's included. */
export function entryProblem(entry: { fileName: string; compressedSize: number; uncompressedSize: number }, total: number, limits: ArchiveLimits): string | undefined {
  const name = entry.fileName;
  const segments = name.split('/');
  if (name.includes('\\') || name.startsWith('/') || /^[a-z]:/i.test(name) || segments.includes('..')) return `entry "${name}" has an unsafe path`;
  // A repository's internals (hooks, config) have no place in documents, and must never be written back as such.
  if (segments.some((s) => s.toLowerCase() === '.git')) return `entry "${name}" is inside a .git folder`;
  if (total > limits.maxTotalBytes) return `it inflates to more than ${limits.maxTotalBytes} bytes (the limit)`;
  if (entry.uncompressedSize > RATIO_FLOOR && entry.uncompressedSize > limits.maxRatio * Math.max(entry.compressedSize, 1)) {
    return `entry "${name}" is compressed more than ${limits.maxRatio} to 1 (the limit)`;
  }
  return undefined;
}

/** What macOS adds to the archives it makes: no file of the export. */
const isMetadata = (name: string) => name.startsWith('__MACOSX/') || name === '.DS_Store' || name.endsWith('/.DS_Store');

const refused = (field: string, why: string) => new InvalidArgumentError(`${field}: the archive is refused: ${why}`);

/** Every file of the archive (folders and macOS metadata left out), in the archive's order. */
export async function readArchive(bytes: Buffer, limits: ArchiveLimits, field = 'url'): Promise<ArchiveEntry[]> {
  let zip: yauzl.ZipFile;
  try {
    // strictFileNames off: names are checked here, with a message naming the entry.
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false, decodeStrings: true });
  } catch (err) {
    throw new InvalidArgumentError(`${field}: not a readable ZIP archive (${(err as Error).message})`);
  }
  try {
    if (zip.entryCount > limits.maxEntries) throw refused(field, `it has ${zip.entryCount} entries, more than ${limits.maxEntries} (the limit)`);
    // First pass: the central directory only, nothing inflated.
    const entries: Entry[] = [];
    let total = 0;
    for (let entry = await next(zip, field); entry; entry = await next(zip, field)) {
      total += entry.uncompressedSize;
      const problem = entryProblem(entry, total, limits);
      if (problem) throw refused(field, problem);
      if (!entry.fileName.endsWith('/') && !isMetadata(entry.fileName)) entries.push(entry);
    }
    const out: ArchiveEntry[] = [];
    for (const entry of entries) out.push({ path: entry.fileName, data: await inflate(zip, entry, field) });
    return out;
  } finally {
    zip.close();
  }
}

function next(zip: yauzl.ZipFile, field: string): Promise<Entry | undefined> {
  return new Promise((resolve, reject) => {
    const done = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (e: Entry) => (done(), resolve(e));
    const onEnd = () => (done(), resolve(undefined));
    // yauzl refuses names such as `../x` or `/x` itself ("invalid relative path").
    const onError = (err: Error) => (done(), reject(refused(field, err.message)));
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

async function inflate(zip: yauzl.ZipFile, entry: Entry, field: string): Promise<Buffer> {
  try {
    const stream = await zip.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } catch (err) {
    // yauzl stops an entry that inflates past its declared size ("too many bytes in the stream").
    throw refused(field, `entry "${entry.fileName}" cannot be read (${(err as Error).message})`);
  }
}
