import { Type } from '@sinclair/typebox';
import { httpAppConfigFields, loadConfig, port, serviceUrlFields, url } from '@quire/service-kit';
import { eventsPrefixField } from '@quire/service-kit/nats';

// An HTTP app behind the gateway, as the reader is beside it: no gRPC port of its own.
export const ConfigSchema = Type.Object({
  ...httpAppConfigFields,
  /** Where browsers' WebSockets arrive (the gateway passes `/collab` here). */
  COLLAB_PORT: port(8070),
  /** The gateway's public URL: its session cookie (named after its scheme) authenticates browsers. */
  QUIRE_PUBLIC_URL: url('http://127.0.0.1:8080'),
  /** The web app's origins a WebSocket may come from, comma-separated; QUIRE_PUBLIC_URL's origin when unset. */
  COLLAB_ORIGINS: Type.Optional(Type.String({ minLength: 1 })),
  ...serviceUrlFields('orgs', 'content', 'review'),
  NATS_URL: Type.String({ default: 'nats://127.0.0.1:4222' }),
  /** The EVENTS stream's subjects: its member, permission and change request events re-check open editors. */
  EVENTS_SUBJECT_PREFIX: eventsPrefixField,
  /** A page is saved this long after the last edit… */
  COLLAB_SAVE_AFTER_MS: Type.Integer({ minimum: 0, default: 2000 }),
  /** …and at least this often while edits keep coming. */
  COLLAB_SAVE_AT_LEAST_MS: Type.Integer({ minimum: 0, default: 10_000 }),
});

export type CollabConfig = ReturnType<typeof loadCollabConfig>;
export const loadCollabConfig = (env = process.env) => loadConfig(ConfigSchema, env);

/** The origins a WebSocket is accepted from. */
export const allowedOrigins = (config: CollabConfig): Set<string> => new Set((config.COLLAB_ORIGINS ?? config.QUIRE_PUBLIC_URL).split(',').map((o) => new URL(o.trim()).origin));
