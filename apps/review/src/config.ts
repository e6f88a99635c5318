import { type Static, Type } from '@sinclair/typebox';
import { pdfConfigFields } from '@quire/render/pdf';
import { eventsPrefixField, STREAMS } from '@quire/service-kit/nats';
import { databaseConfigFields, loadConfig, serviceConfigFields, servicePortField, serviceUrlFields } from '@quire/service-kit';
import { ANSWER_ROOM, DEFAULT_EXPORT_LIMITS, type ExportLimits } from './domain/exports.ts';

export const ConfigSchema = Type.Object({
  ...serviceConfigFields,
  ...servicePortField('review'),
  ...databaseConfigFields('review'),
  /** The orgs service: users shown on change requests and comments, organization membership. */
  ...serviceUrlFields('orgs'),
  /** The content service: spaces with the caller's permissions, revisions, merges. */
  ...serviceUrlFields('content'),
  /** Where the counters of spaces go as state events (content's copies read them), and content's merges come from. */
  NATS_URL: Type.String({ default: 'nats://127.0.0.1:4222' }),
  EVENTS_STREAM: Type.String({ pattern: '^[A-Za-z0-9_-]+$', default: STREAMS.events.name }),
  EVENTS_SUBJECT_PREFIX: eventsPrefixField,
  ...pdfConfigFields,
  /** Pages of a Markdown or HTML export, refused above before anything is rendered. */
  EXPORT_MAX_PAGES: Type.Integer({ minimum: 1, default: DEFAULT_EXPORT_LIMITS.maxPages }),
  /** Pages of a PDF export (each goes through Chromium within PDF_TIMEOUT_MS), refused above before printing. */
  EXPORT_MAX_PDF_PAGES: Type.Integer({ minimum: 1, default: DEFAULT_EXPORT_LIMITS.maxPdfPages }),
  /** The subject of export jobs on the JOBS stream, and the durable consumer the workers share (tests use their own). */
  EXPORT_SUBJECT: Type.String({ pattern: '^jobs\\.[A-Za-z0-9_.-]+$', default: 'jobs.export' }),
  EXPORT_CONSUMER: Type.String({ pattern: '^[A-Za-z0-9_-]+$', default: 'review-export' }),
  /** Export jobs one process runs at once (PDFs print PDF_CONCURRENCY at a time); 0 runs none (an API-only replica). */
  EXPORT_WORKERS: Type.Integer({ minimum: 0, maximum: 16, default: 2 }),
  /** Redelivery after a worker stops answering; a running job extends it while it works. */
  EXPORT_ACK_WAIT_MS: Type.Integer({ minimum: 100, default: 30_000 }),
  EXPORT_MAX_DELIVER: Type.Integer({ minimum: 1, maximum: 100, default: 3 }),
  /** A PDF export job's print time limit: longer than PDF_TIMEOUT_MS, which bounds prints a request waits for. */
  EXPORT_PDF_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 10 * 60_000 }),
  /** Drops the durable consumer after this long with no worker (tests' own consumers); kept forever when unset. */
  EXPORT_CONSUMER_INACTIVE_MS: Type.Optional(Type.Integer({ minimum: 1000 })),
});

export const loadReviewConfig = (env = process.env) => loadConfig(ConfigSchema, env);

export const exportQueue = (config: Static<typeof ConfigSchema>) => ({
  subject: config.EXPORT_SUBJECT,
  consumer: config.EXPORT_CONSUMER,
  ackWaitMs: config.EXPORT_ACK_WAIT_MS,
  maxDeliver: config.EXPORT_MAX_DELIVER,
  inactiveMs: config.EXPORT_CONSUMER_INACTIVE_MS,
});

export const exportLimits = (config: Static<typeof ConfigSchema>): ExportLimits => ({
  maxPages: config.EXPORT_MAX_PAGES,
  maxPdfPages: config.EXPORT_MAX_PDF_PAGES,
  maxFileBytes: ANSWER_ROOM,
});
export type ReviewConfig = Static<typeof ConfigSchema>;
