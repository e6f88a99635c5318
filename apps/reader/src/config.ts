import { Type } from '@sinclair/typebox';
import { httpAppConfigFields, loadConfig, port, serviceUrlFields, url } from '@quire/service-kit';
import { eventsPrefixField } from '@quire/service-kit/nats';
import { trustProxySetting } from '@quire/service-kit/trust-proxy';

export const ConfigSchema = Type.Object({
  ...httpAppConfigFields,
  /** The reader's port; `PORT` when unset (platforms that set one port per app). */
  READER_PORT: Type.Optional(port(8090)),
  PORT: port(8090),
  /** Where visitors reach the reader: sites answer below it at `/<organization>/<site>`; other hosts are custom hostnames. */
  QUIRE_READER_URL: url('http://127.0.0.1:8090'),
  /**
   * The gateway's public URL: members of an organization sign in there, and its session cookie
   * lets them read the organization's private sites where the reader answers on that origin; on
   * a custom hostname they pass through its `/auth/site-access` for a short-lived grant.
   */
  QUIRE_PUBLIC_URL: url('http://127.0.0.1:8080'),
  /**
   * Proxies whose X-Forwarded-For, -Proto and -Host are believed (service-kit's trust-proxy.ts);
   * unset, nobody's: page views count the connection's address, cookies are Secure on TLS only.
   */
  TRUST_PROXY: trustProxySetting,
  ...serviceUrlFields('orgs', 'content', 'sites', 'insights'),
  /** The services' domain events: a site published or a change request merged is read ahead (read-ahead.ts). */
  NATS_URL: Type.String({ default: 'nats://127.0.0.1:4222' }),
  EVENTS_SUBJECT_PREFIX: eventsPrefixField,
  /** How long a public site's structure and its spaces' revisions are reused before they are asked again. */
  READER_FRESHNESS_MS: Type.Integer({ minimum: 0, default: 1000 }),
  /** Rendered pages kept in memory (each keyed by its immutable revision). */
  READER_CACHE_PAGES: Type.Integer({ minimum: 1, default: 5000 }),
  /** Page views waiting for insights; more are dropped rather than slowing pages. */
  READER_INSIGHTS_QUEUE: Type.Integer({ minimum: 1, default: 10_000 }),
});

export type ReaderConfig = ReturnType<typeof loadReaderConfig>;
export const loadReaderConfig = (env = process.env) => loadConfig(ConfigSchema, env);
export const listenPort = (config: ReaderConfig) => config.READER_PORT ?? config.PORT;
