import { describe, expect, it } from 'vitest';
import { applyChanges, documentId, fieldsFromMarkdown, resolveRefs, treeFromContent, type Change } from './changes.ts';
import { emptyTree, findPage, flatten, type Tree } from './tree.ts';

let n = 0;
const ctx = (revisions = new Map<string, Tree>()) => ({ now: new Date('2026-01-01T00:00:00Z'), newId: () => `id${++n}`, revisions });
const insert = (title: string, extra: Partial<Extract<Change, { insertPage: unknown }>['insertPage']> = {}): Change => ({
  insertPage: { fields: { title }, type: '', href: '', ref: '', ...extra },
});
const paths = (t: Tree) => flatten(t.pages).map((l) => l.path);

function base() {
  const r = applyChanges(
    emptyTree(),
    [insert('Intro', { ref: 'intro', markdown: 'hello' }), insert('Setup', { into: 'intro', ref: 'setup' }), insert('FAQ', { ref: 'faq' })],
    ctx(),
  );
  const id = (ref: string) => r.changes.find((c) => c.ref === ref)!.pageId;
  return { tree: r.tree, intro: id('intro'), setup: id('setup'), faq: id('faq'), applied: r };
}

describe('applyChanges', () => {
  it('inserts pages by ref, nests them and writes their documents', () => {
    const { tree, applied } = base();
    expect(paths(tree)).toEqual(['intro', 'intro/setup', 'faq']);
    expect(applied.changes.map((c) => c.kind)).toEqual(['created_page', 'created_page', 'created_page']);
    expect(tree.pages[0]!.documentId).toBe(documentId('hello'));
    expect(applied.documents.get(documentId('hello'))).toBe('hello');
    expect(applied.documents.get(documentId(''))).toBe('');
  });

  it('takes the title from the leading heading when none is given, and drops it from the body', () => {
    const r = applyChanges(emptyTree(), [{ insertPage: { type: 'document', href: '', ref: '', markdown: '# Getting started\n\nBody' } }], ctx());
    expect(r.tree.pages[0]).toMatchObject({ title: 'Getting started', slug: 'getting-started' });
    expect([...r.documents.values()]).toEqual(['Body']);
  });

  it('resolves refs in markdown links to app links, whatever the order', () => {
    const r = applyChanges(
      emptyTree(),
      [
        insert('A', { ref: 'a', markdown: 'See [b](./b.md) and ![img](./pic "t")' }),
        insert('B', { ref: 'b' }),
        { insertFiles: { files: [{ ref: 'pic', name: 'pic.png', contentType: 'image/png', blob: 'f'.repeat(64), size: 3 }] } },
      ],
      ctx(),
    );
    const b = r.changes.find((c) => c.ref === 'b')!.pageId;
    const md = r.documents.get(r.tree.pages[0]!.documentId!)!;
    expect(md).toBe(`See [b](/pages/${b}) and ![img](/files/${r.insertedFiles[0]!.id} "t")`);
  });

  // Attack: a file name that is a path would be written outside the space's folder by Git export.
  it('makes inserted file names one harmless path segment', () => {
    const names = ['../../.github/workflows/x.yml', '../.git/hooks/post-checkout', '..\\..\\evil.png', '.git', '/etc/passwd', 'a\u0000b.png', 'screen shot.png'];
    const r = applyChanges(emptyTree(), [{ insertFiles: { files: names.map((name, i) => ({ ref: `f${i}`, name, contentType: '', blob: 'f'.repeat(64), size: 1 })) } }], ctx());
    expect(r.tree.files.map((f) => f.name)).toEqual([
      '-..-.github-workflows-x.yml',
      '-.git-hooks-post-checkout',
      '-..-evil.png',
      'git',
      '-etc-passwd',
      'a-b.png',
      'screen shot.png',
    ]);
  });

  it('updates fields and markdown, and moves pages among siblings and parents', () => {
    const { tree, intro, faq } = base();
    const r = applyChanges(tree, [{ updatePage: { page: faq, fields: { title: 'Questions', emoji: '❓' }, markdown: 'new', move: true, into: intro, at: 0 } }], ctx());
    expect(paths(r.tree)).toEqual(['intro', 'intro/faq', 'intro/setup']);
    expect(findPage(r.tree.pages, faq)!.page).toMatchObject({ title: 'Questions', emoji: '❓', documentId: documentId('new'), slug: 'faq' });
    expect(r.changes).toEqual([{ kind: 'updated_page', pageId: faq, ref: '' }]);
    expect(paths(tree)).toEqual(['intro', 'intro/setup', 'faq']);
  });

  it('reorders a page under its current parent with keepParent, wherever `into` points', () => {
    const { tree, intro, setup } = base();
    const nested = applyChanges(tree, [insert('Second', { into: intro, ref: 'second' })], ctx()).tree;
    const r = applyChanges(nested, [{ updatePage: { page: setup, move: true, keepParent: true, into: 'ignored', at: 1 } }], ctx());
    expect(paths(r.tree)).toEqual(['intro', 'intro/second', 'intro/setup', 'faq']);
  });

  it('refuses to move a page under itself or its own pages', () => {
    const { tree, intro, setup } = base();
    expect(() => applyChanges(tree, [{ updatePage: { page: intro, move: true, into: setup } }], ctx())).toThrow(/changes\[0\]\.into: cannot move page/);
  });

  it('deletes a page with its subpages', () => {
    const { tree, intro, setup } = base();
    const r = applyChanges(tree, [{ deletePage: { page: intro } }], ctx());
    expect(paths(r.tree)).toEqual(['faq']);
    expect(r.changes.map((c) => [c.kind, c.pageId])).toEqual([
      ['deleted_page', intro],
      ['deleted_page', setup],
    ]);
  });

  it('reverts a page to the base: fields and document back, a deleted page restored, a new one removed', () => {
    const { tree, intro, faq } = base();
    const edited = applyChanges(
      tree,
      [{ updatePage: { page: intro, fields: { title: 'Changed' }, markdown: 'x', move: false } }, { deletePage: { page: faq } }, insert('New', { ref: 'new' })],
      ctx(),
    ).tree;
    const added = flatten(edited.pages).find((l) => l.page.title === 'New')!.page.id;
    const r = applyChanges(
      edited,
      [{ revertPage: { page: intro, revision: 'r1' } }, { revertPage: { page: faq, revision: 'r1' } }, { revertPage: { page: added, revision: 'r1' } }],
      ctx(new Map([['r1', tree]])),
    );
    expect(paths(r.tree)).toEqual(['intro', 'intro/setup', 'faq']);
    expect(findPage(r.tree.pages, intro)!.page).toMatchObject({ title: 'Intro', documentId: documentId('hello') });
  });

  it('names the bad change and rejects the batch', () => {
    const { tree } = base();
    expect(() => applyChanges(tree, [insert('ok'), { deletePage: { page: 'nope' } }], ctx())).toThrow('changes[1]: page "nope" not found');
    expect(() =>
      applyChanges(
        tree,
        Array.from({ length: 51 }, () => insert('x')),
        ctx(),
      ),
    ).toThrow(/at most 50/);
    expect(() => applyChanges(tree, [insert('g', { type: 'group', into: tree.pages[0]!.id })], ctx())).toThrow(/changes\[0\]\.into: groups are top-level/);
    expect(() => applyChanges(tree, [insert('x', { ref: 'r' }), insert('y', { ref: 'r' })], ctx())).toThrow(/changes\[1\]\.ref/);
  });

  // Git Sync keeps a file's name as its page's slug (`api_v2.1`): dots inside, never at an end.
  it('takes slugs with dots and underscores inside, not at either end or with other characters', () => {
    const { tree } = base();
    const r = applyChanges(tree, [insert('API', { fields: { title: 'API', slug: 'api_v2.1' } })], ctx());
    expect(r.tree.pages.at(-1)!.slug).toBe('api_v2.1');
    for (const slug of ['.hidden', 'end.', 'a/b', 'Upper', 'a b'])
      expect(() => applyChanges(tree, [insert('x', { fields: { title: 'x', slug } })], ctx())).toThrow(/slug: must be/);
  });
});

