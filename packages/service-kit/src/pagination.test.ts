import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, listPage, pageLimit, pageOf, type Page } from './pagination.js';
import { InvalidArgumentError } from './errors.js';

describe('pagination', () => {
  it('round-trips a cursor and refuses one it did not make', () => {
    expect(decodeCursor(encodeCursor('abc'))).toBe('abc');
    expect(decodeCursor(undefined)).toBeUndefined();
    expect(() => decodeCursor('not a cursor')).toThrow(InvalidArgumentError);
    expect(() => decodeCursor(Buffer.from('x1.abc').toString('base64url'))).toThrow(/page/);
  });

  it('gives next only when more rows exist', () => {
    expect(pageOf([1, 2], 2, String)).toEqual({ items: [1, 2] });
    const page = pageOf([1, 2, 3], 2, String);
    expect(page.items).toEqual([1, 2]);
    expect(decodeCursor(page.next)).toBe('2');
  });

  it('bounds the limit', () => {
    expect(pageLimit(undefined)).toBe(50);
    expect(pageLimit(1000)).toBe(1000);
    expect(() => pageLimit(1001)).toThrow(/at most 1000/);
  });

  it('lists a page: asks one row more than the limit after the cursor, presents the page, points at the next', async () => {
    const rows = ['a', 'b', 'c', 'd'].map((id) => ({ id }));
    const asked: Page[] = [];
    const fetch = async (page: Page) => {
      asked.push(page);
      const from = page.after ? rows.findIndex((r) => r.id === page.after) + 1 : 0;
      return rows.slice(from, from + page.take);
    };
    const first = await listPage({ limit: 2 }, fetch, (items) => items.map((r) => r.id.toUpperCase()));
    expect(first.items).toEqual(['A', 'B']);
    expect(asked[0]).toEqual({ after: undefined, take: 3 });
    const second = await listPage({ limit: 2, page: first.page.next }, fetch, async (items) => items.map((r) => r.id));
    expect(second).toEqual({ items: ['c', 'd'], page: { next: undefined } });
    expect(asked[1]).toEqual({ after: 'b', take: 3 });
  });
});
