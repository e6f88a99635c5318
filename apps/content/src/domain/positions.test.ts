import { describe, expect, it } from 'vitest';
import { positionAmong, type Sibling } from './positions.ts';

const siblings: Sibling[] = [
  { type: 'collection', id: 'c', position: 2 },
  { type: 'space', id: 'a', position: 1 },
  { type: 'space', id: 'b', position: 3 },
];

describe('positionAmong', () => {
  it('places at the end by default, and first among none', () => {
    expect(positionAmong(siblings, undefined)).toBe(4);
    expect(positionAmong([], undefined)).toBe(1);
  });

  it('places before or after a space or a collection, between its neighbours', () => {
    expect(positionAmong(siblings, { before: { type: 'collection', id: 'c' } })).toBe(1.5);
    expect(positionAmong(siblings, { after: { type: 'collection', id: 'c' } })).toBe(2.5);
    expect(positionAmong(siblings, { before: { type: 'space', id: 'a' } })).toBe(0);
    expect(positionAmong(siblings, { after: { type: 'space', id: 'b' } })).toBe(4);
  });

  it('leaves the moved item out of its own siblings', () => {
    expect(positionAmong(siblings, { after: { type: 'space', id: 'a' } }, { type: 'collection', id: 'c' })).toBe(2);
  });

  it('refuses an unknown type or an item elsewhere, naming the field', () => {
    expect(() => positionAmong(siblings, { before: { type: 'page', id: 'a' } })).toThrow('position.before.type: must be one of space, collection');
    expect(() => positionAmong(siblings, { after: { type: 'space', id: 'zz' } })).toThrow('position.after: space "zz" is not in the same parent');
  });
});
