import { checkOneOf, InvalidArgumentError } from '@quire/service-kit';
import { conditionHolds } from './conditions.ts';

// A site's structure: groups and ungrouped sections share one order at the top; sections of a
// group are ordered within it; site-spaces within their section, or at the root of a site without
// sections. Orders are float positions: a move takes the midpoint of its new neighbours, so no
// sibling is ever renumbered.

export const ITEM_KINDS = ['site-space', 'site-section', 'site-section-group'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

export interface GroupNode {
  id: string;
  position: number;
}
export interface SectionNode {
  id: string;
  groupId: string | null;
  position: number;
  condition: string | null;
  isDefault: boolean;
  path: string;
}
export interface SiteSpaceNode {
  id: string;
  sectionId: string | null;
  position: number;
  condition: string | null;
  isDefault: boolean;
  path: string;
}
export interface Tree<G extends GroupNode = GroupNode, S extends SectionNode = SectionNode, P extends SiteSpaceNode = SiteSpaceNode> {
  groups: G[];
  sections: S[];
  siteSpaces: P[];
}

const byPosition = <T extends { position: number; id: string }>(a: T, b: T) => a.position - b.position || a.id.localeCompare(b.id);
const sorted = <T extends { position: number; id: string }>(xs: T[]) => [...xs].sort(byPosition);

/** Where an item sits: the field values of its container. */
export type Container = { kind: 'top' } | { kind: 'group'; groupId: string } | { kind: 'section'; sectionId: string | null };

export function containerOf(tree: Tree, kind: ItemKind, id: string): Container | undefined {
  if (kind === 'site-section-group') return tree.groups.some((g) => g.id === id) ? { kind: 'top' } : undefined;
  if (kind === 'site-section') {
    const s = tree.sections.find((x) => x.id === id);
    return s && (s.groupId ? { kind: 'group', groupId: s.groupId } : { kind: 'top' });
  }
  const p = tree.siteSpaces.find((x) => x.id === id);
  return p && { kind: 'section', sectionId: p.sectionId };
}

/** The items of a container, as (kind, id, position), in order. */
export function itemsIn(tree: Tree, c: Container): { kind: ItemKind; id: string; position: number }[] {
  if (c.kind === 'section') return sorted(tree.siteSpaces.filter((p) => p.sectionId === c.sectionId)).map((p) => ({ kind: 'site-space', id: p.id, position: p.position }));
  if (c.kind === 'group') return sorted(tree.sections.filter((s) => s.groupId === c.groupId)).map((s) => ({ kind: 'site-section', id: s.id, position: s.position }));
  return sorted([
    ...tree.groups.map((g) => ({ kind: 'site-section-group' as const, id: g.id, position: g.position })),
    ...tree.sections.filter((s) => s.groupId === null).map((s) => ({ kind: 'site-section' as const, id: s.id, position: s.position })),
  ]);
}

/** The position after every item of the container. */
export function endOf(tree: Tree, c: Container): number {
  return (itemsIn(tree, c).at(-1)?.position ?? 0) + 1;
}

const sameContainer = (a: Container, b: Container) =>
  a.kind === b.kind && (a.kind !== 'group' || a.groupId === (b as typeof a).groupId) && (a.kind !== 'section' || a.sectionId === (b as typeof a).sectionId);

export interface Pointer {
  type: string;
  id: string;
}

/**
 * Where a move puts an item: beside the anchor (before or after it, in the anchor's container),
 * or at the end of the site's top level (sections, groups) or of its own container (site-spaces).
 * A site-space goes beside site-spaces only; a group beside top-level items only.
 */
export function movePlan(tree: Tree, item: Pointer, anchor: { pointer: Pointer; before: boolean } | undefined): { container: Container; position: number } {
  const kind = item.type as ItemKind;
  const from = containerOf(tree, kind, item.id)!;
  if (!anchor) {
    const container: Container = kind === 'site-space' ? from : { kind: 'top' };
    const others = itemsIn(tree, container).filter((x) => !(x.kind === kind && x.id === item.id));
    return { container, position: (others.at(-1)?.position ?? 0) + 1 };
  }
  const field = anchor.before ? 'position.before' : 'position.after';
  const a = anchor.pointer;
  checkOneOf(`${field}.type`, a.type, ITEM_KINDS);
  if (a.type === item.type && a.id === item.id) throw new InvalidArgumentError(`${field}: an item cannot be placed beside itself`);
  const at = containerOf(tree, a.type as ItemKind, a.id);
  if (!at) throw new InvalidArgumentError(`${field}: ${a.type} "${a.id}" is not in this site`);
  if (kind === 'site-space' && a.type !== 'site-space') throw new InvalidArgumentError(`${field}: a site-space goes beside another site-space`);
  if (kind !== 'site-space' && a.type === 'site-space') throw new InvalidArgumentError(`${field}: a ${kind} cannot go beside a site-space`);
  if (kind === 'site-section-group' && at.kind !== 'top') throw new InvalidArgumentError(`${field}: a group goes beside top-level sections and groups only`);
  const list = itemsIn(tree, at).filter((x) => !(x.kind === kind && x.id === item.id));
  const index = list.findIndex((x) => x.kind === a.type && x.id === a.id);
  const p = list[index]!.position;
  const position = anchor.before ? (p + (list[index - 1]?.position ?? p - 2)) / 2 : (p + (list[index + 1]?.position ?? p + 2)) / 2;
  return { container: sameContainer(from, at) ? from : at, position };
}

/**
 * The site as one reader of the published site sees it: a visitor what their claims allow; a
 * member of the organization let in as one (no valid visitor token: the session or the gateway's
 * site-access grant stands in for it) every section and site-space, as the app shows them.
 */
export const readerTree = <T extends Tree>(tree: T, reader: { member: boolean; claims: Record<string, unknown> }): T => (reader.member ? tree : visibleTree(tree, reader.claims));

/** The site as its visitors see it: items whose condition fails are left out, and groups left empty. */
export function visibleTree<T extends Tree>(tree: T, claims: Record<string, unknown>): T {
  const sections = tree.sections.filter((s) => conditionHolds(s.condition, claims));
  const shown = new Set(sections.map((s) => s.id));
  const siteSpaces = tree.siteSpaces.filter((p) => (p.sectionId === null || shown.has(p.sectionId)) && conditionHolds(p.condition, claims));
  const groups = tree.groups.filter((g) => sections.some((s) => s.groupId === g.id));
  return { ...tree, groups, sections, siteSpaces };
}

export type StructureEntry<G, S, P> = { group: G; sections: { section: S; siteSpaces: P[] }[] } | { section: S; siteSpaces: P[] } | { siteSpace: P };

/** The ordered structure: `sections` (top-level sections and groups) when the site has sections, else its root site-spaces. */
export function structureOf<G extends GroupNode, S extends SectionNode, P extends SiteSpaceNode>(tree: Tree<G, S, P>) {
  const spacesOf = (sectionId: string | null) => sorted(tree.siteSpaces.filter((p) => p.sectionId === sectionId));
  const sectionEntry = (section: S) => ({ section, siteSpaces: spacesOf(section.id) });
  if (tree.sections.length === 0) return { type: 'siteSpaces' as const, items: spacesOf(null).map((siteSpace) => ({ siteSpace }) as StructureEntry<G, S, P>) };
  const items = itemsIn(tree, { kind: 'top' }).map((x): StructureEntry<G, S, P> => {
    if (x.kind === 'site-section') return sectionEntry(tree.sections.find((s) => s.id === x.id)!);
    const group = tree.groups.find((g) => g.id === x.id)!;
    return { group, sections: sorted(tree.sections.filter((s) => s.groupId === group.id)).map(sectionEntry) };
  });
  return { type: 'sections' as const, items };
}

/** The sibling that becomes default when `leaving` (the default) goes: the first of the others. */
export function nextDefault<T extends { id: string; position: number }>(siblings: T[], leaving: string): T | undefined {
  return sorted(siblings.filter((s) => s.id !== leaving))[0];
}
