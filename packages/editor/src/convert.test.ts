import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromMarkdown, parseMarkdown, toMarkdown } from '@quire/document';
import { fromEditor, toEditor } from '@quire/editor';

// The document model's own fixtures (GitBook's syntax, every block): a page opened in the editor
// and saved untouched must write the same markdown.
const fixtures = new URL('../../document/test/fixtures/', import.meta.url);
const names = readdirSync(fixtures).filter((n) => n.endsWith('.md') && n !== 'frontmatter.md');

describe('document ⇄ editor', () => {
  it.each(names)('%s survives the editor unchanged', (name) => {
    const markdown = readFileSync(new URL(name, fixtures), 'utf8');
    const { document } = parseMarkdown(markdown);
    expect(toMarkdown(fromEditor(toEditor(document)))).toBe(toMarkdown(document));
  });

  it('maps the blocks to editable nodes', () => {
    const doc = fromMarkdown(
      '# Title\n\n- a\n- b\n\n1. one\n\n- [x] done\n\n```ts\nx\n```\n\n{% hint style="danger" %}\nHot\n{% endhint %}\n\n> q\n\n---\n\n![logo](https://x.test/a.png)\n\n| a | b |\n| - | - |\n| 1 | 2 |\n',
    );
    const types = toEditor(doc).content!.map((n) => n.type);
    expect(types).toEqual(['heading', 'bulletList', 'orderedList', 'taskList', 'codeBlock', 'hint', 'blockquote', 'horizontalRule', 'image', 'table']);
  });

  it('writes what is typed: marks, links and code lines', () => {
    const edited = {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Setup' }] },
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'Run ' },
            { type: 'text', text: 'pnpm', marks: [{ type: 'code' }] },
            { type: 'text', text: ' then read ' },
            { type: 'text', text: 'the docs', marks: [{ type: 'link', attrs: { href: 'https://example.com' } }, { type: 'bold' }] },
          ],
        },
        { type: 'codeBlock', attrs: { language: 'sh' }, content: [{ type: 'text', text: 'a\nb' }] },
        { type: 'hint', attrs: { style: 'warning' }, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Careful' }] }] },
      ],
    };
    expect(toMarkdown(fromEditor(edited))).toBe(
      '## Setup\n\nRun `pnpm` then read [**the docs**](https://example.com)\n\n```sh\na\nb\n```\n\n{% hint style="warning" %}\nCareful\n{% endhint %}\n',
    );
  });
});
