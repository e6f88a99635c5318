import type { Root, RootContent } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import YAML from 'yaml';
import { atxHeadingText, matchHead, parseGfm } from '@quire/document/gfm';
import { FRONT_MATTER, readFrontMatter } from './front-matter.ts';
import { memoByText } from './memo.ts';
import { decodedUri } from './paths.ts';

// Links, images and definitions parse the same without GFM, at less than half the cost (GFM's
// autolink literals are absolute URLs, never rewritten), except in tables: a cell is read on its
// own there, so a backtick left open in one does not hide the links of the next rows.
const linkParser = unified().use(remarkParse);
const TABLE_DELIMITER_ROW = /^[ \t]*(?:\|[ \t]*)?:?-+:?[ \t]*\|/m;

/** Page fields a markdown file may carry in its front matter (GitBook writes these). */
export interface FrontMatter {
  description?: string;
  icon?: string;
  emoji?: string;
  hidden?: boolean;
}

const FIELDS = new Set(['description', 'icon', 'emoji', 'hidden']);

/** A page file read by splitPageFile. */
export interface PageFile {
  front: FrontMatter;
  /**
   * The front matter block as written (fences included), when it holds keys that are not page
   * fields (`layout`, `cover`, …): kept at the top of the page's markdown so none is lost.
   */
  matter?: string;
  /** The text of the leading `# heading`, if any. */
  heading?: string;
  /** The body after the front matter and the heading. */
  body: string;
  /** The body after the front matter, heading included. */
  headed: string;
}

/**
 * A page file read: its front matter, the title of its leading `# heading` (GitBook writes the
 * page title there) and the body.
 */
