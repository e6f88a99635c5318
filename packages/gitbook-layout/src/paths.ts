import { posix } from 'node:path';

/** Joins repository paths: posix, normalized, no leading `./` or `/`. */
export function joinPath(...parts: string[]): string {
  const joined = posix.normalize(parts.filter(Boolean).join('/'));
  return joined === '.' || joined === '/' ? '' : joined.replace(/^\.?\//, '').replace(/\/$/, '');
}

export const dirOf = (path: string) => {
  const d = posix.dirname(path);
  return d === '.' ? '' : d;
};

/**
 * Whether an export may write `path`: relative, inside `dir`, with no `..` or `.git` segment (any
 * case), backslash or NUL; the last check before anything reaches the repository.
 */
export function isWritablePath(path: string, dir: string): boolean {
  if (path === '' || path.startsWith('/') || /[\\\0]/.test(path)) return false;
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.toLowerCase() === '.git')) return false;
  return isInside(path, dir);
}

/** Whether `path` is `dir` itself or inside it ('' holds everything). */
export const isInside = (path: string, dir: string) => dir === '' || path === dir || path.startsWith(`${dir}/`);

/** A target relative to `fromDir`, as a markdown link writes it. */
export function relativePath(fromDir: string, target: string): string {
  return posix.relative(fromDir || '.', target) || posix.basename(target);
}

/** A link to a page of the space, as imports write them (`/pages/<id>`). */
export const PAGE_LINK = /^\/pages\/([A-Za-z0-9_-]+)$/;
/** A link to a file of the space, as imports write them (`/files/<id>`). */
export const FILE_LINK = /^\/files\/([A-Za-z0-9_-]+)$/;

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
export const isExternal = (url: string) => SCHEME.test(url) || url.startsWith('//');

/** A link target split into its path and what follows it (`#anchor` or `?query`). */
export function splitTarget(url: string): { path: string; rest: string } {
  const at = url.search(/[?#]/);
  return { path: decodedUri(at < 0 ? url : url.slice(0, at)), rest: at < 0 ? '' : url.slice(at) };
}

/** `url` with its percent-encoding taken out (`%20` → space), or as it is when that is malformed. */
export function decodedUri(url: string): string {
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  pdf: 'application/pdf',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  txt: 'text/plain',
  csv: 'text/csv',
  zip: 'application/zip',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
};

export const contentTypeOf = (name: string) => TYPES[posix.extname(name).slice(1).toLowerCase()] ?? 'application/octet-stream';

export const isMarkdown = (path: string) => /\.md$/i.test(path);
