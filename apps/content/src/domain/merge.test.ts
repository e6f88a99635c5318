import { fromMarkdown, type DocumentBlockParagraph, type JSONDocument } from '@quire/document';
import { describe, expect, it } from 'vitest';
import { applyChanges, documentId, type Change } from './changes.ts';
import { mergeText, mergeTrees, documentsToMerge } from './merge.ts';
import { emptyTree, findPage, flatten, type Tree } from './tree.ts';

let n = 0;
const ctx = { now: new Date('2026-01-01T00:00:00Z'), newId: () => `p${++n}`, revisions: new Map<string, Tree>() };
const BODY = 'line 1\nline 2\nline 3\nline 4\nline 5';

/** base: A (with child A1), B; and the markdown of every document seen. */
function setup() {
  const markdown = new Map<string, string>();
  const apply = (tree: Tree, changes: Change[]) => {
    const r = applyChanges(tree, changes, ctx);
    for (const [id, body] of r.documents) markdown.set(id, body.markdown);
    return r;
  };
  const r = apply(emptyTree(), [
    { insertPage: { fields: { title: 'A' }, type: '', href: '', ref: 'a', markdown: BODY } },
    { insertPage: { fields: { title: 'A1' }, type: '', href: '', ref: 'a1', into: 'a' } },
    { insertPage: { fields: { title: 'B' }, type: '', href: '', ref: 'b' } },
  ]);
  const id = (ref: string) => r.changes.find((c) => c.ref === ref)!.pageId;
  const edit = (changes: Change[]) => apply(r.tree, changes).tree;
  const merge = (ours: Tree, theirs: Tree) => mergeTrees({ base: r.tree, ours, theirs, markdown });
  return { base: r.tree, a: id('a'), a1: id('a1'), b: id('b'), edit, merge, markdown };
}
const titles = (t: Tree) => flatten(t.pages).map((l) => `${l.path}:${l.page.title}`);

