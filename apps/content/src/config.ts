import { type Static, Type } from '@sinclair/typebox';
import { localBlobStore, s3BlobStore, type BlobStore } from './blobs/index.ts';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from './rpc/import.ts';
import { databaseConfigFields, loadConfig, membershipFields, serviceConfigFields, servicePortField, serviceUrlFields, url } from '@quire/service-kit';
import { eventsPrefixField, STREAMS } from '@quire/service-kit/nats';

export const ConfigSchema = Type.Object({
  ...serviceConfigFields,
  ...servicePortField('content'),
  ...databaseConfigFields('content'),
  /** The orgs service, asked for the caller's role and teams in an organization. */
  ...membershipFields,
  /** The owners of what a Space shows besides content's own fields, asked when a copy is missing. */
  ...serviceUrlFields('review', 'git-sync'),
  /** Where permission changes go as domain events (the audit log reads them), and where review's and git-sync's state events feed the copies. */
  NATS_URL: Type.String({ default: 'nats://127.0.0.1:4222' }),
  EVENTS_STREAM: Type.String({ pattern: '^[A-Za-z0-9_-]+$', default: STREAMS.events.name }),
  EVENTS_SUBJECT_PREFIX: eventsPrefixField,
  /** Where file bytes go when no S3 bucket is set: a directory, relative to the working directory. */
  CONTENT_BLOB_DIR: Type.String({ default: '.quire/blobs' }),
  /** An S3-compatible bucket for file bytes instead of the directory (AWS, MinIO, R2...). */
  S3_BUCKET: Type.Optional(Type.String()),
  S3_ENDPOINT: Type.Optional(Type.String()),
  S3_REGION: Type.String({ default: 'us-east-1' }),
  S3_ACCESS_KEY_ID: Type.Optional(Type.String()),
  S3_SECRET_ACCESS_KEY: Type.Optional(Type.String()),
  /** MinIO and most self-hosted stores want path-style URLs. */
  S3_FORCE_PATH_STYLE: Type.Boolean({ default: true }),
  S3_PREFIX: Type.String({ default: 'blobs/' }),
  /** The web app's address: links to it in content are `in-app` rather than external. */
  QUIRE_APP_URL: Type.Optional(url()),
  /** Website import bounds: pages fetched, bytes per page, and time for the whole import (file imports too). */
  CONTENT_IMPORT_MAX_PAGES: Type.Integer({ minimum: 1, default: DEFAULT_IMPORT_LIMITS.maxPages }),
  CONTENT_IMPORT_MAX_PAGE_BYTES: Type.Integer({ minimum: 1024, default: DEFAULT_IMPORT_LIMITS.maxPageBytes }),
  CONTENT_IMPORT_TIMEOUT_MS: Type.Integer({ minimum: 100, default: DEFAULT_IMPORT_LIMITS.timeoutMs }),
  /** File import bounds: the fetched file's bytes; for ZIPs (exports, .docx) entries, uncompressed bytes and compression ratio, checked before inflating. */
  CONTENT_IMPORT_MAX_FILE_BYTES: Type.Integer({ minimum: 1024, default: DEFAULT_IMPORT_LIMITS.maxDownloadBytes }),
  CONTENT_IMPORT_MAX_ENTRIES: Type.Integer({ minimum: 1, default: DEFAULT_IMPORT_LIMITS.maxEntries }),
  CONTENT_IMPORT_MAX_UNZIPPED_BYTES: Type.Integer({ minimum: 1024, default: DEFAULT_IMPORT_LIMITS.maxTotalBytes }),
  CONTENT_IMPORT_MAX_RATIO: Type.Integer({ minimum: 2, default: DEFAULT_IMPORT_LIMITS.maxRatio }),
});

/** The import bounds the configuration sets. */
export const importLimitsOf = (c: ContentConfig): ImportLimits => ({
  ...DEFAULT_IMPORT_LIMITS,
  maxPages: c.CONTENT_IMPORT_MAX_PAGES,
  maxPageBytes: c.CONTENT_IMPORT_MAX_PAGE_BYTES,
  timeoutMs: c.CONTENT_IMPORT_TIMEOUT_MS,
  maxDownloadBytes: c.CONTENT_IMPORT_MAX_FILE_BYTES,
  maxEntries: c.CONTENT_IMPORT_MAX_ENTRIES,
  maxTotalBytes: c.CONTENT_IMPORT_MAX_UNZIPPED_BYTES,
  maxRatio: c.CONTENT_IMPORT_MAX_RATIO,
});

export type ContentConfig = Static<typeof ConfigSchema>;

export const loadContentConfig = (env = process.env) => loadConfig(ConfigSchema, env);

/** The blob store the configuration names: the bucket when `S3_BUCKET` is set, the directory otherwise. */
export function blobStoreOf(c: ContentConfig): BlobStore {
  if (!c.S3_BUCKET) return localBlobStore(c.CONTENT_BLOB_DIR);
  return s3BlobStore({
    bucket: c.S3_BUCKET,
    endpoint: c.S3_ENDPOINT,
    region: c.S3_REGION,
    accessKeyId: c.S3_ACCESS_KEY_ID,
    secretAccessKey: c.S3_SECRET_ACCESS_KEY,
    forcePathStyle: c.S3_FORCE_PATH_STYLE,
    prefix: c.S3_PREFIX,
  });
}
