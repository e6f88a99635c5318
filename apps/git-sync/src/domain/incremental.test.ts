import { describe, expect, it } from 'vitest';
import { contentOf, keptPages, parseNameStatus } from './incremental.ts';

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
});
