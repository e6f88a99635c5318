import { anchorSlug } from './text.ts';

// Slugs of pages, groups, site sections and export files: GitBook's one rule, everywhere.

/**
 * What a page's slug may be: lower-case letters, digits, `-`, `_`, `.` and `+` (GitBook's slugs
 * keep the dots and pluses of `17.1.-building-with-visual-c++`), at most 100, neither first nor
 * a dot last.
 */
export const PAGE_SLUG = /^[a-z0-9](?:[a-z0-9_.+-]{0,98}[a-z0-9_+-])?$/;

// Accents go first: transliteration would spell `Ü` as `Ue`.
const unaccented = (text: string) => text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');

interface Fit {
  /** At most this long (100, a page slug's bound). */
  maxLength?: number;
  /** What a text with nothing that can be a slug gives (`page`). */
  fallback?: string;
}

/** A slug cut to `maxLength`, or `fallback` when nothing of the text can be one. */
function fit(slug: string, { maxLength = 100, fallback = 'page' }: Fit = {}): string {
  let end = Math.min(slug.length, maxLength);
  // A cut may end on a separator; a slug may not.
  while (end > 0 && (slug[end - 1] === '-' || slug[end - 1] === '.')) end--;
  const cut = slug.slice(0, end);
  return PAGE_SLUG.test(cut) ? cut : fallback;
}

/**
 * A new page's or group's slug as GitBook makes it (the rule of its heading anchors): accents
 * dropped, other scripts transliterated (`Установка` → `ustanovka`, `安装指南` →
 * `an-zhuang-zhi-nan`), `&` spelled `and`, lower case, words joined by hyphens.
 */
export const titleSlug = (title: string, options?: Fit): string => fit(anchorSlug(unaccented(title)), options);

/**
 * An imported page's slug: its file's name without `.md`, underscores, dots and pluses kept
 * (`install_steps`, `api_v2.1`, `17.1.-building-with-visual-c++`) as GitBook keeps them, so
 * published URLs stay the paths readers know; a name that cannot be a slug as it is (spaces,
 * capitals, other scripts) is made one by the same rule, still keeping those.
 */
export function fileSlug(name: string, title: string): string {
  const lower = name.toLowerCase();
  if (PAGE_SLUG.test(lower)) return lower;
  const fromName = fit(anchorSlug(unaccented(name), ['.', '_', '+']));
  return fromName !== 'page' ? fromName : titleSlug(title);
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