describe('fieldsFromMarkdown', () => {
  it('reads title, description and icon from front matter, keeping given fields', () => {
    expect(fieldsFromMarkdown('---\ndescription: About\nicon: book\n---\nText', { title: 'T' })).toEqual({
      fields: { title: 'T', description: 'About', icon: 'book' },
      markdown: 'Text',
    });
  });

  it('takes the leading heading without its closing hashes, keeping a "#" that ends a word', () => {
    expect(fieldsFromMarkdown('  # Spaced title ##  \n\n\nBody', {})).toEqual({ fields: { title: 'Spaced title' }, markdown: 'Body' });
    expect(fieldsFromMarkdown('# Learn C#\nBody', {})).toEqual({ fields: { title: 'Learn C#' }, markdown: 'Body' });
    expect(fieldsFromMarkdown('# \nBody', {})).toEqual({ fields: {}, markdown: '# \nBody' });
  });

  // Attack: spaces then a non-space after a heading's start made the pattern backtrack in cubic
  // time (2 KB blocked the content service for about 6 s).
  it("reads an attacker's heading in linear time", () => {
    const attacks: [string, string | undefined][] = [
      ['# a' + ' '.repeat(2000) + 'x', 'a' + ' '.repeat(2000) + 'x'],
      ['# a' + ' '.repeat(200_000) + 'x', undefined],
      ['#' + ' \t'.repeat(1000) + '#'.repeat(1000) + 'x\r', '#'.repeat(1000) + 'x'],
    ];
    for (const [markdown, title] of attacks) {
      const started = performance.now();
      const { fields } = fieldsFromMarkdown(markdown, {});
      expect(performance.now() - started).toBeLessThan(100);
      expect(fields.title).toBe(title);
    }
  });
});

describe('resolveRefs', () => {
  it('leaves unknown refs and other links alone', () => {
    expect(resolveRefs('[a](./x) [b](https://e.org) [c](./y.md#s)\n[d]: ./y', (r) => (r === 'y' ? '/pages/Y' : undefined))).toBe(
      '[a](./x) [b](https://e.org) [c](/pages/Y#s)\n[d]: /pages/Y',
    );
  });
});

describe('treeFromContent', () => {
  it('keeps given ids and the creation time of pages the previous tree had', () => {
    const first = treeFromContent([{ id: 'p1', type: '', markdown: '# One\nbody', href: '', pages: [] }], [], emptyTree(), ctx());
    const later = { ...ctx(), now: new Date('2027-01-01T00:00:00Z') };
    const again = treeFromContent([{ id: 'p1', type: '', markdown: '# One\nbody', href: '', pages: [] }], [], first.tree, later);
    expect(again.tree.pages[0]).toMatchObject({ id: 'p1', title: 'One', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' });
    expect(() =>
      treeFromContent([{ id: 'p1', type: '', markdown: '', href: '', pages: [{ id: 'p1', type: '', markdown: '', href: '', pages: [] }] }], [], emptyTree(), ctx()),
    ).toThrow(/pages\[0\]\.pages\[0\]\.id: "p1" is used twice/);
  });
});
