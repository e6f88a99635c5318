import type { List, ListItem, RootContent } from 'mdast';
import { parseGfm } from '@quire/service-kit/markdown';
import { plainText } from './markdown.ts';
import { memoByText } from './memo.ts';

/** One entry of a SUMMARY.md: a link to a page file (or an external URL), with its children. */
export interface SummaryEntry {
  title: string;
  /** The link target as written; empty for an entry without a link. */
  href: string;
  children: SummaryEntry[];
}

/** A part of the table of contents: the entries before the first `##` heading, then one per heading. */
export interface SummaryPart {
  /** The `##` heading's text; undefined for the entries before any. */
  title?: string;
  entries: SummaryEntry[];
}

/**
 * Reads a GitBook SUMMARY.md: nested bullet lists of links; `#` is the document's own title,
 * `##` (and deeper) headings start groups. Kept per text: a reimport whose commit left the
 * summary as it was does not parse it again (the parts are shared: read them, never change them).
 */
export const parseSummary = memoByText(4_000_000, (markdown: string): readonly SummaryPart[] => {
  const parts: SummaryPart[] = [{ entries: [] }];
  for (const node of parseGfm(markdown).children) {
    if (node.type === 'heading' && node.depth >= 2) parts.push({ title: plainText(node).trim(), entries: [] });
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
const encodePath = (p: string) => p.split('/').map(encodeURIComponent).join('/');

export interface SummaryLine {
  title: string;
  /** A path relative to the SUMMARY.md, or an external URL. */
  href: string;
  /** What follows a path (`#anchor`). */
  anchor?: string;
  external?: boolean;
  children: SummaryLine[];
}

/** Writes a SUMMARY.md from the same structure parseSummary reads. */
export function writeSummary(parts: { title?: string; lines: SummaryLine[] }[]): string {
  const out = ['# Table of contents', ''];
  const write = (lines: SummaryLine[], depth: number) => {
    for (const l of lines) {
      out.push(`${'  '.repeat(depth)}* [${escapeTitle(l.title)}](${l.external ? l.href : encodePath(l.href) + (l.anchor ?? '')})`);
      write(l.children, depth + 1);
    }
  };
  for (const part of parts) {
    if (part.title !== undefined) out.push('', `## ${part.title.replace(/\n/g, ' ')}`, '');
    write(part.lines, 0);
  }
  return `${out.join('\n')}\n`;
}
