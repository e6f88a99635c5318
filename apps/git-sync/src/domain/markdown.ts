import type { Root, RootContent } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import YAML from 'yaml';
import { atxHeadingText, matchHead, parseGfm } from '@quire/service-kit/markdown';
import { memoByText } from './memo.ts';

// Links, images and definitions parse the same without GFM, at less than half the cost; GFM's
// autolink literals are absolute URLs, never rewritten.
const linkParser = unified().use(remarkParse);


/** Page fields a markdown file may carry in its front matter (GitBook writes these). */
export interface FrontMatter {
  description?: string;
  icon?: string;
  emoji?: string;
  hidden?: boolean;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * A page file read: its front matter, the title of its leading `# heading` (taken out of the
 * body, as GitBook writes the page title there) and the body.
 */
export function splitPageFile(text: string): { front: FrontMatter; heading?: string; body: string } {
  let body = text.replace(/^\uFEFF/, '');
  const front: FrontMatter = {};
  const fm = FRONT_MATTER.exec(body);
  if (fm) {
    let data: unknown;
    try {
      data = YAML.parse(fm[1]!);
    } catch {
      data = undefined;
    }
    // Not YAML after all: the text stays in the body.
    if (data && typeof data === 'object') {
      const d = data as Record<string, unknown>;
      if (typeof d.description === 'string') front.description = d.description;
      if (typeof d.icon === 'string') front.icon = d.icon;
      if (typeof d.emoji === 'string') front.emoji = d.emoji;
      if (typeof d.hidden === 'boolean') front.hidden = d.hidden;
      body = body.slice(fm[0].length);
    }
  }
  const atx = matchHead(LEADING_H1, body);
  const h = atx ?? matchHead(LEADING_SETEXT_H1, body);
  let heading: string | undefined;
  if (h) {
    const text = atx ? atxHeadingText(h[1] ?? '') : h[1]!.trimEnd();
    // Only a title with inline markup needs the parser (to drop emphasis, code marks, links).
    heading = (/[*_`[\]<>\\&!]/.test(text) ? plainText(parseGfm(text)) : text).trim();
    body = body.slice(h[0].length);
  }
  return { front, ...(heading ? { heading } : {}), body: body.replace(/^\s*\n/, '') };
}

// A level-1 heading as the first block (ATX `# Title #` or setext `Title` over `===`): found
// without parsing the page, which costs more than the rest of an import's reading.
// Each part reads greedily what the next cannot (linear time): the line's text is trimmed after.
const LEADING_H1 = /^(?:[ \t]*\r?\n)*[ ]{0,3}#(?:[ \t]([^\r\n]*))?(?:\r?\n|$)/;
const LEADING_SETEXT_H1 = /^(?:[ \t]*\r?\n)*[ ]{0,3}([^\s#>*+\-|`~<\d][^\r\n]*)\r?\n[ ]{0,3}=+[ \t]*(?:\r?\n|$)/;

/** The page file written by an export: front matter when a field is set, the title, the body. */
export function joinPageFile(title: string, front: FrontMatter, body: string): string {
  const fields = Object.fromEntries(Object.entries(front).filter(([, v]) => v !== undefined && v !== '' && v !== false));
  const head = Object.keys(fields).length > 0 ? `---\n${YAML.stringify(fields)}---\n\n` : '';
  const text = body.trim() ? `\n${body.trimEnd()}\n` : '';
  return `${head}# ${title.replace(/\n/g, ' ')}\n${text}`;
}

export function plainText(node: RootContent | Root): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node.children as RootContent[]).map(plainText).join('');
  return '';
}

// Text without any of these has nothing to rewrite: no parse needed.
const LINK_HINT = /\]\s*[(:[]|\b(?:src|href)\s*=/i;
const HTML_URL = /(\b(?:src|href)\s*=\s*)(["'])([^"']*)\2/gi;

/** A target a link, image, definition or HTML attribute names, and where it is written in the text (when found). */
interface LinkTarget {
  url: string;
  at?: { start: number; end: number };
}

/**
 * The targets of a markdown text in document order: what rewriting needs of the parse. Kept per
 * text, so a page that has not changed since the last import or export is not parsed again.
 */
const linkTargets = memoByText(16_000_000, (markdown: string): readonly LinkTarget[] => {
  const targets: LinkTarget[] = [];
  const visit = (node: Root | RootContent) => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if ((node.type === 'link' || node.type === 'image' || node.type === 'definition') && start !== undefined && end !== undefined) {
      const raw = markdown.slice(start, end);
      // The destination is the first occurrence after the label's `](` (or `]:`): not the label's
      // own text, not the title after it.
      const labelEnd = node.type === 'link' ? (node.children.at(-1)?.position?.end.offset ?? start) - start : 0;
      const at = raw.indexOf(node.url, raw.indexOf(node.type === 'definition' ? ']:' : '](', labelEnd));
      targets.push({ url: node.url, ...(at >= 0 ? { at: { start: start + at, end: start + at + node.url.length } } : {}) });
    }
    if (node.type === 'html' && start !== undefined && end !== undefined) {
      for (const m of markdown.slice(start, end).matchAll(HTML_URL)) {
        const at = start + m.index + m[1]!.length + 1;
        targets.push({ url: m[3]!, at: { start: at, end: at + m[3]!.length } });
      }
    }
    if ('children' in node) for (const child of node.children as RootContent[]) visit(child);
  };
  visit(linkParser.parse(markdown));
  return targets;
});

/**
 * Rewrites the targets of links, images, definitions and HTML `src`/`href` attributes, editing
 * the source text in place (the rest of the markdown stays byte for byte). `rewrite` answers the
 * new target or undefined to keep one; it sees every target, in document order.
 */
export function rewriteLinks(markdown: string, rewrite: (url: string) => string | undefined): string {
  if (!LINK_HINT.test(markdown)) return markdown;
  const edits: { start: number; end: number; text: string }[] = [];
  for (const { url, at } of linkTargets(markdown)) {
    const next = rewrite(url);
    if (at && next !== undefined && next !== url) edits.push({ ...at, text: next });
  }
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let done = 0;
  for (const e of edits) {
    if (e.start < done) continue;
    out += markdown.slice(done, e.start) + e.text;
    done = e.end;
  }
  return out + markdown.slice(done);
}

