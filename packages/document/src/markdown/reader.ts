import type { PhrasingContent, RootContent } from 'mdast';
import type { ResolveLink } from '../refs.ts';
import type { DocumentBlock, InlineContent } from '../types.ts';
import { parseTag, type ParsedTag } from './tags.ts';

/** What reading one construct needs of the conversion it is part of. */
export interface Reader {
  /** Resolves destinations to refs; none: kept raw. */
  readonly resolveLink: ResolveLink | undefined;
  /** How deeply containers are nested where the reader is. */
  readonly depth: number;
  /** A run of sibling blocks, GitBook tags and `<details>` paired up into containers. */
  flow(children: RootContent[]): DocumentBlock[];
  inlines(children: PhrasingContent[]): InlineContent[];
  /** The index of the sibling closing the container opened at `start`, or -1. */
  closer(children: RootContent[], start: number): number;
  /** A new table's id, unique in the document. */
  tableId(): string;
}

// Containers nested deeper than any page has stay text: the reading recurses per level.
export const MAX_NESTING = 100;

const parsedTags = new WeakMap<RootContent, ParsedTag | undefined>();

/** The GitBook tag a node is, read once per node. */
export function tagOf(node: RootContent): ParsedTag | undefined {
  if (node.type !== 'gitbookTag') return undefined;
  if (!parsedTags.has(node)) parsedTags.set(node, parseTag(node.value));
  return parsedTags.get(node);
}
