import type { ContentRef } from './types.ts';

/** Where a destination written in markdown appears: the caller may resolve each kind differently. */
export type LinkContext = 'link' | 'mention' | 'image' | 'file' | 'content-ref';

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
