import { describe, expect, it } from 'vitest';
import { fromMarkdown, inlineReusableContents, MAX_INCLUDE_DEPTH, sections, toHtml, toMarkdown } from '../src/index.ts';

const docs: Record<string, string> = {
  steps: '## Steps\n\n1. Download $$x^2$$\n\n{% include "footer" %}\n',
  footer: 'Footer *text*.\n',
  self: 'Self.\n\n{% include "self" %}\n',
  a: 'In A.\n\n{% include "b" %}\n',
  b: 'In B.\n\n{% include "a" %}\n',
};
const lookup = (id: string) => (docs[id] === undefined ? undefined : fromMarkdown(docs[id]));
const inline = (markdown: string, by = lookup) => inlineReusableContents(fromMarkdown(markdown), by);

describe('inlineReusableContents', () => {
  it('puts the included blocks in place, nested ones too, in expandables as well; unknown ones stay includes', () => {
    const page = inline(
      '## Steps\n\nBefore.\n\n{% include "steps" %}\n\n<details>\n\n<summary>More</summary>\n\n{% include "footer" %}\n\n</details>\n\n{% include "../.gitbook/includes/missing.md" %}\n',
    );
    expect(toMarkdown(page)).toBe(
      '## Steps\n\nBefore.\n\n## Steps\n\n1. Download $$x^2$$\n\nFooter _text_.\n\n<details>\n\n<summary>More</summary>\n\nFooter _text_.\n\n</details>\n\n{% include "../.gitbook/includes/missing.md" %}\n',
    );
    // Rendered as the page's own: anchors stay unique across the page and what it includes.
    expect(toHtml(page, { math: 'source' })).toContain(
      '<h2 id="steps">Steps</h2><p>Before.</p><h2 id="steps-1">Steps</h2><ol><li><p>Download <span class="math math-inline"><code>x^2</code></span></p></li></ol><p>Footer <em>text</em>.</p>',
    );
    expect(sections(page).map((s) => s.anchor)).toEqual(['steps', 'steps-1']);
    // The unknown include renders nothing.
    expect(toHtml(fromMarkdown('{% include "nope" %}'))).toBe('');
  });

  it('stops at an include of itself, directly or through others, and at the depth bound', () => {
    expect(toMarkdown(inline('{% include "self" %}'))).toBe('Self.\n\n{% include "self" %}\n');
    expect(toMarkdown(inline('{% include "a" %}'))).toBe('In A.\n\nIn B.\n\n{% include "a" %}\n');
    expect(toHtml(inline('{% include "a" %}'))).toBe('<p>In A.</p><p>In B.</p>');
    // A chain with a new id at every level: cut after MAX_INCLUDE_DEPTH.
    const chain = (id: string) => fromMarkdown(`L${id}\n\n{% include "${Number(id) + 1}" %}\n`);
    const out = toMarkdown(inline('{% include "0" %}', chain));
    expect(out.match(/^L\d+$/gm)).toHaveLength(MAX_INCLUDE_DEPTH);
    expect(out).toContain(`{% include "${MAX_INCLUDE_DEPTH}" %}`);
  });

  it('markdown writes an include as refToUrl answers it, the ref as read otherwise', () => {
    const document = fromMarkdown('{% include "rc1" %}\n');
    expect(toMarkdown(document)).toBe('{% include "rc1" %}\n');
    expect(
      toMarkdown(document, {
        refToUrl: (ref, context) => (ref.kind === 'reusable-content' && context === 'include' ? `../.gitbook/includes/${ref.reusableContent}.md` : undefined),
      }),
    ).toBe('{% include "../.gitbook/includes/rc1.md" %}\n');
  });
});
