import { Node } from '@tiptap/core';
import katex from 'katex';
import { emojiText, type ContentRef as Ref } from '@quire/document';
import { inlineFields, refValue, type Choices, type Json } from './fields.ts';
import { attrField, byAttrs, byJson, popoverView, refUrl } from './node-views.ts';

// The model's inline atoms and math, shown rendered with their fields in a panel (node-views.ts).

const INLINE_NAMES: Record<string, string> = { icon: 'Icon', emoji: 'Emoji', mention: 'Mention', button: 'Button', 'inline-image': 'Inline image' };

function renderInline(value: Json, choices: Choices, into: HTMLElement) {
  const data = (value.data ?? {}) as Record<string, unknown>;
  const ref = data.ref as Ref | undefined;
  into.replaceChildren();
  into.className = '';
  switch (value.type) {
    case 'emoji':
      into.textContent = emojiText(String(data.code ?? ''));
      return;
    case 'mention': {
      const found = ref?.kind === 'user' ? choices.users.find((u) => u.id === ref.user) : ref?.kind === 'page' ? choices.pages.find((p) => p.id === ref.page) : undefined;
      into.className = 'mention';
      // A target the space does not list shows its id or URL; none yet, an ellipsis.
      into.textContent = `@${(found?.title ?? (ref ? refValue(ref).replace(/^\w+:/, '') : '')) || '…'}`;
      return;
    }
    case 'button':
      into.className = `button button-${String(data.kind)}`;
      into.textContent = String(data.label ?? '');
      return;
    case 'inline-image': {
      const img = document.createElement('img');
      img.src = (ref && refUrl(choices)(ref)) ?? '';
      img.alt = String(data.caption ?? '');
      if (data.size) img.className = `inline-image-${String(data.size)}`;
      into.append(img);
      return;
    }
    default:
      // Icons (their name) and expressions: their text.
      into.textContent = String(data.icon ?? data.expression ?? value.type ?? '…');
  }
}

/** The model's void inlines (emoji, mentions, buttons, inline images, icons; expressions, shown only), kept whole as JSON. */
export const ModelInline = Node.create({
  name: 'gbInline',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  addAttributes: () => ({ inline: { default: '{}' } }),
  parseHTML: () => [{ tag: 'span[data-gb-inline]', getAttrs: (el) => ({ inline: el.getAttribute('data-gb-inline') }) }],
  renderHTML: ({ node }) => ['span', { 'data-gb-inline': node.attrs.inline }],
  addNodeView: () =>
    popoverView(
      'span',
      (value) => INLINE_NAMES[String(value.type)] ?? String(value.type),
      renderInline,
      (value) => inlineFields(value) ?? [],
      byJson('inline'),
    ),
});

/** Math (block and inline), rendered by KaTeX as the document renderer does; its TeX is edited in the panel, previewed as one types. */
export const mathView = (display: boolean) =>
  popoverView(
    display ? 'div' : 'span',
    () => (display ? 'Math block' : 'Inline math'),
    (value, _choices, into) => katex.render(String(value.latex ?? ''), into, { displayMode: display, throwOnError: false }),
    () => [{ ...attrField('latex', 'TeX formula'), multiline: display }],
    byAttrs,
  );
