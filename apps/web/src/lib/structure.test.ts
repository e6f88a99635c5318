import { describe, expect, it } from 'vitest';
import type { SiteSection, SiteSectionGroup, SiteSpace, SiteStructure } from '../types.ts';
import { sectionsOf, siteSpacesOf, sortBody } from './structure.ts';

const ss = (id: string): SiteSpace => ({ object: 'site-space', id, path: id, title: id, default: false, urls: {} });
const section = (id: string, spaces: SiteSpace[]): SiteSection => ({ object: 'site-section', id, title: id, path: id, default: false, siteSpaces: spaces, urls: {} });
const group = (id: string, sections: SiteSection[]): SiteSectionGroup => ({ object: 'site-section-group', id, title: id, sections });

describe('site structure', () => {
  const items = [section('a', []), group('g', []), section('c', [])];
  it('moves an item before the one above it, or after the one below it', () => {
    expect(sortBody(items, 2, 1)).toEqual({ item: { type: 'site-section', id: 'c' }, position: { before: { type: 'site-section-group', id: 'g' } } });
    expect(sortBody(items, 0, 2)).toEqual({ item: { type: 'site-section', id: 'a' }, position: { after: { type: 'site-section', id: 'c' } } });
  });
  it('moves nothing past either end or onto itself', () => {
    expect(sortBody(items, 0, -1)).toBeUndefined();
    expect(sortBody(items, 2, 3)).toBeUndefined();
    expect(sortBody(items, 1, 1)).toBeUndefined();
  });
  it('lists the site-spaces and sections of a structure in order', () => {
    const s: SiteStructure = { type: 'sections', structure: [section('a', [ss('1')]), group('g', [section('b', [ss('2'), ss('3')])])] };
    expect(siteSpacesOf(s).map((x) => x.id)).toEqual(['1', '2', '3']);
    expect(sectionsOf(s).map((x) => x.id)).toEqual(['a', 'b']);
    expect(siteSpacesOf({ type: 'siteSpaces', structure: [ss('9')] }).map((x) => x.id)).toEqual(['9']);
    expect(sectionsOf({ type: 'siteSpaces', structure: [] })).toEqual([]);
  });
});
