import { describe, expect, it } from 'vitest';
import { encodeCursor } from '@quire/service-kit';
import { checkQuery, offsetPage, offsetPageOf, queryTerms, snippet } from './search.ts';

describe('checkQuery', () => {
  it('requires a query of at most 512 characters', () => {
    expect(checkQuery('  install guide ')).toBe('install guide');
    expect(() => checkQuery(' ')).toThrow(/query: required/);
    expect(checkQuery('a'.repeat(512))).toHaveLength(512);
    expect(() => checkQuery('a'.repeat(513))).toThrow(/query: must be at most 512/);
  });
});

describe('offset paging', () => {
  it('gives out cursors that continue where the page ended, and refuses others', () => {
    const first = offsetPageOf([1, 2, 3], 0, 2);
    expect(first.items).toEqual([1, 2]);
    expect(offsetPage({ page: first.next, limit: 2 })).toEqual({ offset: 2, limit: 2 });
    expect(offsetPageOf([3], 2, 2)).toEqual({ items: [3] });
    expect(offsetPage(undefined)).toEqual({ offset: 0, limit: 50 });
    expect(() => offsetPage({ page: encodeCursor('abc'), limit: 1 })).toThrow(/page: not a cursor/);
    expect(() => offsetPage({ page: 'junk!', limit: 1 })).toThrow(/page: not a cursor/);
    expect(() => offsetPage({ page: '', limit: 1001 })).toThrow(/limit/);
  });
});

describe('snippet', () => {
  const body = `${'Intro words here. '.repeat(20)}Then you install the Kubernetes chart on the cluster. ${'Closing words. '.repeat(20)}`;

  it('keeps short bodies whole', () => {
    expect(snippet('Short  text\nhere.', ['text'])).toBe('Short text here.');
  });

  it('cuts around the first matching word, at word boundaries', () => {
    const s = snippet(body, queryTerms('installing -docker "kubernetes"'));
    expect(s.length).toBeLessThanOrEqual(202);
    expect(s).toMatch(/^….* install the Kubernetes chart .*…$/);
    // It starts on a whole word of the text.
    expect(body).toContain(` ${s.slice(1).split(' ')[0]} `);
  });

  it('starts at the beginning when nothing matches', () => {
    expect(snippet(body, ['zeppelin'])).toMatch(/^Intro words here\..*…$/);
  });

  it('reads the words of a query', () => {
    expect(queryTerms('Install OR "Helm chart" -docker k8s.io')).toEqual(['install', 'helm', 'chart', 'k8s', 'io']);
  });
});
