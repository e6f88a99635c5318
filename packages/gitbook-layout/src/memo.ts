import { createHash } from 'node:crypto';

/**
 * `fn` remembered for the texts it read last, up to `maxChars` of them in all: a repository's
 * unchanged pages are parsed once per process rather than once per import or export. Keyed by
 * the text's SHA-256; bounded by the texts' length because results may hold slices of a text,
 * which keep all of it. `fn`'s results are shared: they must not be changed.
 */
export function memoByText<T>(maxChars: number, fn: (text: string) => T): (text: string) => T {
  const cache = new Map<string, { value: T; chars: number }>();
  let chars = 0;
  return (text) => {
    const key = createHash('sha256').update(text).digest('base64');
    const hit = cache.get(key);
    if (hit) {
      // A Map iterates in insertion order: moved to the end, the first entry is the least recently used.
      cache.delete(key);
      cache.set(key, hit);
      return hit.value;
    }
    const value = fn(text);
    cache.set(key, { value, chars: text.length });
    chars += text.length;
    for (const [k, e] of cache) {
      if (chars <= maxChars) break;
      cache.delete(k);
      chars -= e.chars;
    }
    return value;
  };
}
