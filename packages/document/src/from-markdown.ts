import type { PhrasingContent, RootContent } from 'mdast';
import { fitBlocks } from './fit.ts';
import { parseMarkdownTree } from './markdown/parse.ts';
import { expandable, readBlock } from './markdown/read-blocks.ts';
import { readInlines } from './markdown/read-inlines.ts';
import { readTag } from './markdown/read-tags.ts';
import { MAX_NESTING, tagOf, type Reader } from './markdown/reader.ts';
import type { ResolveLink } from './refs.ts';
import type { DocumentBlock, InlineContent, JSONDocument, TopLevelBlock } from './types.ts';

export interface FromMarkdownOptions {
  /** Resolves destinations (links, images, files, content references) to refs; default: kept raw. */
  resolveLink?: ResolveLink;
}

export interface ParsedMarkdown {
  document: JSONDocument;
  /** The YAML front matter's source (without its `---` fences), kept aside from the document. */
  frontmatter?: string;
}

/** Markdown (GFM and GitBook's block syntax) → GitBook JSONDocument. Never throws on odd input. */
export function fromMarkdown(markdown: string, options: FromMarkdownOptions = {}): JSONDocument {
  return parseMarkdown(markdown, options).document;
}

/** Like fromMarkdown, with the front matter kept aside. */
export function parseMarkdown(markdown: string, options: FromMarkdownOptions = {}): ParsedMarkdown {
  const root = parseMarkdownTree(markdown);
  let matter: string | undefined;
  const children = root.children.filter((node) => {
    if (node.type !== 'yaml') return true;
    matter = node.value;
    return false;
  });
  const reader = new Conversion(options.resolveLink);
  const nodes = fitBlocks(reader.flow(children), 'document') as TopLevelBlock[];
  const document: JSONDocument = { object: 'document', data: {}, nodes };
  return matter === undefined ? { document } : { document, frontmatter: matter };
}

const DETAILS_OPEN = /^<details(?:\s[^>]*)?>/i;
const DETAILS_CLOSE = /^<\/details>\s*$/i;
const DETAILS = '<details>';

/** One conversion: the blocks, GitBook tags and inlines read by markdown/read-*.ts, ids for tables. */
class Conversion implements Reader {
  private tables = 0;
  private readonly pairs = new WeakMap<RootContent[], Map<number, number>>();
  depth = 0;

  constructor(readonly resolveLink: ResolveLink | undefined) {}

  flow(children: RootContent[]): DocumentBlock[] {
    this.depth++;
    try {
      return this.siblings(children);
    } finally {
      this.depth--;
    }
  }

  private siblings(children: RootContent[]): DocumentBlock[] {
    const out: DocumentBlock[] = [];
    for (let i = 0; i < children.length; i++) {
      const node = children[i]!;
      if (node.type === 'gitbookTag') {
        i = readTag(this, children, i, out);
        continue;
      }
      if (node.type === 'html' && DETAILS_OPEN.test(node.value) && this.depth <= MAX_NESTING) {
        const end = this.closer(children, i);
        if (end !== -1) {
          out.push(expandable(this, node.value, children.slice(i + 1, end)));
          i = end;
          continue;
        }
      }
      out.push(...readBlock(this, node));
    }
    return out;
  }

  /**
   * The index of the sibling closing the container opened at `start` (a GitBook tag or
   * `<details>`; nested ones of the same kind paired first), or -1. A run of siblings is paired up
   * once, in one pass: scanning forward from every opener was quadratic in unclosed tags.
   */
  closer(children: RootContent[], start: number): number {
    let pairs = this.pairs.get(children);
    if (!pairs) {
      pairs = new Map();
      const open = new Map<string, number[]>();
      children.forEach((node, i) => {
        const tag = tagOf(node);
        let kind: string | undefined;
        let opens = false;
        if (tag) [kind, opens] = [tag.name, !tag.closing];
        else if (node.type === 'html') {
          opens = DETAILS_OPEN.test(node.value);
          if (opens || DETAILS_CLOSE.test(node.value)) kind = DETAILS;
        }
        if (kind === undefined) return;
        const stack = open.get(kind) ?? open.set(kind, []).get(kind)!;
        if (opens) stack.push(i);
        else if (stack.length) pairs!.set(stack.pop()!, i);
      });
      this.pairs.set(children, pairs);
    }
    return pairs.get(start) ?? -1;
  }

  tableId(): string {
    return `t${++this.tables}`;
  }

  inlines(children: PhrasingContent[]): InlineContent[] {
    return readInlines(children, this.resolveLink);
  }
}
