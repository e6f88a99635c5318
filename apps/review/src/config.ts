import { Type } from '@sinclair/typebox';
import { pdfConfigFields } from '@quire/render/pdf';
import { databaseConfigFields, grpcAddress, loadConfig, port, serviceConfigFields } from '@quire/service-kit';

export const ConfigSchema = Type.Object({
  ...serviceConfigFields,
  REVIEW_PORT: port(50053),
  ...databaseConfigFields('review'),
  /** The orgs service: users shown on change requests and comments, organization membership. */
  ORGS_URL: grpcAddress(50051),
  /** The content service: spaces with the caller's permissions, revisions, merges. */
  CONTENT_URL: grpcAddress(50052),
  ...pdfConfigFields,
});

export const loadReviewConfig = (env = process.env) => loadConfig(ConfigSchema, env);
