import type { ContentRef } from '@quire/document';

// The editor's (ProseMirror/Tiptap) JSON, and how the model's parts ride in its attributes.

export interface PMMark {
  type: string;
  attrs?: Record<string, unknown>;
}
export interface PMNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: PMNode[];
  text?: string;
  marks?: PMMark[];
}

/** A URL to show for a ref in the editor (the ref itself is kept beside it). */
export type RefHref = (ref: ContentRef) => string;

/** A JSON attribute, null when there is nothing to keep. */
export const json = (value: Record<string, unknown>): string | null => (Object.keys(value).length ? JSON.stringify(value) : null);
export const parse = (value: unknown): Record<string, unknown> => (typeof value === 'string' ? (JSON.parse(value) as Record<string, unknown>) : {});

/** A block's fields beyond object, type, nodes and those named (its `data`, `isVoid`, `meta`…), keys dropped. */
export function rest(b: object, omit: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(stripKeys(b))) if (!['object', 'type', 'nodes', ...omit].includes(k)) out[k] = v;
  return out;
}

export const withContent = (node: PMNode, content: PMNode[]): PMNode => (content.length ? { ...node, content } : node);

/** Keys identify nodes across edits in GitBook's editor; ours are positions, so they are dropped. */
export function stripKeys<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (k, v) => (k === 'key' ? undefined : v)));
}

/** An id not in `used` (then added to it): `preferred` when free, else `prefix` and a number. */
export function freshId(used: Set<string>, preferred: unknown, prefix: string): string {
  let id = typeof preferred === 'string' && preferred && !used.has(preferred) ? preferred : undefined;
  for (let i = used.size; !id; i++) if (!used.has(`${prefix}${i}`)) id = `${prefix}${i}`;
  used.add(id);
  return id;
}
