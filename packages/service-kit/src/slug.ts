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
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/, '');
  return slug || fallback;
}
