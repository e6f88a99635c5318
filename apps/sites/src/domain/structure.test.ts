import { describe, expect, it } from 'vitest';
import { movePlan, readerTree, structureOf, visibleTree, type Tree } from './structure.ts';

const section = (id: string, position: number, groupId: string | null = null, condition: string | null = null) => ({
  id,
  groupId,
  position,
  condition,
  isDefault: false,
  path: id,
});
const space = (id: string, sectionId: string | null, position: number, condition: string | null = null) => ({ id, sectionId, position, condition, isDefault: false, path: id });

const tree: Tree = {
  groups: [{ id: 'g', position: 2 }],
  sections: [section('a', 1), section('b', 1, 'g'), section('c', 2, 'g', 'visitor.claims.beta'), section('d', 3)],
  siteSpaces: [space('p1', 'a', 1), space('p2', 'a', 2, 'visitor.claims.paid'), space('p3', 'c', 1)],
};

const order = (t: Tree) =>
  structureOf(t).items.map((e) =>
    'group' in e ? `${e.group.id}{${e.sections.map((s) => s.section.id)}}` : 'section' in e ? `${e.section.id}[${e.siteSpaces.map((p) => p.id)}]` : e.siteSpace.id,
  );

describe('site structure', () => {
  it('orders groups and top-level sections together, sections within groups', () => {
    expect(order(tree)).toEqual(['a[p1,p2]', 'g{b,c}', 'd[]']);
    expect(structureOf({ groups: [], sections: [], siteSpaces: [space('r2', null, 2), space('r1', null, 1)] })).toMatchObject({
      type: 'siteSpaces',
      items: [{ siteSpace: { id: 'r1' } }, { siteSpace: { id: 'r2' } }],
    });
  });

  it('places moves beside their anchor, in the anchor container', () => {
    expect(movePlan(tree, { type: 'site-section', id: 'd' }, { pointer: { type: 'site-section', id: 'b' }, before: false })).toEqual({
      container: { kind: 'group', groupId: 'g' },
      position: 1.5,
    });
    expect(movePlan(tree, { type: 'site-section-group', id: 'g' }, { pointer: { type: 'site-section', id: 'a' }, before: true })).toEqual({
      container: { kind: 'top' },
      position: 0,
    });
    expect(movePlan(tree, { type: 'site-section', id: 'b' }, undefined)).toEqual({ container: { kind: 'top' }, position: 4 });
    expect(movePlan(tree, { type: 'site-space', id: 'p1' }, undefined)).toEqual({ container: { kind: 'section', sectionId: 'a' }, position: 3 });
    expect(movePlan(tree, { type: 'site-space', id: 'p1' }, { pointer: { type: 'site-space', id: 'p3' }, before: true })).toEqual({
      container: { kind: 'section', sectionId: 'c' },
      position: 0,
    });
  });

  it('refuses moves that mix kinds or leave the top level for a group', () => {
    expect(() => movePlan(tree, { type: 'site-space', id: 'p1' }, { pointer: { type: 'site-section', id: 'a' }, before: true })).toThrow(/beside another site-space/);
    expect(() => movePlan(tree, { type: 'site-section-group', id: 'g' }, { pointer: { type: 'site-section', id: 'b' }, before: true })).toThrow(/top-level/);
    expect(() => movePlan(tree, { type: 'site-section', id: 'a' }, { pointer: { type: 'site-section', id: 'zz' }, before: true })).toThrow(/not in this site/);
    expect(() => movePlan(tree, { type: 'site-section', id: 'a' }, { pointer: { type: 'site-section', id: 'a' }, before: true })).toThrow(/beside itself/);
  });

  it('shows visitors only what their claims allow, dropping emptied groups', () => {
    expect(order(visibleTree(tree, {}))).toEqual(['a[p1]', 'g{b}', 'd[]']);
    expect(order(visibleTree(tree, { beta: true, paid: true }))).toEqual(['a[p1,p2]', 'g{b,c}', 'd[]']);
    expect(order(visibleTree({ ...tree, sections: tree.sections.filter((s) => s.id !== 'b') }, {}))).toEqual(['a[p1]', 'd[]']);
  });

  it('shows a member let in without a visitor token everything, a visitor with one only what the claims allow', () => {
    expect(order(readerTree(tree, { member: true, claims: {} }))).toEqual(['a[p1,p2]', 'g{b,c}', 'd[]']);
    expect(order(readerTree(tree, { member: false, claims: {} }))).toEqual(['a[p1]', 'g{b}', 'd[]']);
    expect(order(readerTree(tree, { member: false, claims: { paid: true } }))).toEqual(['a[p1,p2]', 'g{b}', 'd[]']);
  });
});
