import type { PhrasingContent } from 'mdast';
import { fitBlocks } from '../fit.ts';
import { paragraph } from '../nodes.ts';
import type { DocumentBlock, DocumentBlockListItem, InlineContent } from '../types.ts';
import { attributesOf, htmlTag } from './html.ts';

// A pipe table cell is one line of markdown: GitBook writes a cell of several blocks there with
// HTML for its structure, `<p>…</p><p>…</p>`, `<ul><li>…</li></ul>`, `<ol>`, inline content
// (markdown, or the inline tags html.ts reads) between the tags. The structure is read here, the
// inline content by the caller's reader; a cell without these tags is one paragraph, as before.

/** The tags that make a cell's blocks; any other tag is inline content. */
const BLOCK_TAGS = new Set(['p', 'ul', 'ol', 'li']);

interface Part {
  tag: string;
  /** An `<ol start>`'s first number. */
  start?: number;
  children: (Part | PhrasingContent)[];
}

type ReadInlines = (nodes: PhrasingContent[]) => InlineContent[];

const isPart = (node: Part | PhrasingContent): node is Part => 'tag' in node;
const blank = (node: Part | PhrasingContent) => !isPart(node) && node.type === 'text' && node.value.trim() === '';

/** A pipe table cell's content as blocks (at least one paragraph). */
export function cellBlocks(children: PhrasingContent[], read: ReadInlines): DocumentBlock[] {
  const root: Part = { tag: '', children: [] };
  const stack = [root];
  for (const node of children) {
    const tag = node.type === 'html' ? htmlTag(node.value) : undefined;
    if (tag && BLOCK_TAGS.has(tag.name)) {
      if (!tag.closing) {
        // As HTML parsers do: a block ends an open paragraph, an item the item before it.
        if (stack.at(-1)!.tag === 'p') stack.pop();
        if (tag.name === 'li' && stack.at(-1)!.tag === 'li') stack.pop();
        const part: Part = { tag: tag.name, children: [] };
        const start = Number(attributesOf((node as { value: string }).value).start);
        if (tag.name === 'ol' && Number.isInteger(start) && start !== 1) part.start = start;
        stack.at(-1)!.children.push(part);
        stack.push(part);
        continue;
      }
      const at = stack.findLastIndex((p) => p.tag === tag.name);
      if (at > 0) {
        stack.length = at;
        continue;
      }
    }
    // A closing tag with nothing to close is inline content (shown as written).
    stack.at(-1)!.children.push(node);
  }
  const blocks = readBlocks(root.children, read);
  return blocks.length ? blocks : [paragraph(read([]))];
}

function readBlocks(nodes: (Part | PhrasingContent)[], read: ReadInlines): DocumentBlock[] {
  const out: DocumentBlock[] = [];
  let run: PhrasingContent[] = [];
  const flush = () => {
    if (run.some((n) => !blank(n))) out.push(paragraph(read(run)));
    run = [];
  };
  for (const node of nodes) {
    if (!isPart(node)) {
      run.push(node);
      continue;
    }
    flush();
    // A paragraph holds inline content only: any block tag ended it.
    if (node.tag === 'p') out.push(paragraph(read(node.children as PhrasingContent[])));
    else if (node.tag === 'li') out.push(...readBlocks(node.children, read));
    else {
      const list = readList(node, read);
      if (list) out.push(list);
    }
  }
  flush();
  return out;
}

function readList(list: Part, read: ReadInlines): DocumentBlock | undefined {
  // Content between a list's items is an item of its own: nothing is dropped.
  const items: DocumentBlockListItem[] = list.children
    .filter((child) => !blank(child))
    .map((child) => {
      const blocks = fitBlocks(isPart(child) && child.tag === 'li' ? readBlocks(child.children, read) : readBlocks([child], read), 'list-item');
      return { object: 'block', type: 'list-item', nodes: (blocks.length ? blocks : [paragraph([])]) as never };
    });
  if (!items.length) return undefined;
  if (list.tag === 'ul') return { object: 'block', type: 'list-unordered', nodes: items };
  return { object: 'block', type: 'list-ordered', data: list.start !== undefined ? { start: list.start } : {}, nodes: items };
}
