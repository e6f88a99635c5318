import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { preparedStatements } from './prisma.js';

// Against the real PostgreSQL (QUIRE_PG_URL, default the local one); the statements read no table.
const pool = new pg.Pool({ connectionString: process.env.QUIRE_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres', max: 2 });
afterAll(() => pool.end());

const hot = preparedStatements('test', {
  // A row for each non-negative number, its key's position beside it; a zero divides by zero.
  doubles: `SELECT k.key, k.n * 2 / k.n * k.n AS doubled FROM unnest($1::int[]) WITH ORDINALITY AS k(n, key) WHERE k.n >= 0`,
});

/** The pool, counting the statements sent through it. */
function counted() {
  const sent: unknown[][] = [];
  const db = {
    pool: {
      query: (config: { values: unknown[] }) => {
        sent.push(config.values);
        return pool.query(config as never);
      },
    } as unknown as pg.Pool,
  };
  return { db, sent };
}

const numbers = (keys: readonly number[]) => [keys];

describe('preparedStatements().loader', () => {
  it('sends the keys asked for in one turn as one statement and hands each its own row', async () => {
    const { db, sent } = counted();
    const double = hot.loader<number, { doubled: number }>(db, 'doubles', numbers);
    const rows = await Promise.all([3, -1, 5, 3, -2].map(double));
    expect(sent).toEqual([[[3, -1, 5, 3, -2]]]);
    // Not found is undefined; a key asked for twice gets two rows, not one shared object.
    expect(rows).toEqual([{ doubled: 6 }, undefined, { doubled: 10 }, { doubled: 6 }, undefined]);
    expect(rows[0]).not.toBe(rows[3]);
  });

  it('keeps no answer across turns: a later read goes to PostgreSQL again', async () => {
    const { db, sent } = counted();
    const double = hot.loader<number, { doubled: number }>(db, 'doubles', numbers);
    expect(await double(4)).toEqual({ doubled: 8 });
    expect(await double(4)).toEqual({ doubled: 8 });
    expect(sent).toEqual([[[4]], [[4]]]);
  });

  it('fails every read of a failed statement, and the next turn reads again', async () => {
    const { db, sent } = counted();
    const double = hot.loader<number, { doubled: number }>(db, 'doubles', numbers);
    const failed = await Promise.allSettled([double(1), double(0)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((failed[0] as PromiseRejectedResult).reason).toMatchObject({ message: 'division by zero' });
    expect(await double(1)).toEqual({ doubled: 2 });
    expect(sent).toHaveLength(2);
  });

  it('splits a turn of many reads into statements of at most 256 keys', async () => {
    const { db, sent } = counted();
    const double = hot.loader<number, { doubled: number }>(db, 'doubles', numbers);
    const keys = Array.from({ length: 600 }, (_, i) => i + 1);
    const rows = await Promise.all(keys.map(double));
    expect(rows.map((r) => r?.doubled)).toEqual(keys.map((n) => n * 2));
    expect(sent.map(([values]) => (values as number[]).length)).toEqual([256, 256, 88]);
  });
});
