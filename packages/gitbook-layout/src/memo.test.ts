import { describe, expect, it } from 'vitest';
import { memoByText } from './memo.ts';

describe('memoByText', () => {
  it('computes each text once and forgets the least recently used beyond its size', () => {
    const seen: string[] = [];
    const length = memoByText(5, (text) => {
      seen.push(text);
      return text.length;
    });
    expect([length('a'), length('bb'), length('a')]).toEqual([1, 2, 1]);
    expect(seen).toEqual(['a', 'bb']);
    // 6 characters: 'bb', now the least recently used, goes; 'a' stays.
    length('ccc');
    length('a');
    length('bb');
    expect(seen).toEqual(['a', 'bb', 'ccc', 'bb']);
    // Longer than the whole size: computed, not kept.
    length('dddddd');
    length('dddddd');
    expect(seen.slice(4)).toEqual(['dddddd', 'dddddd']);
  });
});
