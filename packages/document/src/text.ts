import slugify from '@sindresorhus/slugify';
import { transliterate } from 'transliteration';
import { withoutTags } from './markdown/tags.ts';
import { childBlocks, inlineText } from './nodes.ts';
import type { DocumentBlock, DocumentBlockHeading, InlineContent, JSONDocument } from './types.ts';

// Heading anchors and the text of a document by section: what the reader links to and the search
// index stores.

// Han, kana and Hangul, which slugify's transliteration leaves out.
const EAST_ASIAN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/**
 * Text with its Chinese, Japanese and Korean runs spelled in Latin letters as GitBook's anchors
 * and slugs spell them (pinyin for Han: `准备` → `Zhun Bei`); other scripts are left to slugify.
 */
export const romanizeEastAsian = (value: string): string => value.replace(EAST_ASIAN, (run) => ` ${transliterate(run)} `);

/**
 * A heading's anchor computed GitBook's way: lower-case, transliterated to ASCII, words joined by
 * `-` ("Café Crème" → "cafe-creme", "Установка" → "ustanovka", "安装 Node.js" →
 * "an-zhuang-node-js", "Q&A" → "q-and-a"). Text with nothing to transliterate keeps its letters.
 * GitBook's page slugs follow the same rule; a file's name keeps its dots and underscores
 * (`preserve`).
 */
export function anchorSlug(value: string, preserve: readonly string[] = []): string {
  const ascii = slugify(romanizeEastAsian(value), { decamelize: false, preserveCharacters: [...preserve] });
  if (ascii) return ascii;
  return value
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');
}

/** GitBook's pattern for a heading's explicit id. */
const EXPLICIT_ID = /^[-a-z0-9.+_]+$/;

const isHeading = (block: DocumentBlock): block is DocumentBlockHeading => block.type === 'heading-1' || block.type === 'heading-2' || block.type === 'heading-3';

/** Every heading's anchor, in document order: its explicit id, else its slug made unique (`-1`, `-2`). */
export function headingAnchors(document: JSONDocument): Map<DocumentBlockHeading, string> {
  const anchors = new Map<DocumentBlockHeading, string>();
  const used = new Map<string, number>();
  const visit = (blocks: readonly DocumentBlock[]) => {
    for (const block of blocks) {
      if (isHeading(block)) {
        const id = block.data?.id;
        const base = (id && EXPLICIT_ID.test(id) ? id : anchorSlug(inlineText(block.nodes))) || 'section';
        const seen = used.get(base) ?? 0;
        used.set(base, seen + 1);
        anchors.set(block, seen ? `${base}-${seen}` : base);
      } else visit(childBlocks(block));
    }
  };
  visit(document.nodes);
  return anchors;
}

export interface Section {
  /** The heading's text ('' for the text before the first heading). */
  heading: string;
  /** The heading's anchor ('' before the first heading). */
  anchor: string;
  /** 1-3 for headings, 0 before the first heading. */
  level: number;
  /** The section's text without markup: one line per paragraph, list item, code line or cell. */
  text: string;
}

/** The block's own text (not its child blocks'), or undefined for a container; for `search`, a paragraph's words. */
function ownText(block: DocumentBlock, search: boolean): string | undefined {
  switch (block.type) {
    // The GitBook tags a paragraph holds as text are no words to find; a code line's are its code.
    case 'paragraph':
      return search ? withoutTags(inlineText(block.nodes)).trim() : inlineText(block.nodes);
    case 'code-line':
      return inlineText(block.nodes as InlineContent[]);
    case 'math':
      return block.data.formula;
    case 'tabs-item':
      return block.data.title;
    case 'file':
      return block.data.caption;
    case 'image':
      return block.data.alt;
    // An API operation is found by its method and path (its spec's words are the reader's to show).
    case 'swagger':
    case 'openapi-operation':
      return `${block.data.method.toUpperCase()} ${block.data.path}`;
    default:
      return undefined;
  }
}

/** The notes of a block's annotations (blocks of their own, not part of its line), in order. */
function notesOf(block: DocumentBlock): DocumentBlock[] {
  if (!('nodes' in block)) return [];
  const notes: DocumentBlock[] = [];
  for (const node of block.nodes as readonly (DocumentBlock | InlineContent)[])
    if (node.object === 'inline' && node.type === 'annotation') for (const fragment of node.fragments) notes.push(...fragment.nodes);
  return notes;
}

/** The blocks' lines; for search (`onHeading` given), each heading passed to it instead. */
function collect(blocks: readonly DocumentBlock[], lines: string[], onHeading?: (h: DocumentBlockHeading) => void): void {
  for (const block of blocks) {
    if (isHeading(block) && onHeading) onHeading(block);
    else if (isHeading(block)) lines.push(inlineText(block.nodes));
    else {
      const own = ownText(block, onHeading !== undefined);
      if (own) lines.push(own);
      collect(childBlocks(block), lines, onHeading);
    }
    // An annotation's note is text readers see: found by search, after the line it annotates.
    collect(notesOf(block), lines, onHeading);
  }
}

/** The document split at its headings, for the search index. */
export function sections(document: JSONDocument): Section[] {
  const anchors = headingAnchors(document);
  const out: Section[] = [];
  const lines: string[] = [];
  let current: Omit<Section, 'text'> = { heading: '', anchor: '', level: 0 };
  const close = () => {
    const text = lines.join('\n');
    if (current.level > 0 || text.trim()) out.push({ ...current, text });
  };
  collect(document.nodes, lines, (heading) => {
    close();
    lines.length = 0;
    current = { heading: inlineText(heading.nodes), anchor: anchors.get(heading) ?? '', level: Number(heading.type.slice(-1)) };
  });
  close();
  return out;
}

/** All the text of a document without markup, one line per block. */
export function toPlainText(document: JSONDocument): string {
  const lines: string[] = [];
  collect(document.nodes, lines);
  return lines.join('\n');
}
