import type { RootContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { fitBlocks } from '../fit.ts';
import { paragraph, text } from '../nodes.ts';
import { resolveRef } from '../refs.ts';
import type { DocumentBlock, DocumentBlockTabsItem, HintStyle } from '../types.ts';
import { codeBlock } from './read-blocks.ts';
import { MAX_NESTING, tagOf, type Reader } from './reader.ts';

const HINT_STYLES = new Set<HintStyle>(['info', 'warning', 'danger', 'success']);
/** `{% include "path" %}` as GitBook writes it (double quotes, no other argument). */
const INCLUDE = /^\{% include "([^"]+)" %\}$/;

function tagCloser(r: Reader, children: RootContent[], start: number, name: string, nesting = true): number {
  if (nesting) return r.closer(children, start);
  // Tags whose closing is optional ({% file %}, {% embed %}): closed before the next opening only.
  for (let i = start + 1; i < children.length; i++) {
    const tag = tagOf(children[i]!);
    if (tag?.name !== name) continue;
    return tag.closing ? i : -1;
  }
  return -1;
}

/** Reads the tag at `i` (and what it encloses) into `out`; answers the last index consumed. */
export function readTag(r: Reader, children: RootContent[], i: number, out: DocumentBlock[]): number {
  const node = children[i] as { type: 'gitbookTag'; value: string };
  const tag = tagOf(node);
  const literal = () => {
    out.push(paragraph([text(node.value)]));
    return i;
  };
  // Containers nested deeper than any page has stay text: the reading recurses per level.
  if (!tag || tag.closing || r.depth > MAX_NESTING) return literal();
  const { name, attributes } = tag;
  switch (name) {
    case 'hint': {
      const end = tagCloser(r, children, i, name);
      if (end === -1) return literal();
      const style = HINT_STYLES.has(attributes.style as HintStyle) ? (attributes.style as HintStyle) : 'info';
      out.push({ object: 'block', type: 'hint', data: { style }, nodes: fitBlocks(r.flow(children.slice(i + 1, end)), 'hint') as never });
      return end;
    }
    case 'tabs': {
      const end = tagCloser(r, children, i, name);
      if (end === -1) return literal();
      out.push({ object: 'block', type: 'tabs', nodes: tabs(r, children.slice(i + 1, end)) });
      return end;
    }
    case 'code': {
      const next = children[i + 1];
      if (next?.type !== 'code') return literal();
      const block = codeBlock(next);
      if (attributes.title !== undefined) block.data.title = attributes.title;
      if (attributes.overflow === 'wrap' || attributes.overflow === 'scroll') block.data.overflow = attributes.overflow;
      if (attributes.lineNumbers !== undefined) block.data.lineNumbers = attributes.lineNumbers === 'true';
      if (attributes.fullWidth !== undefined) block.data.fullWidth = attributes.fullWidth === 'true';
      out.push(block);
      const after = children[i + 2];
      const closing = after && tagOf(after);
      return closing?.name === 'code' && closing.closing ? i + 2 : i + 1;
    }
    case 'content-ref':
    case 'page-ref': {
      const url = attributes.url ?? attributes.page;
      if (url === undefined) return literal();
      out.push({ object: 'block', type: 'content-ref', isVoid: true, data: { ref: resolveRef(url, 'content-ref', r.resolveLink) } });
      // The link GitBook writes inside is derived from the url: nothing more to keep.
      const end = name === 'content-ref' ? tagCloser(r, children, i, name, false) : -1;
      return end === -1 ? i : end;
    }
    case 'openapi': {
      const { src, path, method } = attributes;
      const end = tagCloser(r, children, i, name);
      if (src === undefined || path === undefined || method === undefined || end === -1) return literal();
      // The link GitBook writes inside names the spec again: nothing more to keep.
      const ref = /^https?:\/\//i.test(src) ? ({ kind: 'url', url: src } as const) : (resolveRef(src, 'file', r.resolveLink) as { kind: 'file'; file: string });
      out.push({ object: 'block', type: 'swagger', isVoid: true, data: { ref, path, method } });
      return end;
    }
    case 'openapi-operation': {
      const { spec, path, method } = attributes;
      if (spec === undefined || path === undefined || method === undefined) return literal();
      out.push({ object: 'block', type: 'openapi-operation', isVoid: true, data: { ref: { kind: 'openapi', spec }, path, method } });
      // Its closing tag is optional; what sits before it names the spec again.
      const end = tagCloser(r, children, i, name, false);
      return end === -1 ? i : end;
    }
    case 'include': {
      // Reusable content as Git Sync writes it, `{% include "../.gitbook/includes/x.md" %}`: the
      // file's path as written stands for the reusable content (Quire keeps no such entity).
      const path = INCLUDE.exec(node.value)?.[1];
      if (path === undefined) return literal();
      out.push({ object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: path } } });
      return i;
    }
    case 'embed':
    case 'file': {
      const url = name === 'embed' ? attributes.url : attributes.src;
      if (url === undefined) return literal();
      // A caption, when there is one, sits between the tag and its (then required) closing tag.
      const end = tagCloser(r, children, i, name, false);
      const caption =
        end === -1
          ? ''
          : children
              .slice(i + 1, end)
              .map((n) => toString(n))
              .join('\n\n');
      if (name === 'embed') out.push({ object: 'block', type: 'embed', isVoid: true, data: caption ? { url, caption } : { url } });
      else {
        const ref = resolveRef(url, 'file', r.resolveLink) as { kind: 'file'; file: string };
        out.push({ object: 'block', type: 'file', isVoid: true, data: caption ? { ref, caption } : { ref } });
      }
      return end === -1 ? i : end;
    }
    default:
      return literal();
  }
}

function tabs(r: Reader, children: RootContent[]): DocumentBlockTabsItem[] {
  const items: DocumentBlockTabsItem[] = [];
  for (let i = 0; i < children.length; i++) {
    const node = children[i]!;
    const tag = tagOf(node);
    if (tag?.name === 'tab' && !tag.closing) {
      const end = tagCloser(r, children, i, 'tab');
      const stop = end === -1 ? children.length : end;
      const data = tag.attributes.title !== undefined ? { title: tag.attributes.title } : {};
      items.push({ object: 'block', type: 'tabs-item', data, nodes: fitBlocks(r.flow(children.slice(i + 1, stop)), 'tabs-item') as never });
      i = stop;
      continue;
    }
    // Content between tabs belongs to the tab before it (or a new one): nothing is dropped.
    const blocks = fitBlocks(r.flow([node]), 'tabs-item');
    if (!blocks.length) continue;
    const last = items[items.length - 1] ?? items[items.push({ object: 'block', type: 'tabs-item', data: {}, nodes: [] }) - 1]!;
    last.nodes.push(...(blocks as never[]));
  }
  return items;
}
