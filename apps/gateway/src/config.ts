import { Type } from '@sinclair/typebox';
import { httpAppConfigFields, loadConfig, port, secret, serviceUrlFields, url } from '@quire/service-kit';
import { eventsPrefixField } from '@quire/service-kit/nats';
import { trustProxySetting } from '@quire/service-kit/trust-proxy';

export const ConfigSchema = Type.Object({
  ...httpAppConfigFields,
  PORT: port(8080),
  /** Base address clients reach the API at, for `urls.location`. */
  QUIRE_PUBLIC_URL: url('http://127.0.0.1:8080'),
  /** Base address of the web app, for `urls.app`; the public URL when unset. */
  QUIRE_APP_URL: Type.Optional(url()),
  /** The web app's build (apps/web/dist), served at the root of this origin; unset, no app is served. */
  QUIRE_WEB_DIST: Type.Optional(Type.String({ minLength: 1 })),
  /** Base address of the reader (published sites), for `urls.published`. */
  QUIRE_READER_URL: url('http://127.0.0.1:8090'),
  /**
   * Where the reader listens when it answers on the gateway's origin (`pnpm dev`): QUIRE_READER_URL
   * is then this gateway's origin with a path, and the requests below that path (and the reader's
   * assets) are passed to it, so members' session cookie reaches the reader too.
   */
  READER_UPSTREAM_URL: Type.Optional(url()),
  /**
   * The collaboration server (apps/collab): WebSockets to `/collab` on this origin are passed to
   * it with the session cookie and the browser's Origin, so pages are edited together on the web
   * app's own origin. Unset, the web app edits alone.
   */
  COLLAB_UPSTREAM_URL: Type.Optional(url()),
  ...serviceUrlFields('orgs', 'content', 'review', 'integrations', 'insights', 'sites', 'git-sync'),
  /** Requests per minute of one valid token. */
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 1200 }),
  /** Requests per minute of one address without a token, its failed authentications included. */
  RATE_LIMIT_ADDRESS_PER_MINUTE: Type.Integer({ minimum: 1, default: 300 }),
  /** NATS KV bucket of the limits' counters, shared by every gateway replica. */
  RATE_LIMIT_BUCKET: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', default: 'quire_rate_limits' }),
  /** Proxies whose X-Forwarded-* headers are believed (service-kit's trust-proxy.ts); unset, limits count per connection's address. */
  TRUST_PROXY: trustProxySetting,
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 1024 * 1024 }),
  NATS_URL: Type.String({ default: 'nats://127.0.0.1:4222' }),
  /** Where the gateway's own events go (MCP tool calls, for the audit log): the services' EVENTS stream. */
  EVENTS_SUBJECT_PREFIX: eventsPrefixField,
  /** Failed sign-ins allowed per account and per address in SIGN_IN_WINDOW_MS before sign-in answers 429 until the window ends. */
  SIGN_IN_FAILURES_PER_ACCOUNT: Type.Integer({ minimum: 1, default: 10 }),
  SIGN_IN_FAILURES_PER_ADDRESS: Type.Integer({ minimum: 1, default: 50 }),
  SIGN_IN_WINDOW_MS: Type.Integer({ minimum: 1000, maximum: 3_600_000, default: 15 * 60_000 }),
  /** How long a resolved token or session is trusted before orgs is asked again (revocations end it at once). */
  AUTH_CACHE_TTL_MS: Type.Integer({ minimum: 0, default: 30_000 }),
  /** Key of signed download links (files, PDFs); drawn at start when unset, so links last until a restart. */
  QUIRE_LINK_SECRET: secret(Type.String({ minLength: 16 })),
  /** Link secrets in use before the current one, comma-separated: links they signed still verify until they expire. */
  QUIRE_LINK_SECRET_PREVIOUS: Type.Optional(Type.String({ pattern: '^[^,]{16,}(,[^,]{16,})*$', description: 'comma-separated secrets of 16+ characters' })),
});

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
export const loadGatewayConfig = (env = process.env) => loadConfig(ConfigSchema, env);
