import { diffArrays } from 'diff';
import { fromMarkdown, toMarkdown, type JSONDocument } from '@quire/document';

export type BlockChange = { kind: 'same' | 'added' | 'removed' | 'moved'; markdown: string };

/** Each top-level block of a page as its markdown: the unit a reviewer reads changes in. */
export function blocksOf(markdown: string): string[] {
  const doc = fromMarkdown(markdown);
  return doc.nodes.map((n) => toMarkdown({ object: 'document', data: {}, nodes: [n] } as JSONDocument).trim());
}

/** Added, removed and unchanged blocks (LCS over whole blocks); a block removed in one place and added in another is `moved`. */
export function diffBlocks(before: string, after: string): BlockChange[] {
  const parts = diffArrays(blocksOf(before), blocksOf(after));
  const removed = new Set(parts.filter((p) => p.removed).flatMap((p) => p.value));
  const added = new Set(parts.filter((p) => p.added).flatMap((p) => p.value));
  return parts
    .flatMap((p) =>
      p.value.map((markdown): BlockChange => {
        if (p.added) return { kind: removed.has(markdown) ? 'moved' : 'added', markdown };
        if (p.removed) return { kind: added.has(markdown) ? 'moved' : 'removed', markdown };
        return { kind: 'same', markdown };
      }),
    )
    .filter((c, i, all) => !(c.kind === 'moved' && all.findIndex((o) => o.kind === 'moved' && o.markdown === c.markdown) !== i));
}
