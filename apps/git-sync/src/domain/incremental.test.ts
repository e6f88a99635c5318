import { describe, expect, it } from 'vitest';
import { contentOf, filesOfUnread, keptPages, parseNameStatus, unreadPlanHolds, unreadSources } from './incremental.ts';

const page = (id: string, path: string, oid: string) => ({
  id,
  type: 'document' as const,
  title: id,
  slug: id,
  front: {},
  markdown: `# ${id}`,
  href: '',
  git: { path, oid },
  pages: [],
});
const plan = [page('a', 'a.md', '1'), page('b', 'b.md', '9')];
const parent = [page('a', 'a.md', '1'), page('b', 'b.md', '2')];
const noAssets = () => false;

describe('a push imported incrementally', () => {
  it('keeps the pages whose files it did not modify, and sends them without markdown', () => {
    const kept = keptPages(plan, parent, new Map([['b.md', 'M']]), noAssets)!;
    expect([...kept]).toEqual(['a']);
    const sent = plan.map((p) => contentOf({ ...p, fields: { title: p.title } }, kept));
    expect(sent.map((p) => [p.id, p.markdown, p.keepDocument ?? false])).toEqual([
      ['a', '', true],
      ['b', '# b', false],
    ]);
  });

  it('rebuilds every page when a file is added, removed, or is no page (a table of contents, an include); assets do not count', () => {
    expect(keptPages(plan, parent, new Map([['c.md', 'A']]), noAssets)).toBeUndefined();
    expect(keptPages(plan, parent, new Map([['b.md', 'D']]), noAssets)).toBeUndefined();
    expect(keptPages(plan, parent, new Map([['SUMMARY.md', 'M']]), noAssets)).toBeUndefined();
    expect(keptPages(plan, parent, new Map([['.gitbook/includes/x.md', 'M']]), noAssets)).toBeUndefined();
    expect([
      ...keptPages(
        plan,
        parent,
        new Map([
          ['.gitbook/assets/x.png', 'A'],
          ['b.md', 'M'],
        ]),
        (p) => p.startsWith('.gitbook/assets/'),
      )!,
    ]).toEqual(['a']);
  });

  it('keeps no page the parent has from another file or blob', () => {
    expect([...keptPages(plan, [page('a', 'other.md', '1'), page('b', 'b.md', '2')], new Map([['b.md', 'M']]), noAssets)!]).toEqual([]);
  });

  it("reads git's name-status output", () => {
    expect([...parseNameStatus('M\0a b.md\0A\0c.md\0D\0d.md\0')]).toEqual([
      ['a b.md', 'M'],
      ['c.md', 'A'],
      ['d.md', 'D'],
    ]);
  });

  describe('without reading the pages it keeps', () => {
    const isAsset = (p: string) => p.startsWith('.gitbook/assets/');
    const blobs = new Map([
      ['a.md', '1'],
      ['b.md', '9'],
      ['SUMMARY.md', 's'],
    ]);

    it('leaves unread the files of the pages a modification of page files keeps', () => {
      expect([...unreadSources(parent, [], blobs, new Map([['b.md', 'M']]), noAssets)!]).toEqual(['a.md']);
      // An asset added: every page is kept, unread, but one whose file has other bytes than the space's.
      expect([...unreadSources(parent, [], new Map([...blobs, ['b.md', '2']]), new Map([['.gitbook/assets/x.png', 'A']]), isAsset)!]).toEqual(['a.md', 'b.md']);
      expect([...unreadSources(parent, [], blobs, new Map([['.gitbook/assets/x.png', 'A']]), isAsset)!]).toEqual(['a.md']);
    });

    it('reads every file when the structure may change: a file added or removed, the table of contents, a reusable content, a page file that is one', () => {
      for (const changed of [{ 'c.md': 'A' }, { 'b.md': 'D' }, { 'SUMMARY.md': 'M' }, { '.gitbook.yaml': 'M' }, { '.gitbook/includes/x.md': 'M' }])
        expect(unreadSources(parent, [], blobs, new Map(Object.entries(changed)), isAsset), JSON.stringify(changed)).toBeUndefined();
      expect(unreadSources(parent, [{ git: { path: 'b.md' } }], blobs, new Map([['b.md', 'M']]), noAssets)).toBeUndefined();
    });

    it('holds while the pages rebuilt keep their slugs and include what the space has', () => {
      const current = { pages: parent, reusableContents: [{ id: 'r' }] };
      const kept = new Set(['a']);
      const unread = new Set(['a.md']);
      expect(unreadPlanHolds({ pages: plan, reusableContents: [{ id: 'r' }] }, unread, kept, current)).toBe(true);
      // A slug moved, a reusable content the space lacks, an unread page not kept: every page is read.
      expect(unreadPlanHolds({ pages: [plan[0]!, { ...plan[1]!, slug: 'b-2' }], reusableContents: [] }, unread, kept, current)).toBe(false);
      expect(unreadPlanHolds({ pages: plan, reusableContents: [{ id: 'new' }] }, unread, kept, current)).toBe(false);
      expect(unreadPlanHolds({ pages: plan, reusableContents: [] }, unread, new Set(), current)).toBe(false);
    });

    it("keeps the space's files the unread pages may link to, unless planned, gone, changed or assets", () => {
      const file = (id: string, path: string, oid: string) => ({ id, git: { path, oid } });
      const files = [
        file('img', 'img.png', 'i'),
        file('planned', 'p.png', 'p'),
        file('gone', 'gone.png', 'g'),
        file('changed', 'c.png', 'old'),
        file('asset', '.gitbook/assets/x.png', 'x'),
      ];
      const now = new Map([
        ['img.png', 'i'],
        ['p.png', 'p'],
        ['c.png', 'new'],
        ['.gitbook/assets/x.png', 'x'],
      ]);
      expect(filesOfUnread(files, new Set(['planned']), now, isAsset).map((f) => f.id)).toEqual(['img']);
    });
  });
});
