import type { File, Page } from '@quire/proto/space-content';
import { unzipSync } from 'fflate';
import { paragraph, text as textNode } from '@quire/document';
import { describe, expect, it } from 'vitest';
import { staticSiteZip } from '../src/static-site.ts';

const page = (id: string, title: string, path: string, pages: Page[] = [], type = 'document', markdown = ''): Page => ({ id, title, path, pages, type, markdown }) as Page;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describe('static HTML site', () => {
  const install = page('p2', 'Install <fast>', 'guide/install', [], 'document', 'Run `pnpm add quire`. Back to the [guide](../README.md) or [faq](/pages/p3).\n');
  const guide = page('p1', 'Guide', 'guide', [install], 'document', 'Start with [installing](install.md), then the [FAQ](../faq.md).\n\n![logo](.gitbook/assets/logo.png)\n');
  const faq = page('p3', 'FAQ', 'faq', [], 'document', 'Answers. <script>alert(1)</script>\n\n{% include "rc1" %}\n');
  // Written through the document model: its markdown (`[](<> "mention")`) no longer names the member.
  const team: Page = {
    ...page('p4', 'Team', 'team', [], 'document', 'Ask [](<> "mention").\n'),
    documentJson: JSON.stringify({
      object: 'document',
      data: {},
      nodes: [paragraph([textNode('Ask '), { object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user: 'u1' } } }, textNode('.')])],
    }),
  };
  const tree = [guide, page('g', 'Reference', 'reference', [faq], 'group'), team];
  const logo = { id: 'f1', name: 'logo.png' } as File;
  const zip = staticSiteZip({
    title: 'Acme Docs',
    tree,
    files: [{ file: logo, data: PNG }],
    reusableContents: new Map([['rc1', 'Shared *answer*.\n']]),
    memberNames: new Map([['u1', 'Ada <Lovelace>']]),
  });
  const entries = unzipSync(zip);
  const text = (path: string) => new TextDecoder().decode(entries[path]);

  it('writes a page per document at its path, the stylesheet, the files and a start page', () => {
    expect(Object.keys(entries).sort()).toEqual(['faq.html', 'files/f1/logo.png', 'guide.html', 'guide/install.html', 'index.html', 'reader.css', 'team.html']);
    expect(Buffer.from(entries['files/f1/logo.png']!).equals(PNG)).toBe(true);
    expect(text('reader.css')).toContain('.sidebar');
    expect(text('index.html')).toContain('url=guide.html');
    expect(text('guide/install.html')).toContain('<h1>Install &lt;fast&gt;</h1>');
    expect(text('faq.html')).not.toContain('<script>');
    // What a page includes, in place.
    expect(text('faq.html')).toContain('<p>Shared <em>answer</em>.</p>');
  });

  it("renders a page from its document when it says more than its markdown: a mention shows the member's name", () => {
    expect(text('team.html')).toContain('<p>Ask <span class="mention">Ada &#x3C;Lovelace></span>.</p>');
  });

  it('links pages, files and the stylesheet relatively, every link to a file in the archive', () => {
    for (const path of ['guide.html', 'guide/install.html', 'faq.html']) {
      const html = text(path);
      const targets = [...html.matchAll(/(?:href|src)="([^"#]+)(?:#[^"]*)?"/g)].map((m) => m[1]!).filter((h) => !/^[a-z]+:/.test(h));
      expect(targets.length).toBeGreaterThan(3);
      for (const target of targets) {
        const resolved = decodeURIComponent(new URL(target, `https://site.test/${path}`).pathname.slice(1));
        expect(entries[resolved], `${path} → ${target}`).toBeDefined();
      }
    }
    expect(text('guide.html')).toContain('href="guide/install.html"');
    expect(text('guide.html')).toContain('src="files/f1/logo.png"');
    expect(text('guide/install.html')).toContain('href="../faq.html"');
    expect(text('guide/install.html')).toContain('href="../reader.css"');
  });
});
