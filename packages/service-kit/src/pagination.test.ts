import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, pageLimit, pageOf } from './pagination.js';
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
});
