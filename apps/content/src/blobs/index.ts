// File bytes, stored once by their SHA-256: a local directory by default, an S3-compatible
// bucket when configured. Content addressing makes writes idempotent and safe to repeat, so a
// blob written by a revision that then failed to commit is merely unused, never wrong.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

export interface BlobStore {
  /** Stores the bytes (once) and answers their hash. */
  put(data: Uint8Array): Promise<{ blob: string; size: number }>;
  /** The bytes, or undefined when no blob has that hash. */
  get(blob: string): Promise<Buffer | undefined>;
}

export const blobHash = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
export const BLOB_HASH = /^[0-9a-f]{64}$/;

/** Blobs as files `<dir>/<first 2 hex>/<hash>`, written to a temporary name then renamed. */
export function localBlobStore(dir: string): BlobStore {
  const root = resolve(dir);
  const pathOf = (blob: string) => join(root, blob.slice(0, 2), blob);
  return {
    async put(data) {
      const blob = blobHash(data);
      const path = pathOf(blob);
      const exists = await stat(path).then(
        () => true,
        () => false,
      );
      if (!exists) {
        await mkdir(dirname(path), { recursive: true });
        const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
        await writeFile(tmp, data);
        await rename(tmp, path);
      }
      return { blob, size: data.byteLength };
    },
    async get(blob) {
      if (!BLOB_HASH.test(blob)) return undefined;
      try {
        return await readFile(pathOf(blob));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
  };
}

export interface S3Settings {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  prefix: string;
}

const missing = (err: unknown) =>
  ['NoSuchKey', 'NotFound'].includes((err as { name?: string }).name ?? '') || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/** Blobs as objects `<prefix><hash>` of an S3-compatible bucket (AWS, MinIO, R2...). */
export function s3BlobStore(s: S3Settings): BlobStore {
  const client = new S3Client({
    region: s.region,
    endpoint: s.endpoint,
    forcePathStyle: s.forcePathStyle,
    ...(s.accessKeyId && s.secretAccessKey ? { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } } : {}),
  });
  const key = (blob: string) => `${s.prefix}${blob}`;
  return {
    async put(data) {
      const blob = blobHash(data);
      const exists = await client.send(new HeadObjectCommand({ Bucket: s.bucket, Key: key(blob) })).then(
        () => true,
        (err) => {
          if (missing(err)) return false;
          throw err;
        },
      );
      if (!exists) await client.send(new PutObjectCommand({ Bucket: s.bucket, Key: key(blob), Body: data }));
      return { blob, size: data.byteLength };
    },
    async get(blob) {
      if (!BLOB_HASH.test(blob)) return undefined;
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: s.bucket, Key: key(blob) }));
        return Buffer.from(await out.Body!.transformToByteArray());
      } catch (err) {
        if (missing(err)) return undefined;
        throw err;
      }
    },
  };
}
