import type { PhrasingContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { pushText, text } from '../nodes.ts';
import { resolveRef, type ResolveLink } from '../refs.ts';
import type { DocumentInlineImage, DocumentTextMark, InlineContent } from '../types.ts';
import { attributesOf, colorMark, decodeEntities, htmlTag, tagMark } from './html.ts';

/**
 * Phrasing content as leaves and inlines. Inline HTML GitBook writes is read (html.ts): the
 * marks' tags, `<mark>` colors, `<a href>` links, `<br>`, `<img>`; any other tag stays text.
 */
export function readInlines(children: PhrasingContent[], resolveLink: ResolveLink | undefined, marks: DocumentTextMark[] = [], out: InlineContent[] = []): InlineContent[] {
  // Open inline tags: the marks before each, and for a link the content it was written into.
  const open: { tag: string; marks: DocumentTextMark[]; link?: { url: string; outer: InlineContent[] } }[] = [];
  let current = marks;
  let target = out;
  const close = (depth: number) => {
    while (open.length > depth) {
      const tag = open.pop()!;
      current = tag.marks;
      if (!tag.link) continue;
      tag.link.outer.push(link(resolveLink, tag.link.url, target));
      target = tag.link.outer;
    }
  };
  for (const node of children) {
    switch (node.type) {
      case 'text':
        pushText(target, node.value, current);
        break;
      case 'emphasis':
        readInlines(node.children, resolveLink, [...current, { object: 'mark', type: 'italic' }], target);
        break;
      case 'strong':
        readInlines(node.children, resolveLink, [...current, { object: 'mark', type: 'bold' }], target);
        break;
      case 'delete':
        readInlines(node.children, resolveLink, [...current, { object: 'mark', type: 'strikethrough' }], target);
        break;
      case 'inlineCode':
        pushText(target, node.value, [...current, { object: 'mark', type: 'code' }]);
        break;
      case 'break':
        pushText(target, '\n', current);
        break;
      case 'inlineMath':
        target.push({ object: 'inline', type: 'inline-math', isVoid: true, data: { formula: node.value } });
        break;
      // markdown-it resolves reference links and images against their definitions.
      case 'link': {
        if (node.title === 'mention') {
          target.push({ object: 'inline', type: 'mention', isVoid: true, data: { ref: resolveRef(node.url, 'mention', resolveLink) } });
          break;
        }
        target.push(link(resolveLink, node.url, readInlines(node.children, resolveLink, current)));
        break;
      }
      case 'image':
        target.push(inlineImage(resolveLink, node.url, node.alt ?? ''));
        break;
      case 'html': {
        const value = node.value;
        const tag = htmlTag(value);
        if (tag?.closing) {
          const at = open.findLastIndex((o) => o.tag === tag.name);
          if (at !== -1) {
            close(at);
            break;
          }
        } else if (tag) {
          const attributes = attributesOf(value);
          if (tag.name === 'br') {
            pushText(target, '\n', current);
            break;
          }
          if (tag.name === 'img' && attributes.src !== undefined) {
            const image = inlineImage(resolveLink, attributes.src, attributes.alt ?? '');
            if (attributes['data-size'] === 'line' || attributes['data-size'] === 'original') image.data.size = attributes['data-size'];
            target.push(image);
            break;
          }
          // An `<a id>` is an anchor, which the model has on headings only: it stays as written.
          if (tag.name === 'a' && attributes.href !== undefined && attributes.id === undefined) {
            open.push({ tag: tag.name, marks: current, link: { url: attributes.href, outer: target } });
            target = [];
            break;
          }
          // A `<mark>` without a color GitBook has marks nothing: its text shows plain.
          const mark = tag.name === 'mark' ? colorMark(attributes.style ?? '') : tagMark(tag.name);
          if (mark || tag.name === 'mark') {
            open.push({ tag: tag.name, marks: current });
            if (mark) current = [...current, mark];
            break;
          }
        }
        pushText(target, value, current);
        break;
      }
      default:
        pushText(target, decodeEntities(toString(node)), current);
    }
  }
  // Tags left open end with the content: a link holds what followed it.
  close(0);
  return out;
}

/** A link holding text and inline images (a link written inside it gives its content). */
function link(resolveLink: ResolveLink | undefined, url: string, inner: InlineContent[]): InlineContent {
  const nodes: InlineContent[] = [];
  const add = (n: InlineContent) => {
    if (n.object === 'text') for (const leaf of n.leaves) pushText(nodes, leaf.text, leaf.marks);
    else if (n.type === 'inline-image') nodes.push(n);
    else if (n.type === 'link') n.nodes.forEach(add);
  };
  inner.forEach(add);
  return { object: 'inline', type: 'link', data: { ref: resolveRef(url, 'link', resolveLink) }, nodes: (nodes.length ? nodes : [text('')]) as never[] };
}

function inlineImage(resolveLink: ResolveLink | undefined, url: string, alt: string): DocumentInlineImage {
  const ref = resolveRef(url, 'image', resolveLink) as DocumentInlineImage['data']['ref'];
  return { object: 'inline', type: 'inline-image', isVoid: true, data: alt ? { ref, caption: alt } : { ref } };
}
