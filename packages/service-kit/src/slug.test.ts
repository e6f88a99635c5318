import { describe, expect, it } from 'vitest';
import { slugify } from './slug.ts';

describe('slugify', () => {
  it('keeps ASCII letters and digits, joined by single hyphens', () => {
    expect(slugify('Héllo, World!  2')).toBe('hello-world-2');
    expect(slugify('Getting Started — Über!')).toBe('getting-started-uber');
  });

  it('cuts to the bound without a trailing hyphen, and falls back when nothing is left', () => {
    expect(slugify('x'.repeat(200), { maxLength: 90 })).toHaveLength(90);
    expect(slugify(`${'a'.repeat(99)} b`)).toBe('a'.repeat(99));
    expect(slugify('🎉')).toBe('page');
    expect(slugify('???', { fallback: 'item' })).toBe('item');
  });
});
