import type { DocumentTextLeaf, DocumentBlock, DocumentBlockParagraph, DocumentText, DocumentTextMark, InlineContent, DocumentFragment } from './types.ts';

// Small constructors and the one walk every converter shares.

export function paragraph(nodes: InlineContent[]): DocumentBlockParagraph {
  return { object: 'block', type: 'paragraph', nodes: nodes.length ? nodes : [text('')] };
}

export function text(value: string, marks: DocumentTextMark[] = []): DocumentText {
  return { object: 'text', leaves: [{ object: 'leaf', text: value, marks }] };
}

function sameMarks(a: DocumentTextMark[], b: DocumentTextMark[]): boolean {
  return a.length === b.length && a.every((mark, i) => sameMark(mark, b[i]!));
}

/** Appends text with marks, merging into the last text object and leaf as GitBook does. */
export function pushText(nodes: InlineContent[], value: string, marks: DocumentTextMark[]): void {
  if (value === '') return;
  const last = nodes[nodes.length - 1];
  if (last?.object === 'text') {
    const leaf = last.leaves[last.leaves.length - 1];
    if (leaf && sameMarks(leaf.marks, marks)) leaf.text += value;
    else last.leaves.push({ object: 'leaf', text: value, marks });
    return;
  }
  nodes.push(text(value, marks));
}

/** An emoji inline's characters: its code is code points in hex, `-` between them (`1f600`, `1f1eb-1f1f7`); anything else as written. */
export function emojiText(code: string): string {
  const text = code
    .split('-')
    .map((hex) => {
      const point = parseInt(hex, 16);
      return Number.isFinite(point) && point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : '';
    })
    .join('');
  return text || code;
}

/** The text of inline content, without marks. */
export function inlineText(nodes: readonly InlineContent[]): string {
  let out = '';
  for (const node of nodes) {
    if (node.object === 'text') for (const leaf of node.leaves) out += leaf.text;
    else if (node.type === 'link') out += inlineText(node.nodes);
    else if (node.type === 'annotation') out += inlineText(node.nodes);
    else if (node.type === 'inline-math') out += node.data.formula;
    else if (node.type === 'emoji') out += emojiText(node.data.code);
    else if (node.type === 'button') out += node.data.label;
    else if (node.type === 'inline-image') out += node.data.caption ?? '';
  }
  return out;
}

export function fragment<N>(name: string, nodes: N[], type?: string): DocumentFragment<string, N> {
  return type ? { object: 'fragment', fragment: name, type, nodes } : { object: 'fragment', fragment: name, nodes };
}

/** The blocks a block holds, in reading order: its nodes, then its fragments' nodes. */
export function childBlocks(block: DocumentBlock): DocumentBlock[] {
  const out: DocumentBlock[] = [];
  if ('nodes' in block) for (const node of block.nodes as { object: string }[]) if (node.object === 'block') out.push(node as DocumentBlock);
  if ('fragments' in block) for (const f of block.fragments as DocumentFragment[]) out.push(...f.nodes);
  return out;
}

export function sameMark(a: DocumentTextMark, b: DocumentTextMark): boolean {
  if (a.type !== b.type) return false;
  return a.type !== 'color' || b.type !== 'color' || (a.data.text === b.data.text && a.data.background === b.data.background);
}

/**
 * Leaves as nested markup, the mark running over the most leaves outermost, so `**a _b_**` comes
 * back as written rather than as one element per leaf. `code` is always innermost: it holds text.
 */
export function nestLeaves<T>(leaves: readonly DocumentTextLeaf[], wrap: (mark: DocumentTextMark, children: T[], text: string) => T[], plain: (text: string) => T[]): T[] {
  const out: T[] = [];
  let i = 0;
  while (i < leaves.length) {
    const leaf = leaves[i]!;
    let best: DocumentTextMark | undefined;
    let bestEnd = i;
    for (const mark of leaf.marks) {
      if (mark.type === 'code' && leaf.marks.length > 1) continue;
      let end = i + 1;
      while (end < leaves.length && leaves[end]!.marks.some((m) => sameMark(m, mark))) end++;
      if (end > bestEnd) {
        best = mark;
        bestEnd = end;
      }
    }
    if (!best) {
      out.push(...plain(leaf.text));
      i++;
      continue;
    }
    const inner = leaves.slice(i, bestEnd).map((l) => ({ ...l, marks: l.marks.filter((m) => !sameMark(m, best)) }));
    out.push(...wrap(best, best.type === 'code' ? [] : nestLeaves(inner, wrap, plain), inner.map((l) => l.text).join('')));
    i = bestEnd;
  }
  return out;
}
