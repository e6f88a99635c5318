import type { Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

const gfm = unified().use(remarkParse).use(remarkGfm);
const commonMark = unified().use(remarkParse);

// What every GFM construct needs: a table's `|`, strikethrough's `~`, a footnote's `[^`, a task's
// `[ ]` or `[x]` and a space, an autolink literal's `@`, `www.` or `http(s)://`. A text with none
// of them parses the same without the GFM extensions, about three times faster (GFM tries an
// email autolink at every letter); parsing is most of what a large import costs.
const GFM_SYNTAX = /[|~@]|\[\^|\[(?:[\sxX]|\r\n)\]\s|www\.|https?:\/\//i;

/** GitHub-flavoured markdown as mdast (content's documents, git-sync's pages and SUMMARY.md). */
export function parseGfm(markdown: string): Root {
  return (GFM_SYNTAX.test(markdown) ? gfm : commonMark).parse(markdown);
}

/** How much of a page's start a heading is looked for in: a title line is never longer. */
const HEADING_SCAN_CHARS = 4096;

/**
 * `pattern` (anchored at the start) matched on the first HEADING_SCAN_CHARS of `text` only, and
 * only when its match ends within them: no pattern reads a whole page, and no title is cut.
 */
export function matchHead(pattern: RegExp, text: string): RegExpExecArray | null {
  const head = text.slice(0, HEADING_SCAN_CHARS);
  const match = pattern.exec(head);
  return match && (match[0].length < head.length || head.length === text.length) ? match : null;
}

/**
 * The text of an ATX heading line after its `#` and a space: trimmed, without a closing
 * sequence of `#` (which needs a space before it, so `C#` keeps its `#`). String operations,
 * not a pattern: `[ \t]*#*[ \t]*$` after a lazy title backtracks in cubic time on spaces.
 */
export function atxHeadingText(line: string): string {
  const text = line.trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  if (end === 0) return '';
  const before = text[end - 1];
  return end < text.length && (before === ' ' || before === '\t') ? text.slice(0, end).trimEnd() : text;
}
