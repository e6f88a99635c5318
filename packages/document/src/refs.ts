import type { ContentRef } from './types.ts';

/** Where a destination written in markdown appears: the caller may resolve each kind differently. */
export type LinkContext = 'link' | 'mention' | 'image' | 'file' | 'content-ref' | 'include';

/**
 * Maps a destination as written in markdown (a relative path, a URL, `#anchor`) to a ContentRef,
 * e.g. a page path to `{kind: 'page', page: id}`. Returning undefined keeps the raw destination.
 * For images the answer must be a `url` or `file` ref, for files a `file` ref; others are ignored.
 */
export type ResolveLink = (url: string, context: LinkContext) => ContentRef | undefined;

/**
 * Maps a ContentRef back to a destination (a path for markdown, a URL for HTML). Returning
 * undefined uses the default: the raw destination kept in `url` or `file` refs, `#anchor` for
 * anchors, nothing for the others.
 */
export type RefToUrl = (ref: ContentRef, context: LinkContext) => string | undefined;

/** The ref kept when nothing resolves a destination: the destination itself. */
export function rawRef(url: string, context: LinkContext): ContentRef {
  return context === 'file' ? { kind: 'file', file: url } : { kind: 'url', url };
}

export function resolveRef(url: string, context: LinkContext, resolve: ResolveLink | undefined): ContentRef {
  const ref = resolve?.(url, context);
  if (!ref) return rawRef(url, context);
  if (context === 'image' && ref.kind !== 'url' && ref.kind !== 'file') return rawRef(url, context);
  if (context === 'file' && ref.kind !== 'file') return rawRef(url, context);
  return ref;
}

/** The default destination of a ref: the raw destination fromMarkdown kept, or an anchor. */
export function defaultUrl(ref: ContentRef): string | undefined {
  switch (ref.kind) {
    case 'url':
      return ref.url;
    case 'file':
      return ref.file;
    case 'anchor':
      return `#${ref.anchor}`;
    default:
      return undefined;
  }
}

export function refUrl(ref: ContentRef, context: LinkContext, toUrl: RefToUrl | undefined): string | undefined {
  return toUrl?.(ref, context) ?? defaultUrl(ref);
}

/** The label GitBook writes for a mention or a content reference: the destination's last segment. */
export function refLabel(url: string): string {
  const last = url.split(/[?#]/, 1)[0]!.split('/').filter(Boolean).at(-1);
  return last || url;
}

// Where each kind of node keeps a destination, in the context fromMarkdown reads it in (buttons and
// drawings, which markdown cannot hold, in the context toMarkdown writes them in).
const NODE_CONTEXT: Readonly<Record<string, LinkContext>> = {
  link: 'link',
  button: 'link',
  drawing: 'image',
  mention: 'mention',
  image: 'image',
  'inline-image': 'image',
  file: 'file',
  swagger: 'file',
  'content-ref': 'content-ref',
};

type Walked = { type?: string; data?: { ref?: ContentRef; records?: unknown; definition?: unknown }; nodes?: Walked[]; fragments?: Walked[] };
type TableData = { records: Record<string, { values: Record<string, unknown> }>; definition: Record<string, { type: string }> };

/**
 * Visits every destination of a document in document order (table cells' content references and
 * files included) with the context fromMarkdown read it in; what `visit` answers replaces it, in place
 * (only where it differs: a visit that answers every ref as given, a read, writes nothing).
 */
export function mapRefs<D extends { nodes: unknown[] }>(document: D, visit: (ref: ContentRef, context: LinkContext) => ContentRef): D {
  const walk = (node: Walked) => {
    const context = node.type === undefined ? undefined : NODE_CONTEXT[node.type];
    if (context && node.data?.ref) {
      const ref = visit(node.data.ref, context);
      if (ref !== node.data.ref) node.data.ref = ref;
    }
    if (node.type === 'table') {
      const data = node.data as unknown as TableData;
      for (const record of Object.values(data.records)) {
        for (const [id, value] of Object.entries(record.values)) {
          const type = data.definition[id]?.type;
          let next = value;
          if (type === 'content-ref') next = visit(value as ContentRef, 'content-ref');
          else if (type === 'files' && Array.isArray(value)) {
            const files = value.map((file: string) => (visit({ kind: 'file', file }, 'file') as { file: string }).file);
            if (files.some((file, i) => file !== value[i])) next = files;
          }
          if (next !== value) record.values[id] = next;
        }
      }
    }
    node.nodes?.forEach(walk);
    node.fragments?.forEach(walk);
  };
  (document.nodes as Walked[]).forEach(walk);
  return document;
}

/** The users a document mentions, by id, each once (a page shows their names). */
export function mentionedUsers(document: { nodes: unknown[] }): string[] {
  const ids = new Set<string>();
  mapRefs(document, (ref, context) => {
    if (context === 'mention' && ref.kind === 'user') ids.add(ref.user);
    return ref;
  });
  return [...ids];
}

/**
 * Resolves, in place, the raw destinations of a document read without a resolver: the same
 * document `fromMarkdown(markdown, {resolveLink})` gives, from one stored `fromMarkdown(markdown)`.
 * Content stores documents once per text and resolves them for the revision they are read in.
 */
export function resolveRefs<D extends { nodes: unknown[] }>(document: D, resolve: ResolveLink): D {
  return mapRefs(document, (ref, context) => {
    if (ref.kind === 'file') return resolveRef(ref.file, context, resolve);
    // An OpenAPI spec given by an http(s) URL stays a URL, never resolved (see fromMarkdown).
    if (ref.kind === 'url' && context !== 'file') return resolveRef(ref.url, context, resolve);
    return ref;
  });
}
