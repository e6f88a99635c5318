import type { JSONDocument } from './types.ts';

// Reusable contents put in place: what the reader renders and what its markdown outputs read is
// the page with each include replaced by the included document's blocks, so anchors, the outline
// and text see them as the page's own.

/** How deep reusable contents may include one another; deeper includes stay includes. */
export const MAX_INCLUDE_DEPTH = 5;

type Node = { object?: string; type?: string; data?: { ref?: { reusableContent?: string } }; nodes?: Node[]; fragments?: Node[] };

/**
 * The document with each `reusable-content` block replaced by the blocks of `lookup`'s document
 * for it, nested includes too. One unknown, one inside itself (directly or through others) or
 * one deeper than MAX_INCLUDE_DEPTH stays the block it was (toHtml shows nothing for it,
 * toMarkdown its tag).
 */
export function inlineReusableContents(document: JSONDocument, lookup: (id: string) => JSONDocument | undefined): JSONDocument {
  const expand = (nodes: Node[], including: readonly string[]): Node[] =>
    nodes.flatMap((n): Node[] => {
      if (n.type === 'reusable-content') {
        const id = n.data?.ref?.reusableContent;
        const included = id === undefined || including.includes(id) || including.length >= MAX_INCLUDE_DEPTH ? undefined : lookup(id);
        return included ? expand(included.nodes as Node[], [...including, id!]) : [n];
      }
      // Only blocks and fragments hold blocks; text and inlines are left as they are.
      if (n.object !== 'block' && n.object !== 'fragment') return [n];
      return [{ ...n, ...(n.nodes ? { nodes: expand(n.nodes, including) } : {}), ...(n.fragments ? { fragments: expand(n.fragments, including) } : {}) }];
    });
  return { ...document, nodes: expand(document.nodes as Node[], []) as JSONDocument['nodes'] };
}
