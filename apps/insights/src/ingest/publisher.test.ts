import { describe, expect, it } from 'vitest';
import { ROW_COLUMNS, type EventRow } from '../domain/events.ts';
import { INSERT_COLUMNS } from '../store/index.ts';
import { toMessages } from './publisher.ts';
import { dedupeToken } from './writer.ts';

// A row as eventRows builds it: every column, in ROW_COLUMNS order.
const row = (i: number) =>
  Object.fromEntries(
    ROW_COLUMNS.map((c) => [c, c === 'visitor_id' ? `v${i}` : c === 'url' ? 'https://docs.example.com/'.padEnd(100, 'x') : c === 'ask_rating' ? 0 : '']),
  ) as unknown as EventRow;

describe('toMessages', () => {
  it('packs rows as JSONCompactEachRow under the size limit, each row carrying its message id', () => {
    const messages = toMessages([0, 1, 2, 3, 4].map(row), 'b1', 800);
    expect(messages.length).toBeGreaterThan(1);
    expect(messages.map((m) => m.id)).toEqual(messages.map((_, i) => `b1.${i}`));
    for (const m of messages) {
      expect(m.body.length).toBeLessThanOrEqual(800);
      const lines = m.body
        .toString()
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as string[]);
      for (const l of lines) expect(l[0]).toBe(m.id);
    }
    const visitor = INSERT_COLUMNS.indexOf('visitor_id');
    const all = messages.flatMap((m) =>
      m.body
        .toString()
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as string[])[visitor]),
    );
    expect(all).toEqual(['v0', 'v1', 'v2', 'v3', 'v4']);
  });

  it('counts bytes, not characters, against the limit', () => {
    const wide = { ...row(0), search_query: '\u00e9\u4e2d'.repeat(100) };
    const messages = toMessages([wide, wide, wide], 'b3', 1200);
    expect(messages).toHaveLength(3);
    for (const m of messages) {
      expect(m.body.length).toBeLessThanOrEqual(1200);
      expect((JSON.parse(m.body.toString()) as string[])[INSERT_COLUMNS.indexOf('search_query')]).toBe(wide.search_query);
    }
  });

  it('sends a batch that fits in one message', () => {
    expect(toMessages([row(0), row(1)], 'b2', 1024 * 1024)).toHaveLength(1);
  });
});

describe('dedupeToken', () => {
  it('is the same for the same messages in any order, and differs for others', () => {
    expect(dedupeToken(['a', 'b'])).toBe(dedupeToken(['b', 'a']));
    expect(dedupeToken(['a', 'b'])).not.toBe(dedupeToken(['a', 'c']));
  });
});
