import { PrismaPg } from '@prisma/adapter-pg';
import DataLoader from 'dataloader';
import pg from 'pg';
import { watchPool } from './metrics.js';
import { tracePool } from './tracing.js';

const TIMESTAMP_WITHOUT_TZ = 1114;

// Prisma stores DateTime as `timestamp(3)` holding UTC; pg would read it as local time.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMP_WITHOUT_TZ && format !== 'binary'
      ? (value: string) => new Date(value.replace(' ', 'T') + 'Z')
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export interface Database<C> {
  /** Prisma 6.19 on the pg driver adapter: its engine is WASM from npm, so nothing is downloaded at install or run time. */
  prisma: C;
  /**
   * The same connection pool, for the few hot reads where Prisma's per-query compile and
   * interpretation cost more than the query itself (see the service's store).
   */
  pool: pg.Pool;
  close(): Promise<void>;
}

/** One pool per service process, shared by Prisma and the plain-SQL hot path. */
export function createDatabase<C extends { $disconnect(): Promise<void> }>(
  PrismaClient: new (options: { adapter: PrismaPg }) => C,
  connectionString: string,
  poolSize = 10,
  onIdleError: (err: Error) => void = () => {},
): Database<C> {
  // No JIT: PostgreSQL compiles a statement when its estimated cost is high, and the estimates of
  // the bulk writes (arrays unnested into 1,000s of rows) are: compiling an import's page rows took
  // 459 ms of a 486 ms insert that takes 24-37 ms without it (bench/README.md, git-sync). Every
  // statement here is short.
  const pool = new pg.Pool({ connectionString, max: poolSize, types, options: '-c jit=off' });
  // The server may close an idle connection (restart, failover, a forced drop): the pool discards
  // it and opens another when needed. Without a listener pg would crash the process instead.
  pool.on('error', onIdleError);
  const database = new URL(connectionString).pathname.slice(1);
  tracePool(pool, database);
  const forget = watchPool(database, pool);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    pool,
    async close() {
      forget();
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/** A service's store over its own database, the one way to close both, and its health check. */
export function openDatabaseStore<C extends { $disconnect(): Promise<void> }, S>(
  PrismaClient: new (options: { adapter: PrismaPg }) => C,
  createStore: (db: Database<C>) => S,
  connectionString: string,
  poolSize?: number,
  log?: { warn(obj: object, msg: string): void },
): { store: S; close: () => Promise<void>; checks: { database: () => Promise<unknown> } } {
  const db = createDatabase(PrismaClient, connectionString, poolSize, (err) => log?.warn({ err }, 'database connection closed by the server'));
  return { store: createStore(db), close: () => db.close(), checks: { database: () => db.pool.query('SELECT 1') } };
}

type Merged<U> = (U extends unknown ? (part: U) => void : never) extends (all: infer I) => void ? I : never;

/**
 * A service's store made of its aggregates' queries (one file each) over one database:
 * `createStore` merges them, `openStore` opens the service's database (one pool for Prisma and
 * plain SQL) with it.
 */
export function storeOf<C extends { $disconnect(): Promise<void> }>(PrismaClient: new (options: { adapter: PrismaPg }) => C) {
  return <A extends ((db: Database<C>) => object)[]>(...aggregates: A) => {
    const createStore = (db: Database<C>) => Object.assign({}, ...aggregates.map((aggregate) => aggregate(db))) as Merged<ReturnType<A[number]>>;
    const openStore = (connectionString: string, poolSize?: number, log?: Parameters<typeof openDatabaseStore>[4]) =>
      openDatabaseStore(PrismaClient, createStore, connectionString, poolSize, log);
    return { createStore, openStore };
  };
}

/**
 * Named prepared statements on the shared pool, for the reads behind every call: through Prisma
 * each paid more for query compilation than PostgreSQL spent answering it (bench/README.md, org-read).
 */
export function preparedStatements<K extends string>(service: string, statements: Record<K, string>) {
  async function rows<R extends object>(db: { pool: pg.Pool }, name: K, values: unknown[]): Promise<R[]> {
    return (await db.pool.query<R>({ name: `${service}.${name}`, text: statements[name], values })).rows;
  }
  /** The first row. */
  const first = async <R extends object>(db: { pool: pg.Pool }, name: K, values: unknown[]): Promise<R | undefined> => (await rows<R>(db, name, values))[0];
  /** The rows a write changed. */
  const changed = async (db: { pool: pg.Pool }, name: K, values: unknown[]): Promise<number> =>
    (await db.pool.query({ name: `${service}.${name}`, text: statements[name], values })).rowCount ?? 0;
  /**
   * One read per key for reads made many at a time (a batch of calls runs its handlers in one
   * turn of the event loop): the keys asked for in a turn go to PostgreSQL as one statement, so
   * N calls cost one round trip and one socket write rather than N. The statement `name` takes
   * `values(keys)` and answers a row per key found, with the column `key` holding the key's
   * position among them, from 1 (`WITH ORDINALITY`). Keys asked for twice are read twice: each
   * call gets a row of its own.
   */
  function loader<Key, R extends object>(db: { pool: pg.Pool }, name: K, values: (keys: readonly Key[]) => unknown[]) {
    const batch = new DataLoader<Key, R | undefined>(
      async (keys) => {
        const found = keys.map((): R | undefined => undefined);
        for (const { key, ...row } of await rows<R & { key: number | string }>(db, name, values(keys))) found[Number(key) - 1] = row as unknown as R;
        return found;
      },
      // No cache across turns (a read must see the last write), and the whole turn in one batch.
      { cache: false, batchScheduleFn: (dispatch) => setImmediate(dispatch), maxBatchSize: MAX_KEYS_PER_READ },
    );
    return (key: Key) => batch.load(key);
  }
  return Object.assign(first, { rows, changed, loader });
}

// More keys than a batch of calls brings (64): a statement's arrays stay small.
const MAX_KEYS_PER_READ = 256;

/** The current time in SQL as Prisma keeps DateTime in `timestamp(3)` columns: UTC, whatever the session's time zone. */
export const UTC_NOW = `(now() AT TIME ZONE 'UTC')`;

/** Prisma's answer when a unique index refused a write: the index decides races, not a read before. */
export const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === 'P2002';
