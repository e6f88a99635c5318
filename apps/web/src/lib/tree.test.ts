import { describe, expect, it } from 'vitest';
import { pageAnswer } from '../../test/objects.ts';
import type { RevisionPage } from '../types.ts';
import { locate, moveBefore, moveFor, moveInto } from './tree.ts';

const page = (id: string, pages: RevisionPage[] = [], type: RevisionPage['type'] = 'document'): RevisionPage => pageAnswer({ id, type, title: id.toUpperCase(), path: id, pages });
// a, b (b1, b2), g: a group (g1), l: a link
const TREE = [page('a'), page('b', [page('b1'), page('b2')]), page('g', [page('g1')], 'group'), page('l', [], 'link')];

describe('moving pages in the tree', () => {
  it('finds a page with its parent and index', () => {
    const at = locate(TREE, 'b2')!;
    expect([at.parent?.id, at.index, at.siblings.length]).toEqual(['b', 1, 2]);
    expect(locate(TREE, 'nope')).toBeUndefined();
  });

  it('moves up and down among the siblings only (the parent kept)', () => {
    expect(moveFor(TREE, 'b', 'up')).toEqual({ at: 0 });
    expect(moveFor(TREE, 'a', 'up')).toBeUndefined();
    expect(moveFor(TREE, 'b1', 'down')).toEqual({ at: 1 });
    expect(moveFor(TREE, 'b2', 'down')).toBeUndefined();
  });

  it('indents under the page above (not a link, never a group), outdents after the parent', () => {
    expect(moveFor(TREE, 'b', 'indent')).toEqual({ into: 'a' });
    expect(moveFor(TREE, 'b2', 'indent')).toEqual({ into: 'b1' });
    expect(moveFor(TREE, 'a', 'indent')).toBeUndefined();
    expect(moveFor(TREE, 'g', 'indent')).toBeUndefined();
    expect(moveFor(TREE, 'l', 'indent')).toEqual({ into: 'g' });
    expect(moveFor(TREE, 'b1', 'outdent')).toEqual({ into: null, at: 2 });
    expect(moveFor([page('x', [page('y', [page('z')])])], 'z', 'outdent')).toEqual({ into: 'x', at: 1 });
    expect(moveFor(TREE, 'a', 'outdent')).toBeUndefined();
  });

  it('drops before a page, counting the place the page leaves', () => {
    expect(moveBefore(TREE, 'a', 'g')).toEqual({ into: null, at: 1 });
    expect(moveBefore(TREE, 'g', 'a')).toEqual({ into: null, at: 0 });
    expect(moveBefore(TREE, 'a', 'b2')).toEqual({ into: 'b', at: 1 });
    // Where it already is, onto itself, into its own pages, or a group below the top: nothing.
    expect(moveBefore(TREE, 'a', 'b')).toBeUndefined();
    expect(moveBefore(TREE, 'a', 'a')).toBeUndefined();
    expect(moveBefore(TREE, 'b', 'b1')).toBeUndefined();
    expect(moveBefore(TREE, 'g', 'b1')).toBeUndefined();
  });

  it('drops into a page, at the end of its pages', () => {
    expect(moveInto(TREE, 'a', 'b')).toEqual({ into: 'b' });
    expect(moveInto(TREE, 'b1', 'b')).toBeUndefined();
    expect(moveInto(TREE, 'b', 'b2')).toBeUndefined();
    expect(moveInto(TREE, 'a', 'l')).toBeUndefined();
    expect(moveInto(TREE, 'g', 'a')).toBeUndefined();
  });
});
