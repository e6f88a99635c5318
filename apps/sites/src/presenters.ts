import { absentIfNull } from '@quire/service-kit';
import type { ShareLink, Site, SiteSection, SiteSectionGroup, SiteSpace, SiteStructure, SiteStructureItem } from '@quire/proto/sites';
import { siteFeatures } from './domain/customization.ts';
import { structureOf } from './domain/structure.ts';
import type { GroupRow, SectionRow, ShareLinkRow, SiteRow, SiteSpaceRow, SiteTree } from './store/index.ts';

// Row to proto message. Published paths are given only while the site is published.

export function presentSite(r: SiteRow): Site {
  return {
    id: r.id,
    organizationId: r.organizationId,
    type: r.type,
    title: r.title,
    visibility: r.visibility,
    published: r.published,
    ...absentIfNull(r, 'hostname', 'basename', 'proxy', 'adaptiveContent'),
    agentsContext: r.agentsContext,
    siteSpaces: r.siteSpaceCount,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    features: siteFeatures(r),
  };
}

/** Presents the parts of one site: its published state and its sections' paths. */
export function sitePresenter(site: { published: boolean }, tree: Pick<SiteTree, 'sections'>) {
  const sectionPath = new Map(tree.sections.map((s) => [s.id, s.path]));
  const published = (path: string) => (site.published ? path : undefined);

  const siteSpace = (r: SiteSpaceRow): SiteSpace => ({
    id: r.id,
    siteId: r.siteId,
    spaceId: r.spaceId,
    title: r.title,
    path: r.path,
    ...absentIfNull(r, 'sectionId', 'condition'),
    default: r.isDefault,
    publishedPath: published(r.sectionId ? `${sectionPath.get(r.sectionId)}/${r.path}` : r.path),
  });

  const section = (r: SectionRow, siteSpaces: SiteSpaceRow[]): SiteSection => ({
    id: r.id,
    siteId: r.siteId,
    title: r.title,
    ...absentIfNull(r, 'description', 'condition', 'groupId', 'icon'),
    default: r.isDefault,
    path: r.path,
    siteSpaces: siteSpaces.map(siteSpace),
    publishedPath: published(r.path),
  });

  const group = (r: GroupRow, sections: { section: SectionRow; siteSpaces: SiteSpaceRow[] }[]): SiteSectionGroup => ({
    id: r.id,
    siteId: r.siteId,
    title: r.title,
    ...absentIfNull(r, 'icon'),
    sections: sections.map((s) => section(s.section, s.siteSpaces)),
  });

  return { siteSpace, section, group };
}

/** The children of sections and groups, from the whole tree. */
export function treePresenter(site: { published: boolean }, tree: SiteTree) {
  const p = sitePresenter(site, tree);
  const spacesOf = (sectionId: string) => tree.siteSpaces.filter((x) => x.sectionId === sectionId);
  const section = (r: SectionRow) => p.section(r, spacesOf(r.id));
  const group = (r: GroupRow) =>
    p.group(
      r,
      tree.sections.filter((s) => s.groupId === r.id).map((s) => ({ section: s, siteSpaces: spacesOf(s.id) })),
    );
  return { siteSpace: p.siteSpace, section, group };
}

export function presentStructure(site: { published: boolean }, tree: SiteTree): SiteStructure {
  const p = sitePresenter(site, tree);
  const { type, items } = structureOf(tree);
  return {
    type,
    items: items.map((e): SiteStructureItem => {
      if ('siteSpace' in e) return { siteSpace: p.siteSpace(e.siteSpace) };
      if ('group' in e) return { group: p.group(e.group, e.sections) };
      return { section: p.section(e.section, e.siteSpaces) };
    }),
  };
}

export function presentShareLink(r: ShareLinkRow): ShareLink {
  return { id: r.id, siteId: r.siteId, name: r.name, active: r.active, key: r.key, createdAt: r.createdAt };
}
