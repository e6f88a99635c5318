import { checkOneOf, InvalidArgumentError } from '@quire/service-kit';
import type { Position } from '@quire/proto/content';

// Spaces and collections of one parent share one order, by a float `position`: inserting between
// two items takes the midpoint, so no sibling is ever renumbered.

export const ITEM_TYPES = ['space', 'collection'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

export interface Sibling {
  type: ItemType;
  id: string;
  position: number;
}

/**
 * The position for an item placed among `siblings` (any order) as `position` asks: before or
 * after one of them, or at the end. `self` is the item being moved, left out of its siblings.
 */
export function positionAmong(siblings: Sibling[], position: Position | undefined, self?: { type: ItemType; id: string }): number {
  const list = siblings.filter((s) => !(self && s.type === self.type && s.id === self.id)).sort((a, b) => a.position - b.position);
  const anchor = position?.before ?? position?.after;
  if (!anchor) return (list.at(-1)?.position ?? 0) + 1;
  const field = position?.before ? 'position.before' : 'position.after';
  checkOneOf(`${field}.type`, anchor.type, ITEM_TYPES);
  const index = list.findIndex((s) => s.type === anchor.type && s.id === anchor.id);
  if (index < 0) throw new InvalidArgumentError(`${field}: ${anchor.type} "${anchor.id}" is not in the same parent`);
  const at = list[index]!.position;
  if (position?.before) return (at + (list[index - 1]?.position ?? at - 2)) / 2;
  return (at + (list[index + 1]?.position ?? at + 2)) / 2;
}
