import { Readable } from 'node:stream';
import { createClient, type ClickHouseClient } from '@clickhouse/client';

/**
 * How SQL reaches ClickHouse: the store speaks only this, so the embedded engine and a server
 * run the same statements.
 */
export interface Transport {
  /** A statement without result (DDL). */
  exec(sql: string): Promise<void>;
  /** Rows of a query with `{name:Type}` parameters bound by ClickHouse. */
  query<T>(sql: string, params: Record<string, unknown>): Promise<T[]>;
  /** JSONCompactEachRow bytes (values of `columns`) into `table`, with per-insert settings (the dedupe token). */
  insert(table: string, columns: readonly string[], rows: Buffer, settings: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

function parseLines<T>(text: string): T[] {
  const out: T[] = [];
  for (const line of text.split('\n')) if (line) out.push(JSON.parse(line) as T);
  return out;
}

type ChdbModule = typeof import('chdb');
type ChdbSession = InstanceType<ChdbModule['Session']>;

/**
 * Embedded ClickHouse (chdb) over a data directory. libchdb binds one data directory per process,
 * so the gRPC handlers and the consumer of one service share this one transport.
 */
export class ChdbTransport implements Transport {
  private session: ChdbSession | undefined;

  private constructor(
    private readonly chdb: ChdbModule,
    readonly path: string,
  ) {
    this.session = new chdb.Session(path);
  }

  /** Loaded on demand: the native library is large and only this transport needs it. */
  static async open(path: string): Promise<ChdbTransport> {
    return new ChdbTransport(await import('chdb'), path);
  }

  private live(): ChdbSession {
    if (!this.session) throw new Error(`ClickHouse (chdb at ${this.path}) is closed`);
    return this.session;
  }

  async exec(sql: string): Promise<void> {
    await this.live().queryAsync(sql);
  }

  async query<T>(sql: string, params: Record<string, unknown>): Promise<T[]> {
    const result = await this.live().queryBindAsync(sql, params, { format: 'JSONEachRow' });
    return parseLines<T>(result.text());
  }

  async insert(table: string, columns: readonly string[], rows: Buffer, settings: Record<string, string>): Promise<void> {
    await this.live().insert({ table, columns, values: rows, format: 'JSONCompactEachRow', settings });
  }

  async close(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    session?.close();
    await this.chdb.drainPending();
  }

  /** Opens the data directory again after `close` (an outage that ends). */
  reopen(): void {
    this.session ??= new this.chdb.Session(this.path);
  }
}

/** A ClickHouse server (or cluster endpoint) through the official HTTP client. */
export class ServerTransport implements Transport {
  private readonly client: ClickHouseClient;

  constructor(url: string, database: string) {
    this.client = createClient({ url, database, request_timeout: 30_000, clickhouse_settings: { output_format_json_quote_64bit_integers: 0 } });
  }

  async exec(sql: string): Promise<void> {
    await this.client.command({ query: sql });
  }

  async query<T>(sql: string, params: Record<string, unknown>): Promise<T[]> {
    const result = await this.client.query({ query: sql, query_params: params, format: 'JSONEachRow' });
    return result.json<T>();
  }

  async insert(table: string, columns: readonly string[], rows: Buffer, settings: Record<string, string>): Promise<void> {
    const query = `INSERT INTO ${table} (${columns.join(', ')}) FORMAT JSONCompactEachRow`;
    const result = await this.client.exec({ query, values: Readable.from([rows]), clickhouse_settings: settings });
    result.stream.destroy();
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
