import type { List, ListItem, RootContent } from 'mdast';
import { parseGfm } from '@quire/document/gfm';
import { plainText } from './markdown.ts';
import { memoByText } from './memo.ts';

/** One entry of a SUMMARY.md: a link to a page file (or an external URL), with its children. */
export interface SummaryEntry {
  title: string;
  /** The link target as written; empty for an entry without a link. */
  href: string;
  children: SummaryEntry[];
}

/**
 * A part of the table of contents: the entries before the first `##` heading, then one per
 * heading, and one for the entries after each `***` (a rule ends a group).
 */
export interface SummaryPart {
  /** The `##` heading's text; undefined for the entries outside any group. */
  title?: string;
  /** The id of the heading's anchor (`## 入门 <a href="#ru-men" id="ru-men"></a>`): the group's slug. */
  anchor?: string;
  entries: SummaryEntry[];
}

const ANCHOR_ID = /\bid\s*=\s*["']([^"']+)["']/i;

/**
 * Reads a GitBook SUMMARY.md: nested bullet lists of links; `#` is the document's own title,
 * `##` (and deeper) headings start groups, `***` ends one. Kept per text: a reimport whose commit
 * left the summary as it was does not parse it again (the parts are shared: read them, never
 * change them).
 */
export const parseSummary = memoByText(4_000_000, (markdown: string): readonly SummaryPart[] => {
  const parts: SummaryPart[] = [{ entries: [] }];
  for (const node of parseGfm(markdown).children) {
    if (node.type === 'heading' && node.depth >= 2) {
      const anchor = node.children.flatMap((c) => (c.type === 'html' ? [ANCHOR_ID.exec(c.value)?.[1]] : [])).find(Boolean);
      parts.push({ title: plainText(node).trim(), ...(anchor ? { anchor } : {}), entries: [] });
    } else if (node.type === 'thematicBreak') parts.push({ entries: [] });
    else if (node.type === 'list') parts.at(-1)!.entries.push(...listEntries(node));
  }
  return parts.filter((p) => p.title !== undefined || p.entries.length > 0);
});

function listEntries(list: List): SummaryEntry[] {
  return list.children.flatMap((item) => {
    const entry = itemEntry(item);
    return entry ? [entry] : [];
  });
}

function itemEntry(item: ListItem): SummaryEntry | undefined {
  let title = '';
  let href = '';
  const children: SummaryEntry[] = [];
  for (const child of item.children) {
    if (child.type === 'list') children.push(...listEntries(child));
    else if (!title) {
      const link = findLink(child);
      title = plainText(link ?? child).trim();
      href = link?.url ?? '';
    }
  }
  return title ? { title, href, children } : undefined;
}

function findLink(node: RootContent): (RootContent & { type: 'link' }) | undefined {
  if (node.type === 'link') return node;
  if ('children' in node) {
    for (const child of node.children as RootContent[]) {
      const found = findLink(child);
      if (found) return found;
    }
  }
  return undefined;
}

const escapeTitle = (t: string) => t.replace(/([\\[\]])/g, '\\$1').replace(/\n/g, ' ');
// Each segment encoded, but for the characters a link keeps as they are and the import's
// decoding would leave encoded (`c++.md`, `q&a.md`).
const encodePath = (p: string) =>
  p
    .split('/')
    .map((s) => encodeURIComponent(s).replace(/%(?:2B|26|3D|2C|40|24|3B)/g, decodeURIComponent))
    .join('/');

export interface SummaryLine {
  title: string;
  /** A path relative to the SUMMARY.md, or an external URL. */
  href: string;
  /** What follows a path (`#anchor`). */
  anchor?: string;
  external?: boolean;
  children: SummaryLine[];
}

/**
 * Writes a SUMMARY.md from the same structure parseSummary reads: a group's anchor as GitBook
 * writes it, and `***` before entries that follow a group without being in it.
 */
export function writeSummary(parts: { title?: string; anchor?: string; lines: SummaryLine[] }[]): string {
  const out = ['# Table of contents', ''];
  const write = (lines: SummaryLine[], depth: number) => {
    for (const l of lines) {
      out.push(`${'  '.repeat(depth)}* [${escapeTitle(l.title)}](${l.external ? l.href : encodePath(l.href) + (l.anchor ?? '')})`);
      write(l.children, depth + 1);
    }
  };
  parts.forEach((part, i) => {
    const anchor = part.anchor ? ` <a href="#${part.anchor}" id="${part.anchor}"></a>` : '';
    if (part.title !== undefined) out.push('', `## ${part.title.replace(/\n/g, ' ')}${anchor}`, '');
    else if (i > 0) out.push('', '***', '');
    write(part.lines, 0);
  });
  return `${out.join('\n')}\n`;
}