export function splitPageFile(text: string): PageFile {
  let body = text.replace(/^\uFEFF/, '');
  const front: FrontMatter = {};
  let matter: string | undefined;
  // A block that is not a YAML map is not front matter: it stays in the body.
  const fm = readFrontMatter(body);
  if (fm) {
    const d = fm.data;
    if (typeof d.description === 'string') front.description = d.description;
    if (typeof d.icon === 'string') front.icon = d.icon;
    if (typeof d.emoji === 'string') front.emoji = d.emoji;
    if (typeof d.hidden === 'boolean') front.hidden = d.hidden;
    if (Object.keys(d).some((k) => !FIELDS.has(k))) matter = fm.block;
    body = body.slice(fm.block.length);
  }
  const headed = body.replace(/^\s*\n/, '');
  const atx = matchHead(LEADING_H1, body);
  const h = atx ?? matchHead(LEADING_SETEXT_H1, body);
  let heading: string | undefined;
  if (h) {
    const text = atx ? atxHeadingText(h[1] ?? '') : h[1]!.trimEnd();
    // Only a title with inline markup needs the parser (to drop emphasis, code marks, links, HTML).
    heading = (/[*_`[\]<>\\&!]/.test(text) ? plainText(parseGfm(text)) : text).trim();
    body = body.slice(h[0].length);
  }
  return { front, ...(matter ? { matter } : {}), ...(heading ? { heading } : {}), body: body.replace(/^\s*\n/, ''), headed };
}

// A level-1 heading as the first block (ATX `# Title #` or setext `Title` over `===`): found
// without parsing the page, which costs more than the rest of an import's reading.
// Each part reads greedily what the next cannot (linear time): the line's text is trimmed after.
const LEADING_H1 = /^(?:[ \t]*\r?\n)*[ ]{0,3}#(?:[ \t]([^\r\n]*))?(?:\r?\n|$)/;
const LEADING_SETEXT_H1 = /^(?:[ \t]*\r?\n)*[ ]{0,3}([^\s#>*+\-|`~<\d][^\r\n]*)\r?\n[ ]{0,3}=+[ \t]*(?:\r?\n|$)/;

/**
 * The page file written by an export: the front matter (the page's own block, kept from the
 * import, with the fields set in it; or one made of the fields that are set), the title as a
 * `# heading` unless `heading` is false, the body.
 */
export function joinPageFile(title: string, front: FrontMatter, body: string, options: { heading?: boolean; matter?: string } = {}): string {
  const matter = frontMatterOf(front, options.matter);
  const head = matter ? `${matter}\n` : '';
  const text = body.trim() ? `${body.trimEnd()}\n` : '';
  if (options.heading === false) return head + text;
  return `${head}# ${title.replace(/\n/g, ' ')}\n${text ? `\n${text}` : ''}`;
}

function frontMatterOf(front: FrontMatter, matter: string | undefined): string {
  const set = (v: unknown) => v !== undefined && v !== '' && v !== false;
  if (matter !== undefined) {
    const m = FRONT_MATTER.exec(matter);
    const doc = m ? YAML.parseDocument(m[1]!) : undefined;
    if (doc && doc.errors.length === 0) {
      let changed = false;
      for (const key of FIELDS) {
        const value = front[key as keyof FrontMatter];
        const had = doc.get(key);
        // A value that did not change keeps its spelling (folded, quoted); only edits are written.
        if (set(value) ? had !== value : had !== undefined && set(had)) {
          if (set(value)) doc.set(key, value);
          else doc.delete(key);
          changed = true;
        }
      }
      if (!changed) return matter.replace(/\r?\n?$/, '\n');
      return `---\n${doc.toString()}---\n`;
    }
  }
  const fields = Object.fromEntries(Object.entries(front).filter(([, v]) => set(v)));
  return Object.keys(fields).length > 0 ? `---\n${YAML.stringify(fields)}---\n` : '';
}

/** A reusable content's file as GitBook writes it: the title in the front matter, then the body. */
export function splitIncludeFile(text: string): { title?: string; body: string } {
  const fm = readFrontMatter(text.replace(/^\uFEFF/, ''));
  if (!fm) return { body: text };
  const title = fm.data.title;
  return {
    ...(typeof title === 'string' && title.trim() ? { title: title.trim() } : {}),
    body: text
      .replace(/^\uFEFF/, '')
      .slice(fm.block.length)
      .replace(/^\s*\n/, ''),
  };
}

/** The file an export writes for a reusable content, as splitIncludeFile reads it. */
export const joinIncludeFile = (title: string, body: string): string => `---\n${YAML.stringify({ title })}---\n\n${body.trim() ? `${body.trimEnd()}\n` : ''}`;

// GitBook's front matter keys that name an image: the page's cover, and its dark-mode variant.
const COVER_KEYS = ['cover', 'coverDark'];

/**
 * Rewrites the images a front matter block names as its cover (a path relative to the page, or
 * a file's id) in place, the rest of the block byte for byte; `rewrite` answers the new target
 * or undefined to keep one.
 */
export function rewriteCover(matter: string, rewrite: (url: string) => string | undefined): string {
  const m = FRONT_MATTER.exec(matter);
  if (!m || !/^cover/m.test(m[1]!)) return matter;
  const doc = YAML.parseDocument(m[1]!);
  if (doc.errors.length > 0) return matter;
  const offset = m[0].indexOf('\n') + 1;
  const edits = COVER_KEYS.flatMap((key) => {
    const node = doc.get(key, true);
    if (!YAML.isScalar(node) || typeof node.value !== 'string' || !node.range) return [];
    const next = rewrite(node.value.trim());
    // Never folded: the value stays on its key's line.
    return next !== undefined && next !== node.value
      ? [{ start: offset + node.range[0], end: offset + node.range[1], text: YAML.stringify(next, { lineWidth: 0 }).trimEnd() }]
      : [];
  });
  let out = matter;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** A page's markdown as stored: the front matter block the import kept (see PageFile.matter), and the rest. */
export function takeMatter(markdown: string): { matter?: string; body: string } {
  const m = FRONT_MATTER.exec(markdown);
  return m ? { matter: m[0], body: markdown.slice(m[0].length) } : { body: markdown };
}

/** What a reader sees of markdown: text without marks; raw HTML (an anchor after a title) left out. */
export function plainText(node: RootContent | Root): string {
  if (node.type === 'html') return '';
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node.children as RootContent[]).map(plainText).join('');
  return '';
}

// Text without any of these has nothing to rewrite: no parse needed.
const LINK_HINT = /\]\s*[(:[]|\b(?:src|href|url)\s*=/i;
// GitBook's blocks that name a page or a file: `{% content-ref url="…" %}`, `{% file src="…" %}`,
// `{% openapi src="…" path="…" method="…" %}` (its spec).
const TAG_URL = /(\{%[ \t]*(?:content-ref[ \t]+url|(?:file|openapi)[ \t]+src)[ \t]*=[ \t]*)"([^"\r\n]*)"/g;
const HTML_URL = /(\b(?:src|href)\s*=\s*)(["'])([^"']*)\2/gi;

// An include as the document model reads one (a line of its own in GitBook's spelling).
const INCLUDE_TAG = /(\{% include ")([^"\r\n]+)(" %\})/g;

/**
 * Rewrites the targets of `{% include "…" %}` tags in place (the rest stays byte for byte);
 * `rewrite` answers the new target or undefined to keep one.
 */
export function rewriteIncludes(markdown: string, rewrite: (target: string) => string | undefined): string {
  if (!markdown.includes('{% include ')) return markdown;
  const { code } = parsedLinks(markdown);
  return markdown.replace(INCLUDE_TAG, (all, head: string, target: string, tail: string, offset: number) => {
    // A tag shown in code is text: neither read nor rewritten.
    const next = inside(code, offset) ? undefined : rewrite(target);
    return next === undefined ? all : `${head}${next}${tail}`;
  });
}

interface Span {
  start: number;
  end: number;
}

const inside = (spans: readonly Span[], offset: number) => spans.some((s) => offset >= s.start && offset < s.end);

/** A target a link, image, definition or HTML attribute names, and where it is written in the text (when found). */
interface LinkTarget {
  url: string;
  at?: Span;
}

/**
 * The targets of a markdown text in document order, and where its code (fenced, indented, inline)
 * lies: what rewriting needs of the parse. Kept per text, so a page that has not changed since the
 * last import or export is not parsed again.
 */
const parsedLinks = memoByText(16_000_000, (markdown: string): { targets: readonly LinkTarget[]; code: readonly Span[] } => {
  const targets: LinkTarget[] = [];
  const code: Span[] = [];
  const visit = (node: Root | RootContent) => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if ((node.type === 'code' || node.type === 'inlineCode') && start !== undefined && end !== undefined) code.push({ start, end });
    if ((node.type === 'link' || node.type === 'image' || node.type === 'definition') && start !== undefined && end !== undefined) {
      const raw = markdown.slice(start, end);
      // The destination is the first occurrence after the label's `](` (or `]:`): not the label's
      // own text, not the title after it.
      const labelEnd = node.type === 'link' ? (node.children.at(-1)?.position?.end.offset ?? start) - start : 0;
      const opener = raw.indexOf(node.type === 'definition' ? ']:' : '](', labelEnd);
      const at = raw.indexOf(node.url, opener);
      // Written with escapes (`pg\_test\_timing.md`): the destination as written is what is replaced.
      const span = at >= 0 ? { start: at, end: at + node.url.length } : opener >= 0 ? escapedDestination(raw, opener + 2, node.url) : undefined;
      targets.push({ url: node.url, ...(span ? { at: { start: start + span.start, end: start + span.end } } : {}) });
    }
    if (node.type === 'html' && start !== undefined && end !== undefined) {
      for (const m of markdown.slice(start, end).matchAll(HTML_URL)) {
        const at = start + m.index + m[1]!.length + 1;
        targets.push({ url: m[3]!, at: { start: at, end: at + m[3]!.length } });
      }
    }
    if ('children' in node) for (const child of node.children as RootContent[]) visit(child);
  };
  visit(TABLE_DELIMITER_ROW.test(markdown) ? parseGfm(markdown) : linkParser.parse(markdown));
  if (markdown.includes('{%')) {
    for (const m of markdown.matchAll(TAG_URL)) {
      if (inside(code, m.index)) continue;
      const at = m.index + m[1]!.length + 1;
      targets.push({ url: m[2]!, at: { start: at, end: at + m[2]!.length } });
    }
  }
  return { targets, code };
});

/**
 * The destination written from `from` on (spaces first, `<…>` or a bare one), when it reads as
 * `url` once its backslash escapes are taken out. Reads each character once.
 */
function escapedDestination(raw: string, from: number, url: string): { start: number; end: number } | undefined {
  let i = from;
  while (i < raw.length && /\s/.test(raw[i]!)) i++;
  const angled = raw[i] === '<';
  const start = angled ? i + 1 : i;
  let depth = 0;
  let text = '';
  for (i = start; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length && /[!-/:-@[-`{-~]/.test(raw[i + 1]!)) {
      text += raw[++i];
      continue;
    }
    if (angled ? c === '>' : /\s/.test(c) || (c === ')' && depth === 0)) break;
    if (c === '(') depth++;
    if (c === ')') depth--;
    text += c;
  }
  // The parser gives the destination percent-encoded (`<截图 1.png>` reads `%E6%88%AA%E5%9B%BE%201.png`).
  return text === url || decodedUri(text) === decodedUri(url) ? { start, end: i } : undefined;
}

/**
 * Rewrites the targets of links, images, definitions, HTML `src`/`href` attributes and GitBook's
 * content references and files, editing
 * the source text in place (the rest of the markdown stays byte for byte). `rewrite` answers the
 * new target or undefined to keep one; it sees every target, in document order.
 */
export function rewriteLinks(markdown: string, rewrite: (url: string) => string | undefined): string {
  if (!LINK_HINT.test(markdown)) return markdown;
  const edits: { start: number; end: number; text: string }[] = [];
  for (const { url, at } of parsedLinks(markdown).targets) {
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
