import { HOUR, SESSIONS, VISITORS } from '../domain/catalogue.ts';
import { FOUND, ROW_COLUMNS } from '../domain/events.ts';
import type { CompiledQuery } from '../domain/query.ts';
import { MAX_SEGMENTS } from '../domain/segments.ts';
import { ChdbTransport, ServerTransport, type Transport } from './transport.ts';

export { ChdbTransport, ServerTransport, type Transport };

/**
 * One MergeTree table. Sorted by (organization, site, time): every query is scoped to one site
 * and a time range, so it reads a narrow slice. No partitions: an insert of one batch is then one
 * part (up to a million rows: the consumer's fetch stays below), all or nothing, which the
 * consumer's dedupe relies on. Dedupe tokens of the last 10,000
 * inserts are remembered (non_replicated_deduplication_window).
 * Two aggregate projections answer the common dashboards without reading events: counts and
 * unique visitors and sessions per hour and event type, and counts per hour, type and page.
 * ClickHouse picks them by itself when a query needs nothing else.
 */
function createTable(retentionDays: number): string {
  return `CREATE TABLE IF NOT EXISTS events (
    organization_id LowCardinality(String),
    site_id String,
    timestamp DateTime64(3, 'UTC'),
    batch_id String,
    event_type LowCardinality(String),
    visitor_id String,
    session_id String,
    ip String,
    user_agent String,
    language LowCardinality(String),
    referrer String,
    referrer_domain String,
    claims String,
    url String,
    site_section String,
    site_space String,
    site_share_key String,
    space String,
    revision String,
    page String,
    utm_source String,
    utm_medium String,
    utm_campaign String,
    utm_term String,
    utm_content String,
    device LowCardinality(String),
    browser LowCardinality(String),
    os LowCardinality(String),
    bot LowCardinality(String),
    geo_country LowCardinality(String),
    search_query String,
    search_result_space String,
    search_result_page String,
    feedback_rating LowCardinality(String),
    feedback_comment String,
    ask_rating Int8,
    ask_response_id String,
    link_target String,
    link_target_kind LowCardinality(String),
    link_target_domain String,
    link_position LowCardinality(String),
    api_operation_path String,
    api_operation_method LowCardinality(String),
    ad_domain String,
    ad_zone_id String,
    ad_placement LowCardinality(String),
    trademark_placement LowCardinality(String),
    origin LowCardinality(String) DEFAULT 'web',
    mcp_tool LowCardinality(String) DEFAULT '',
    found Int8 DEFAULT ${FOUND.unknown},
    INDEX batch_idx batch_id TYPE bloom_filter GRANULARITY 4,
    PROJECTION hourly (
      SELECT organization_id, site_id, ${HOUR}, event_type, count(), ${VISITORS}, ${SESSIONS}
      GROUP BY organization_id, site_id, ${HOUR}, event_type
    ),
    PROJECTION hourly_pages (
      SELECT organization_id, site_id, ${HOUR}, event_type, space, page, count()
      GROUP BY organization_id, site_id, ${HOUR}, event_type, space, page
    )
  ) ENGINE = MergeTree
  ORDER BY (organization_id, site_id, timestamp)
  ${ttl(retentionDays)}
  SETTINGS non_replicated_deduplication_window = 10000`;
}

// The retention is a validated integer from the configuration, not caller input.
const ttl = (days: number) => `TTL toDateTime(timestamp) + INTERVAL ${Math.trunc(days)} DAY`;

/** The columns of a message's rows, in order: its batch id, then the event's. */
export const INSERT_COLUMNS = ['batch_id', ...ROW_COLUMNS] as const;

export interface Segment {
  claims: string;
  events: number;
  visitors: number;
  sessions: number;
}

export interface Store {
  /** Rows (JSONCompactEachRow of INSERT_COLUMNS) of one or more batches, stored once per `token` however often retried. */
  insert(rows: Buffer, token: string): Promise<void>;
  /** Which of these batch ids have rows stored. */
  storedBatches(batchIds: string[]): Promise<Set<string>>;
  aggregate(query: CompiledQuery): Promise<Record<string, unknown>[]>;
  segments(organizationId: string, siteId: string): Promise<Segment[]>;
  count(organizationId: string, siteId: string): Promise<number>;
  /** ClickHouse answers a query. */
  healthy(): Promise<boolean>;
  transport: Transport;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** A ClickHouse server; the embedded engine over `chdbPath` when absent. */
  clickhouseUrl?: string;
  /** The server's database (an existing one); the embedded engine's data directory is its own. */
  clickhouseDatabase: string;
  chdbPath: string;
  retentionDays: number;
}

/** Opens the transport the configuration names, creates the table, and applies the retention. */
export async function openStore(options: StoreOptions): Promise<Store> {
  const transport = options.clickhouseUrl ? new ServerTransport(options.clickhouseUrl, options.clickhouseDatabase) : await ChdbTransport.open(options.chdbPath);
  await transport.exec(createTable(options.retentionDays));
  // A table made before events had an origin gets the column (its events were visitors').
  await transport.exec(`ALTER TABLE events ADD COLUMN IF NOT EXISTS origin LowCardinality(String) DEFAULT 'web'`);
  await transport.exec(`ALTER TABLE events ADD COLUMN IF NOT EXISTS mcp_tool LowCardinality(String) DEFAULT ''`);
  await transport.exec(`ALTER TABLE events ADD COLUMN IF NOT EXISTS found Int8 DEFAULT ${FOUND.unknown}`);
  // An existing table takes the retention configured now.
  await transport.exec(`ALTER TABLE events MODIFY ${ttl(options.retentionDays)}`);
  return storeOver(transport);
}

function storeOver(transport: Transport): Store {
  const scope = 'organization_id = {org:String} AND site_id = {site:String}';
  return {
    transport,
    // Rows of messages published before a column was added lack its value: it takes its default.
    insert: (rows, token) =>
      transport.insert('events', INSERT_COLUMNS, rows, { insert_deduplication_token: token, input_format_json_compact_allow_variable_number_of_columns: '1' }),
    async storedBatches(batchIds) {
      const rows = await transport.query<{ batch_id: string }>('SELECT DISTINCT batch_id FROM events WHERE batch_id IN {ids:Array(String)}', { ids: batchIds });
      return new Set(rows.map((r) => r.batch_id));
    },
    aggregate: (q) => transport.query<Record<string, unknown>>(q.sql, q.params),
    async segments(organizationId, siteId) {
      const rows = await transport.query<Segment>(
        `SELECT claims, count() AS events, ${VISITORS} AS visitors, ${SESSIONS} AS sessions
         FROM events WHERE ${scope} GROUP BY claims ORDER BY visitors DESC, events DESC, claims LIMIT {limit:UInt32}`,
        { org: organizationId, site: siteId, limit: MAX_SEGMENTS },
      );
      return rows.map((r) => ({ claims: r.claims, events: Number(r.events), visitors: Number(r.visitors), sessions: Number(r.sessions) }));
    },
    async count(organizationId, siteId) {
      const [row] = await transport.query<{ n: number }>(`SELECT count() AS n FROM events WHERE ${scope}`, { org: organizationId, site: siteId });
      return Number(row?.n ?? 0);
    },
    healthy: () =>
      transport.query('SELECT 1', {}).then(
        () => true,
        () => false,
      ),
    close: () => transport.close(),
  };
}
