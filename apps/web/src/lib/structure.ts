import type { SiteSection, SiteSectionGroup, SiteSpace, SiteStructure } from '../types.ts';

export type ItemType = 'site-space' | 'site-section' | 'site-section-group';
export interface Pointer {
  type: ItemType;
  id: string;
}
type Item = SiteSpace | SiteSection | SiteSectionGroup;

export const pointer = (item: Item): Pointer => ({ type: item.object, id: item.id });

/**
 * The body of `PATCH .../structure/sort` that moves `siblings[from]` to where `siblings[to]` is:
 * before it when moving up, after it when moving down. Undefined when nothing moves.
 */
export function sortBody(siblings: Item[], from: number, to: number): { item: Pointer; position: { before?: Pointer; after?: Pointer } } | undefined {
  if (from === to || !siblings[from] || !siblings[to]) return undefined;
  const anchor = pointer(siblings[to]);
  return { item: pointer(siblings[from]), position: to < from ? { before: anchor } : { after: anchor } };
}

/** Every site-space of a structure, in order (for the spaces already on the site). */
export function siteSpacesOf(s: SiteStructure): SiteSpace[] {
  if (s.type === 'siteSpaces') return s.structure;
  return s.structure.flatMap((item) => (item.object === 'site-section-group' ? item.sections : [item]).flatMap((section) => section.siteSpaces));
}

/** Every section, in order, groups opened (for the section pickers). */
export function sectionsOf(s: SiteStructure): SiteSection[] {
  if (s.type === 'siteSpaces') return [];
  return s.structure.flatMap((item) => (item.object === 'site-section-group' ? item.sections : [item]));
}
