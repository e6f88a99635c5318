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
const isAsset = (p: string) => p.startsWith('.gitbook/assets/');
const docs = { isAsset, layout: new Set(['SUMMARY.md', '.gitbook.yaml']) };

describe('a push imported incrementally', () => {
  it('keeps the pages whose files it did not modify, and sends them without markdown', () => {
    const kept = keptPages(plan, parent, new Map([['b.md', 'M']]), docs)!;
    expect([...kept]).toEqual(['a']);
    const sent = plan.map((p) => contentOf({ ...p, fields: { title: p.title } }, kept));
    expect(sent.map((p) => [p.id, p.markdown, p.keepDocument ?? false])).toEqual([
      ['a', '', true],
      ['b', '# b', false],
    ]);
  });

  it('rebuilds every page when a file is added or removed, or is the table of contents, the configuration or no markdown; assets do not count', () => {
    for (const changed of [{ 'c.md': 'A' }, { 'b.md': 'D' }, { 'SUMMARY.md': 'M' }, { '.gitbook.yaml': 'M' }, { 'images/x.png': 'M' }])
      expect(keptPages(plan, parent, new Map(Object.entries(changed)), docs), JSON.stringify(changed)).toBeUndefined();
    const withAsset = new Map([
      ['.gitbook/assets/x.png', 'A'],
      ['b.md', 'M'],
    ]);
    expect([...keptPages(plan, parent, withAsset, docs)!]).toEqual(['a']);
    // A markdown file no page is made of (an include, a contributors' guide): every page keeps its document.
    expect([...keptPages(plan, [page('a', 'a.md', '1'), page('b', 'b.md', '9')], new Map([['.gitbook/includes/x.md', 'M']]), docs)!]).toEqual(['a', 'b']);
  });

  it('keeps no page the parent has from another file or blob', () => {
    expect([...keptPages(plan, [page('a', 'other.md', '1'), page('b', 'b.md', '2')], new Map([['b.md', 'M']]), docs)!]).toEqual([]);
  });

  it("reads git's name-status output", () => {
    expect([...parseNameStatus('M\0a b.md\0A\0c.md\0D\0d.md\0')]).toEqual([
      ['a b.md', 'M'],
      ['c.md', 'A'],
      ['d.md', 'D'],
    ]);
  });

  describe('without reading the pages it keeps', () => {
    const blobs = new Map([
      ['a.md', '1'],
      ['b.md', '9'],
      ['SUMMARY.md', 's'],
    ]);

    it('leaves unread the files of the pages a modification of page files keeps', () => {
      expect([...unreadSources(parent, [], blobs, new Map([['b.md', 'M']]), docs)!]).toEqual(['a.md']);
      // A markdown file no page is made of and none includes: no page's text is read.
      expect([...unreadSources(parent, [], new Map([...blobs, ['b.md', '2']]), new Map([['CONTRIBUTING.md', 'M']]), docs)!]).toEqual(['a.md', 'b.md']);
      // An asset added: every page is kept, unread, but one whose file has other bytes than the space's.
      expect([...unreadSources(parent, [], new Map([...blobs, ['b.md', '2']]), new Map([['.gitbook/assets/x.png', 'A']]), docs)!]).toEqual(['a.md', 'b.md']);
      expect([...unreadSources(parent, [], blobs, new Map([['.gitbook/assets/x.png', 'A']]), docs)!]).toEqual(['a.md']);
    });

    it('reads every file when the structure may change, or a reusable content (a page file may be one)', () => {
      for (const changed of [{ 'c.md': 'A' }, { 'b.md': 'D' }, { 'SUMMARY.md': 'M' }, { '.gitbook.yaml': 'M' }, { 'images/x.png': 'M' }])
        expect(unreadSources(parent, [], blobs, new Map(Object.entries(changed)), docs), JSON.stringify(changed)).toBeUndefined();
      for (const path of ['.gitbook/includes/x.md', 'b.md']) expect(unreadSources(parent, [{ git: { path } }], blobs, new Map([[path, 'M']]), docs), path).toBeUndefined();
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
