import { Type } from '@sinclair/typebox';
import { pdfConfigFields } from '@quire/render/pdf';
import { eventsPrefixField } from '@quire/service-kit/nats';
import { databaseConfigFields, grpcAddress, loadConfig, port, serviceConfigFields } from '@quire/service-kit';

export const ConfigSchema = Type.Object({
  ...serviceConfigFields,
  REVIEW_PORT: port(50053),
  ...databaseConfigFields('review'),
  /** The orgs service: users shown on change requests and comments, organization membership. */
  ORGS_URL: grpcAddress(50051),
  /** The content service: spaces with the caller's permissions, revisions, merges. */
  CONTENT_URL: grpcAddress(50052),
  /** Where the counters of spaces go as state events (content's copies read them). */
  NATS_URL: Type.String({ default: 'nats://127.0.0.1:4222' }),
  EVENTS_SUBJECT_PREFIX: eventsPrefixField,
  ...pdfConfigFields,
});

export const loadReviewConfig = (env = process.env) => loadConfig(ConfigSchema, env);