describe('mergeTrees', () => {
  it('takes each side’s changes to different pages and fields', () => {
    const s = setup();
    const ours = s.edit([{ updatePage: { page: s.a, fields: { title: 'A!' }, move: false } }]);
    const theirs = s.edit([{ updatePage: { page: s.a, fields: { emoji: '🎉' }, move: false } }, { updatePage: { page: s.b, fields: { hidden: true }, move: false } }]);
    const m = s.merge(ours, theirs);
    expect(m.conflicts).toEqual([]);
    expect(findPage(m.tree!.pages, s.a)!.page).toMatchObject({ title: 'A!', emoji: '🎉' });
    expect(findPage(m.tree!.pages, s.b)!.page.hidden).toBe(true);
  });

  it('reports both sides changing one field differently', () => {
    const s = setup();
    const m = s.merge(s.edit([{ updatePage: { page: s.b, fields: { title: 'X' }, move: false } }]), s.edit([{ updatePage: { page: s.b, fields: { title: 'Y' }, move: false } }]));
    expect(m.tree).toBeUndefined();
    expect(m.conflicts).toEqual([{ pageId: s.b, title: 'X', reason: 'title' }]);
  });

  it('applies a move on one side and an edit on the other', () => {
    const s = setup();
    const ours = s.edit([{ updatePage: { page: s.a1, move: true, into: s.b } }]);
    const theirs = s.edit([{ updatePage: { page: s.a1, fields: { title: 'Renamed' }, move: false } }]);
    const m = s.merge(ours, theirs);
    expect(m.conflicts).toEqual([]);
    expect(titles(m.tree!)).toEqual(['a:A', 'b:B', 'b/a1:Renamed']);
  });

  it('reports a page deleted on one side and edited on the other', () => {
    const s = setup();
    const m = s.merge(s.edit([{ deletePage: { page: s.b } }]), s.edit([{ updatePage: { page: s.b, fields: { title: 'Z' }, move: false } }]));
    expect(m.conflicts).toEqual([{ pageId: s.b, title: 'Z', reason: 'deleted and edited' }]);
  });

  it('keeps the pages both sides inserted, in their places', () => {
    const s = setup();
    const ours = s.edit([{ insertPage: { fields: { title: 'Ours' }, type: '', href: '', ref: '', at: 1 } }]);
    const theirs = s.edit([{ insertPage: { fields: { title: 'Theirs' }, type: '', href: '', ref: '' } }]);
    const m = s.merge(ours, theirs);
    expect(m.conflicts).toEqual([]);
    expect(titles(m.tree!)).toEqual(['a:A', 'a/a1:A1', 'ours:Ours', 'b:B', 'theirs:Theirs']);
  });

  it('merges edits to different lines of one document, and reports overlapping ones', () => {
    const s = setup();
    const ours = s.edit([{ updatePage: { page: s.a, markdown: BODY.replace('line 1', 'LINE 1'), move: false } }]);
    const theirs = s.edit([{ updatePage: { page: s.a, markdown: BODY.replace('line 5', 'LINE 5'), move: false } }]);
    expect(documentsToMerge(s.base, ours, theirs)).toHaveLength(3);
    const m = s.merge(ours, theirs);
    const merged = BODY.replace('line 1', 'LINE 1').replace('line 5', 'LINE 5');
    expect(findPage(m.tree!.pages, s.a)!.page.documentId).toBe(documentId(merged));
    expect(m.documents!.get(documentId(merged))).toEqual({ markdown: merged });

    const clash = s.edit([{ updatePage: { page: s.a, markdown: BODY.replace('line 1', 'other'), move: false } }]);
    expect(s.merge(ours, clash).conflicts).toEqual([{ pageId: s.a, title: 'A', reason: 'document' }]);
  });

  it("keeps a client's document when the merge takes its page's text whole", () => {
    const s = setup();
    const write = (tree: Tree, body: { markdown: string } | { document: JSONDocument }) => {
      const r = applyChanges(tree, [{ updatePage: { page: s.a, ...body, move: false } }], ctx);
      for (const [id, b] of r.documents) s.markdown.set(id, b.markdown);
      return r.tree;
    };
    const base = write(s.base, { markdown: 'one\n\ntwo\n' });
    // Both paragraphs changed, and an emoji markdown cannot carry.
    const rich = fromMarkdown('ONE\n\nTWO\n');
    (rich.nodes[1] as DocumentBlockParagraph).nodes.push({ object: 'inline', type: 'emoji', isVoid: true, data: { code: '1f600' } });
    const ours = write(base, { document: rich });
    const richId = findPage(ours.pages, s.a)!.page.documentId;
    expect(s.markdown.get(richId!)).toBe('ONE\n\nTWO😀\n');
    // Changed on one side only: that side's document.
    expect(findPage(mergeTrees({ base, ours, theirs: base, markdown: s.markdown }).tree!.pages, s.a)!.page.documentId).toBe(richId);
    // Changed on both sides, theirs' change being one of ours: the merge is ours' text, and ours' document stands.
    const theirs = write(base, { markdown: 'ONE\n\ntwo\n' });
    const m = mergeTrees({ base, ours, theirs, markdown: s.markdown });
    expect(findPage(m.tree!.pages, s.a)!.page.documentId).toBe(richId);
    expect(m.documents!.size).toBe(0);
  });

  it('reports a page moved to different parents by both sides', () => {
    const s = setup();
    const ours = s.edit([{ updatePage: { page: s.a1, move: true } }]);
    const theirs = s.edit([{ updatePage: { page: s.a1, move: true, into: s.b } }]);
    expect(s.merge(ours, theirs).conflicts.map((c) => c.reason)).toEqual(['moved twice']);
  });
});

describe('mergeText', () => {
  it('merges line-wise', () => {
    expect(mergeText('a\nb\nc', 'A\nb\nc', 'a\nb\nC')).toBe('A\nb\nC');
    expect(mergeText('a\nb\nc', 'X\nb\nc', 'Y\nb\nc')).toBeUndefined();
  });
});
