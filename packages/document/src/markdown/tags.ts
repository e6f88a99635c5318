import type { StateBlock } from 'markdown-it';
import type { Literal } from 'mdast';
import type { Options as ToMarkdownExtension } from 'mdast-util-to-markdown';

// GitBook's block tags (`{% hint style="info" %}`, `{% endhint %}`, …) as Git Sync writes them: a
// line of its own holding `{% … %}`, indented less than a code block. A markdown-it block rule
// reads such a line into one `gitbookTag` node (it interrupts a paragraph, as GitBook's own reader
// does), so the tags land in mdast as siblings of the blocks they enclose, inside lists and quotes
// too; `from-markdown.ts` pairs them up. Everything else stays CommonMark/GFM.

// A mdast literal like the others (position, data), so that code walking any mdast still types.
export interface GitbookTag extends Literal {
  type: 'gitbookTag';
  /** The whole tag as written, `{% … %}`, without surrounding whitespace. */
  value: string;
}

declare module 'mdast' {
  interface RootContentMap {
    gitbookTag: GitbookTag;
  }
  interface BlockContentMap {
    gitbookTag: GitbookTag;
  }
}

/** markdown-it block rule: a GitBook tag line as one `gitbook_tag` token. */
export function gitbookTagRule(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  const src = state.src;
  const start = state.bMarks[startLine]! + state.tShift[startLine]!;
  if (src.charCodeAt(start) !== LEFT_BRACE || src.charCodeAt(start + 1) !== PERCENT) return false;
  let end = state.eMarks[startLine]!;
  while (end > start && (src.charCodeAt(end - 1) === SPACE || src.charCodeAt(end - 1) === TAB)) end--;
  // `{%%}` is the shortest tag; the `%}` must end the line, else it was inside the tag.
  if (end - start < 4 || src.charCodeAt(end - 2) !== PERCENT || src.charCodeAt(end - 1) !== RIGHT_BRACE) return false;
  if (silent) return true;
  const token = state.push('gitbook_tag', '', 0);
  token.content = src.slice(start, end);
  token.map = [startLine, startLine + 1];
  token.block = true;
  state.line = startLine + 1;
  return true;
}

const LEFT_BRACE = 123;
const RIGHT_BRACE = 125;
const PERCENT = 37;
const SPACE = 32;
const TAB = 9;

/** mdast-util-to-markdown extension: a tag is written as is. */
export const gitbookTagToMarkdown: ToMarkdownExtension = {
  handlers: { gitbookTag: (node: GitbookTag) => node.value },
};

export type ParsedTag = { name: string; closing: boolean; attributes: Record<string, string> };

const TAG_NAME = /^(end)?([a-z][\w-]*)/i;
// Matches start only where a name starts (the lookbehind), so scanning stays linear.
const ATTRIBUTE = /(?<![\w-])([\w-]+)=(?:"([^"]*)"|'([^']*)')/g;

/** `{% tab title="A" %}` → `{name: 'tab', closing: false, attributes: {title: 'A'}}`. */
export function parseTag(value: string): ParsedTag | undefined {
  if (!value.startsWith('{%') || !value.endsWith('%}')) return undefined;
  const inner = value.slice(2, -2).trim();
  const name = TAG_NAME.exec(inner);
  if (!name) return undefined;
  const attributes: Record<string, string> = {};
  for (const match of inner.slice(name[0].length).matchAll(ATTRIBUTE)) attributes[match[1]!] = (match[2] ?? match[3] ?? '').replace(/&quot;/g, '"');
  return { name: name[2]!.toLowerCase(), closing: name[1] !== undefined, attributes };
}

// A tag inside text: `{%`, anything but a line break or another `{%`, then `%}`. Linear: each
// character is read by one alternative only, and no match spans the next `{%`.
const TAG_IN_TEXT = /\{%(?:[^\n%{]|%(?!\})|\{(?!%))*%\}/g;

/**
 * Text without the GitBook tags it holds, each a space: a tag read as text (unpaired, unknown, or
 * written inside a line) is still structure to GitBook, never words.
 */
export function withoutTags(text: string): string {
  return text.includes('{%') ? text.replace(TAG_IN_TEXT, (tag) => (parseTag(tag) ? ' ' : tag)) : text;
}

/** A tag in GitBook's spelling: `{% name a="1" b="2" %}`. */
export function formatTag(name: string, attributes: Record<string, string | undefined> = {}): string {
  let out = `{% ${name}`;
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out += ` ${key}="${value.replace(/"/g, '&quot;')}"`;
  return `${out} %}`;
}
