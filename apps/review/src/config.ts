import { type Static, Type } from '@sinclair/typebox';
import { pdfConfigFields } from '@quire/render/pdf';
import { eventsPrefixField, STREAMS } from '@quire/service-kit/nats';
import { databaseConfigFields, grpcAddress, loadConfig, port, serviceConfigFields } from '@quire/service-kit';
import { ANSWER_ROOM, DEFAULT_EXPORT_LIMITS, type ExportLimits } from './domain/exports.ts';

export const ConfigSchema = Type.Object({
  ...serviceConfigFields,
  REVIEW_PORT: port(50053),
  ...databaseConfigFields('review'),
  /** The orgs service: users shown on change requests and comments, organization membership. */
  ORGS_URL: grpcAddress(50051),
  /** The content service: spaces with the caller's permissions, revisions, merges. */
  CONTENT_URL: grpcAddress(50052),
  /** Where the counters of spaces go as state events (content's copies read them), and content's merges come from. */
  NATS_URL: Type.String({ default: 'nats://127.0.0.1:4222' }),
  EVENTS_STREAM: Type.String({ pattern: '^[A-Za-z0-9_-]+$', default: STREAMS.events.name }),
  EVENTS_SUBJECT_PREFIX: eventsPrefixField,
  ...pdfConfigFields,
  /** Pages of a Markdown or HTML export, refused above before anything is rendered. */
  EXPORT_MAX_PAGES: Type.Integer({ minimum: 1, default: DEFAULT_EXPORT_LIMITS.maxPages }),
  /** Pages of a PDF export (each goes through Chromium within PDF_TIMEOUT_MS), refused above before printing. */
  EXPORT_MAX_PDF_PAGES: Type.Integer({ minimum: 1, default: DEFAULT_EXPORT_LIMITS.maxPdfPages }),
});

export const loadReviewConfig = (env = process.env) => loadConfig(ConfigSchema, env);

export const exportLimits = (config: Static<typeof ConfigSchema>): ExportLimits => ({ maxPages: config.EXPORT_MAX_PAGES, maxPdfPages: config.EXPORT_MAX_PDF_PAGES, maxFileBytes: ANSWER_ROOM });
