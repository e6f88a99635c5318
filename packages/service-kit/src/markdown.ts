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
