import { fromMarkdown, paragraph, text, toMarkdown, type JSONDocument } from '@quire/document';
import { describe, expect, it } from 'vitest';
import { applyChanges, documentId, documentOfModel, fieldsFromMarkdown, resolveRefs, saysMoreThanMarkdown, type Change } from './changes.ts';
import { treeFromContent } from './content-tree.ts';
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
    expect(applied.documents.get(documentId('hello'))).toEqual({ markdown: 'hello' });
    expect(applied.documents.get(documentId(''))).toEqual({ markdown: '' });
  });

  it("slugs a new page's title as GitBook and Git import do, other scripts transliterated", () => {
    const r = applyChanges(emptyTree(), [insert('Установка'), insert('安装指南'), insert('Q&A')], ctx());
    expect(r.tree.pages.map((p) => p.slug)).toEqual(['ustanovka', 'an-zhuang-zhi-nan', 'q-and-a']);
  });

  it('takes the title from the leading heading when none is given, and drops it from the body', () => {
    const r = applyChanges(emptyTree(), [{ insertPage: { type: 'document', href: '', ref: '', markdown: '# Getting started\n\nBody' } }], ctx());
    expect(r.tree.pages[0]).toMatchObject({ title: 'Getting started', slug: 'getting-started' });
    expect([...r.documents.values()]).toEqual([{ markdown: 'Body' }]);
  });

  it('keeps a document markdown cannot carry beside its markdown, by a stable id', () => {
    const doc = (): JSONDocument => ({
      object: 'document',
      data: {},
      nodes: [
        paragraph([
          text('Hi '),
          { object: 'inline', type: 'emoji', isVoid: true, data: { code: '1f600' } },
          { object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user: 'u1' } } },
        ]),
      ],
    });
    const r = applyChanges(emptyTree(), [insert('P', { document: doc() })], ctx());
    const id = r.tree.pages[0]!.documentId!;
    expect(r.documents.get(id)).toEqual({ markdown: toMarkdown(doc()), document: doc() });
    expect(id).not.toBe(documentId(toMarkdown(doc())));
    // The same document with its keys in another order is the same document.
    const reversed = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(reversed)
        : v && typeof v === 'object'
          ? Object.fromEntries(
              Object.entries(v)
                .reverse()
                .map(([k, x]) => [k, reversed(x)]),
            )
          : v;
    const reordered = reversed(doc()) as JSONDocument;
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(doc()));
    expect(documentOfModel('x', reordered).id).toBe(id);
  });

  it('gives a document its markdown says exactly the id and row of that markdown', () => {
    const markdown = 'Hello **world**.\n';
    const r = applyChanges(emptyTree(), [insert('P', { document: fromMarkdown(markdown) })], ctx());
    expect(r.tree.pages[0]!.documentId).toBe(documentId(markdown));
    expect(r.documents.get(documentId(markdown))).toEqual({ markdown });
    expect(saysMoreThanMarkdown(documentId(markdown), markdown)).toBe(false);
  });

  it('tells a document that says more than its markdown by its id', () => {
    const mention = paragraph([text('Ask '), { object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user: 'u1' } } }]);
    const { id, body } = documentOfModel('x', { object: 'document', data: {}, nodes: [mention] });
    expect(saysMoreThanMarkdown(id, body.markdown)).toBe(true);
  });

  it("takes a document's leading heading as the title when none is given", () => {
    const r = applyChanges(emptyTree(), [{ insertPage: { type: '', href: '', ref: '', document: fromMarkdown('# Start\n\nBody\n') } }], ctx());
    expect(r.tree.pages[0]).toMatchObject({ title: 'Start', documentId: documentId('Body\n') });
  });

  it('resolves refs in a document to app links', () => {
    const r = applyChanges(emptyTree(), [insert('A', { ref: 'a', document: fromMarkdown('See [b](./b.md#x)') }), insert('B', { ref: 'b' })], ctx());
    const b = r.changes.find((c) => c.ref === 'b')!.pageId;
    expect(r.documents.get(r.tree.pages[0]!.documentId!)).toEqual({ markdown: `See [b](/pages/${b}#x)\n` });
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
    const md = r.documents.get(r.tree.pages[0]!.documentId!)!.markdown;
    expect(md).toBe(`See [b](/pages/${b}) and ![img](/files/${r.insertedFiles[0]!.id} "t")`);
  });

  // Attack: a file name that is a path would be written outside the space's folder by Git export.
  it('makes inserted file names one harmless path segment', () => {
    const names = ['../../.github/workflows/x.yml', '../.git/hooks/post-checkout', '..\\..\\evil.png', '.git', '/etc/passwd', 'screen shot.png'];
    const r = applyChanges(emptyTree(), [{ insertFiles: { files: names.map((name, i) => ({ ref: `f${i}`, name, contentType: '', blob: 'f'.repeat(64), size: 1 })) } }], ctx());
    expect(r.tree.files.map((f) => f.name)).toEqual(['-..-.github-workflows-x.yml', '-.git-hooks-post-checkout', '-..-evil.png', 'git', '-etc-passwd', 'screen shot.png']);
    // NUL no store takes: refused, naming the file.
    expect(() => applyChanges(emptyTree(), [{ insertFiles: { files: [{ ref: 'f', name: 'a\u0000b.png', contentType: '', blob: 'f'.repeat(64), size: 1 }] } }], ctx())).toThrow(
      'changes[0].files[0].name: text must not contain NUL (\\u0000)',
    );
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

  it('leaves the base tree alone, frozen as the store keeps it, whatever the changes', () => {
    const { tree, intro, setup, faq } = base();
    findPage(tree.pages, setup)!.page.git = { oid: 'abc', path: 'setup.md' };
    const before = structuredClone(tree);
    const freeze = (v: unknown) => {
      if (v && typeof v === 'object') Object.values(v).forEach(freeze);
      Object.freeze(v);
    };
    freeze(tree);
    const r = applyChanges(
      tree,
      [
        { updatePage: { page: setup, fields: { title: 'Moved', emoji: '1f600', hidden: true }, markdown: 'y', move: true, into: faq } },
        { updatePage: { page: intro, fields: { description: 'd' }, move: true, at: 1 } },
        { revertPage: { page: setup, revision: 'r1' } },
        insert('New', { into: intro }),
        { deletePage: { page: faq } },
      ],
      ctx(new Map([['r1', tree]])),
    );
    expect(tree).toEqual(before);
    expect(paths(r.tree)).toEqual(['intro', 'intro/new']);
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

  it("keeps an unchanged Git file's page as it was: its markdown is not parsed, no document written for it", () => {
    const git = (path: string, oid: string) => ({ path, oid });
    const first = treeFromContent(
      [
        { id: 'a', type: '', markdown: '# A\nalpha', href: '', git: git('a.md', '1'), pages: [] },
        { id: 'b', type: '', markdown: '# B\nbeta', href: '', git: git('b.md', '2'), pages: [] },
      ],
      [],
      emptyTree(),
      ctx(),
    );
    const [a, b] = first.tree.pages;
    // `a` kept (its markdown, which would not even parse as its title, is not read); `b` changed.
    const next = treeFromContent(
      [
        { id: 'a', type: '', markdown: '# Not read', href: '', git: git('a.md', '1'), keepDocument: true, pages: [] },
        { id: 'b', type: '', markdown: '# B\nbeta, changed', href: '', git: git('b.md', '3'), pages: [] },
      ],
      [],
      first.tree,
      ctx(),
    );
    expect(next.tree.pages[0]).toEqual(a);
    expect(next.tree.pages[1]!.documentId).not.toBe(b!.documentId);
    expect([...next.documents.keys()]).toEqual([next.tree.pages[1]!.documentId]);
  });

  it('keeps no page from another Git file, or one the parent does not have: the request is refused', () => {
    const first = treeFromContent([{ id: 'a', type: '', markdown: 'alpha', href: '', git: { path: 'a.md', oid: '1' }, pages: [] }], [], emptyTree(), ctx());
    const keep = (id: string, git?: { path: string; oid: string }) => () =>
      treeFromContent([{ id, type: '', markdown: '', href: '', ...(git ? { git } : {}), keepDocument: true, pages: [] }], [], first.tree, ctx());
    expect(keep('a', { path: 'a.md', oid: '2' })).toThrow(/pages\[0\]\.keepDocument: the parent revision has no document page "a" from a\.md at 2/);
    expect(keep('a', { path: 'other.md', oid: '1' })).toThrow(/keepDocument/);
    expect(keep('a')).toThrow(/keepDocument/);
    expect(keep('zz', { path: 'a.md', oid: '1' })).toThrow(/no document page "zz"/);
  });
});
