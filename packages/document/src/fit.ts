import { paragraph, pushText, text } from './nodes.ts';
import type { DocumentBlock, DocumentBlockParagraph, InlineContent } from './types.ts';

// Where a block may sit, as GitBook's schema says (a hint holds only paragraphs, headings, lists
// and dividers; a list item no images; no tabs in tabs…). Markdown can put anything anywhere; what
// a place does not allow is turned into blocks it does allow, keeping the text (an image becomes
// an inline image, a code block a paragraph of code-marked text, a container its content).

export type Place = 'document' | 'hint' | 'blockquote' | 'list-item' | 'tabs-item' | 'expandable-body';

const ESSENTIALS = ['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider'];

const ALLOWED: Record<Place, Set<string>> = {
  document: new Set([
    ...ESSENTIALS,
    ...[
      'blockquote',
      'hint',
      'images',
      'file',
      'drawing',
      'embed',
      'code',
      'math',
      'expandable',
      'tabs',
      'table',
      'content-ref',
      'swagger',
      'openapi-operation',
      'integration',
      'reusable-content',
    ],
  ]),
  hint: new Set(ESSENTIALS),
  blockquote: new Set([...ESSENTIALS, 'blockquote']),
  'list-item': new Set([...ESSENTIALS, 'code', 'hint', 'blockquote', 'math', 'table']),
  'tabs-item': new Set([...ESSENTIALS, 'content-ref', 'code', 'embed', 'file', 'images', 'drawing', 'hint', 'blockquote', 'math', 'integration']),
  'expandable-body': new Set([...ESSENTIALS, 'images', 'code', 'table', 'hint', 'blockquote', 'reusable-content']),
};

export function fitBlocks(blocks: DocumentBlock[], place: Place): DocumentBlock[] {
  const allowed = ALLOWED[place];
  const out: DocumentBlock[] = [];
  for (const block of blocks) {
    if (allowed.has(block.type)) out.push(block);
    else out.push(...fitBlocks(fallback(block), place));
  }
  return out;
}

function link(url: string, label: string): InlineContent {
  return { object: 'inline', type: 'link', data: { ref: { kind: 'url', url } }, nodes: [text(label)] };
}

/** A block the place does not allow, as simpler blocks with the same text. */
function fallback(block: DocumentBlock): DocumentBlock[] {
  switch (block.type) {
    case 'images':
      return [
        paragraph(
          block.nodes.map((image) => {
            const caption = image.fragments[0]?.nodes.map((p) => p.nodes.map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : '')).join('')).join(' ');
            const data = caption || image.data.alt ? { ref: image.data.ref, caption: caption || image.data.alt } : { ref: image.data.ref };
            return { object: 'inline', type: 'inline-image', isVoid: true, data } as InlineContent;
          }),
        ),
      ];
    case 'code': {
      const nodes: InlineContent[] = [];
      block.nodes.forEach((line, i) => {
        if (i > 0) pushText(nodes, '\n', []);
        for (const node of line.nodes) if (node.object === 'text') for (const leaf of node.leaves) pushText(nodes, leaf.text, [{ object: 'mark', type: 'code' }]);
      });
      return [paragraph(nodes)];
    }
    case 'math':
      return [paragraph([{ object: 'inline', type: 'inline-math', isVoid: true, data: { formula: block.data.formula } }])];
    case 'hint':
    case 'blockquote':
    case 'tabs':
      return block.nodes as DocumentBlock[];
    case 'tabs-item':
      return [...(block.data.title ? [paragraph([text(block.data.title, [{ object: 'mark', type: 'bold' }])])] : []), ...(block.nodes as DocumentBlock[])];
    case 'expandable':
      return block.fragments.flatMap((f) => f.nodes as DocumentBlock[]);
    case 'embed':
      return [paragraph([link(block.data.url, block.data.url)])];
    case 'file':
      return [paragraph([link(block.data.ref.file, block.data.caption || block.data.ref.file)])];
    case 'content-ref':
      return [paragraph([{ object: 'inline', type: 'mention', isVoid: true, data: { ref: block.data.ref } }])];
    case 'swagger':
      return [paragraph([{ object: 'inline', type: 'link', data: { ref: block.data.ref }, nodes: [text(`${block.data.method.toUpperCase()} ${block.data.path}`)] }])];
    case 'openapi-operation':
      return [paragraph([text(`${block.data.method.toUpperCase()} ${block.data.path}`, [{ object: 'mark', type: 'code' }])])];
    case 'table':
      return tableRows(block);
    // Where reusable content may not sit, its tag stays as the text it was.
    case 'reusable-content':
      return [paragraph([text(`{% include "${block.data.ref.reusableContent}" %}`)])];
    default:
      return [];
  }
}

function tableRows(block: Extract<DocumentBlock, { type: 'table' }>): DocumentBlockParagraph[] {
  const byName = new Map(block.fragments.map((f) => [f.fragment, f]));
  const columns = block.data.view.columns;
  const rows: DocumentBlockParagraph[] = [paragraph([text(columns.map((c) => block.data.definition[c]?.title ?? '').join(' | '), [{ object: 'mark', type: 'bold' }])])];
  for (const record of Object.values(block.data.records)) {
    const nodes: InlineContent[] = [];
    columns.forEach((column, i) => {
      if (i > 0) pushText(nodes, ' | ', []);
      const value = record.values[column];
      const cell = typeof value === 'string' ? byName.get(value) : undefined;
      if (cell) {
        for (const p of cell.nodes) if (p.type === 'paragraph') nodes.push(...(p as DocumentBlockParagraph).nodes);
      } else if (value !== undefined && typeof value !== 'object') pushText(nodes, String(value), []);
    });
    rows.push(paragraph(nodes));
  }
  return rows;
}
