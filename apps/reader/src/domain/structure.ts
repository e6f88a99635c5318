import type { SiteSection, SiteSpace, SiteStructure } from '@quire/proto/sites';

// Which section and site-space (variant) a path inside a site names, and what is left for the
// page: `/<section path>/<site-space path>/<page path>`, where the default section and the
// default site-space may be left out (their canonical URLs leave them out).

export interface Tab {
  section: SiteSection;
  /** The group it belongs to, for grouped tabs. */
  group?: { id: string; title: string };
}

export interface Placement {
  tabs: Tab[];
  section?: SiteSection;
  /** The site-spaces of the section (or of the site without sections): the variants. */
  variants: SiteSpace[];
  siteSpace: SiteSpace;
  /** Segments left for the page path. */
  pagePath: string[];
}

export function tabsOf(structure: SiteStructure): Tab[] {
  const tabs: Tab[] = [];
  for (const item of structure.items) {
    if (item.section) tabs.push({ section: item.section });
    if (item.group) for (const section of item.group.sections) tabs.push({ section, group: { id: item.group.id, title: item.group.title } });
  }
  return tabs;
}

const byDefault = <T extends { default: boolean }>(items: T[]) => items.find((i) => i.default) ?? items[0];

/** The placement of `rest`, or null when the site has nothing to show (no site-space at all). */
export function place(structure: SiteStructure, rest: readonly string[]): Placement | null {
  let i = 0;
  const tabs = tabsOf(structure);
  let section: SiteSection | undefined;
  let variants: SiteSpace[];
  if (structure.type === 'sections') {
    section = tabs.find((t) => t.section.path === rest[0])?.section;
    if (section) i++;
    else section = byDefault(tabs.map((t) => t.section).filter((s) => s.siteSpaces.length > 0));
    if (!section) return null;
    variants = section.siteSpaces;
  } else {
    variants = structure.items.flatMap((x) => (x.siteSpace ? [x.siteSpace] : []));
  }
  let siteSpace = variants.find((v) => v.path === rest[i]);
  if (siteSpace) i++;
  else siteSpace = byDefault(variants);
  if (!siteSpace) return null;
  return { tabs, section, variants, siteSpace, pagePath: rest.slice(i) };
}

/** The segments leading to a site-space: its section's path and its own, each left out when default. */
export function siteSpacePrefix(section: SiteSection | undefined, siteSpace: SiteSpace): string[] {
  return [...(section && !section.default ? [section.path] : []), ...(siteSpace.default ? [] : [siteSpace.path])];
}

/** The default site-space of a section, where its tab leads. */
export const sectionEntry = (section: SiteSection): SiteSpace | undefined => byDefault(section.siteSpaces);

/** Every site-space a visitor sees, with its section (for search and the sitemap). */
export function allSiteSpaces(structure: SiteStructure): { section?: SiteSection; siteSpace: SiteSpace }[] {
  if (structure.type !== 'sections') return structure.items.flatMap((x) => (x.siteSpace ? [{ siteSpace: x.siteSpace }] : []));
  return tabsOf(structure).flatMap((t) => t.section.siteSpaces.map((siteSpace) => ({ section: t.section, siteSpace })));
}
