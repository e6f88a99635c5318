/**
 * What a page's slug may be: lower-case letters, digits, `-`, `_`, `.` and `+` (GitBook's slugs
 * keep the dots and pluses of `17.1.-building-with-visual-c++`), at most 100, neither first nor
 * a dot last.
 */
export const PAGE_SLUG = /^[a-z0-9](?:[a-z0-9_.+-]{0,98}[a-z0-9_+-])?$/;

/**
 * A URL-safe slug of a title (GitBook's page and path slugs): accents dropped, lower-case ASCII
 * letters and digits joined by single hyphens, at most `maxLength` characters, `fallback` when
 * nothing is left.
 */
export function slugify(title: string, { maxLength = 100, fallback = 'page' }: { maxLength?: number; fallback?: string } = {}): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    // Runs are single hyphens by now: one at either end at most.
    .replace(/^-|-$/g, '')
    .slice(0, maxLength)
    .replace(/-$/, '');
  return slug || fallback;
}

/**
 * A file's name as one path segment: separators, control characters and leading dots become
 * harmless, so that no name (`../../.github/workflows/x.yml`, `.git`) leads anywhere when a
 * space is written out as files (Git export).
 */
export function safeFileName(name: string): string {
  const flat = name.replace(/[/\\\u0000-\u001f\u007f]/g, '-').replace(/^[.\s]+/, '');
  return flat || 'file';
}
