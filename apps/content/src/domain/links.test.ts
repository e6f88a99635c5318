import { describe, expect, it } from 'vitest';
import { isInApp, linkUsages, pageAnchors, resolveLink, resolvePagePath, revisionView, type LinkPage } from './links.ts';
import { analyze } from './markdown.ts';

const links = (markdown: string) => analyze({ markdown }).links;

const page = (id: string, path: string, anchors: string[] = [], hasChildren = false): LinkPage => ({ id, path, hasChildren, anchors: new Set(anchors) });

const intro = page('p-intro', 'intro', ['welcome']);
const guide = page('p-guide', 'guide', ['overview'], true);
const setup = page('p-setup', 'guide/setup', ['install']);
const rev = revisionView([intro, guide, setup], ['f-logo'], 'https://app.quire.test');

describe('resolvePagePath', () => {
  it("resolves against the directory of the page's markdown file", () => {
    expect(resolvePagePath(setup, '../intro.md')).toBe('intro');
    expect(resolvePagePath(setup, './other.md')).toBe('guide/other');
    // A page with children is its folder's README.md.
    expect(resolvePagePath(guide, 'setup.md')).toBe('guide/setup');
    expect(resolvePagePath(intro, 'guide/README.md')).toBe('guide');
    expect(resolvePagePath(intro, '../../x.md')).toBeUndefined();
  });
});

describe('resolveLink', () => {
  const status = (href: string, from = setup) => resolveLink(links(`[x](${href})`)[0]!, from, rev).status;

  it('checks pages, their anchors, files and same-page anchors against the revision', () => {
    expect(status('/pages/p-intro')).toBe('ok');
    expect(status('/pages/p-intro#welcome')).toBe('ok');
    expect(status('/pages/p-intro#nowhere')).toBe('broken');
    expect(status('/pages/p-gone')).toBe('broken');
    expect(status('../intro.md#welcome')).toBe('ok');
    expect(status('../missing.md')).toBe('broken');
    expect(status('/files/f-logo')).toBe('ok');
    expect(status('/files/f-gone')).toBe('broken');
    expect(status('#install')).toBe('ok');
    expect(status('#welcome')).toBe('broken');
  });

  it('tells links into the app from links to the outside', () => {
    expect(status('https://example.com/x')).toBe('ok');
    expect(status('https://app.quire.test/o/a/s/b')).toBe('in-app');
    expect(status('/o/a/s/b')).toBe('in-app');
    expect(isInApp('//cdn.example.com/x', 'https://app.quire.test')).toBe(false);
    expect(isInApp('https://example.com', undefined)).toBe(false);
  });

  it('names the page a relative path resolves to', () => {
    expect(resolveLink(links('[x](../intro.md)')[0]!, setup, rev).target).toMatchObject({ kind: 'page', pageId: 'p-intro', url: '' });
    expect(resolveLink(links('[x](../nope.md)')[0]!, setup, rev).target).toMatchObject({ kind: 'page', pageId: '', url: '../nope.md' });
  });
});

describe('linkUsages', () => {
  it('groups by relation and target, listing each linking page once', () => {
    const usages = linkUsages(
      [
        { page: intro, links: links('[a](/pages/p-setup) [b](/pages/p-setup) ![c](/files/f-logo) [t](#top)') },
        { page: setup, links: links('[a](/pages/p-setup) [l](/files/f-logo) [t](#top)') },
      ],
      rev,
    );
    expect(usages.map((u) => [u.relation, u.target.kind, u.target.pageId || u.target.fileId, u.status, u.pageIds])).toEqual([
      ['link', 'page', 'p-setup', 'ok', ['p-intro', 'p-setup']],
      ['embed', 'file', 'f-logo', 'ok', ['p-intro']],
      ['link', 'anchor', 'p-intro', 'broken', ['p-intro']],
      ['link', 'file', 'f-logo', 'ok', ['p-setup']],
      ['link', 'anchor', 'p-setup', 'broken', ['p-setup']],
    ]);
  });
});

describe('pageAnchors', () => {
  it("takes the stored anchors and each heading's anchor as GitBook spells it, made unique in order", () => {
    // Indexed before anchors were transliterated: the stored ones kept CJK letters.
    const anchors = pageAnchors([
      { anchor: '准备', title: '准备' },
      { anchor: '准备-1', title: '准备' },
      { anchor: 'custom-id', title: 'Установка' },
    ]);
    expect([...anchors].sort()).toEqual(['custom-id', 'ustanovka', 'zhun-bei', 'zhun-bei-1', '准备', '准备-1'].sort());
  });
});
