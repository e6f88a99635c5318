import transliterate from '@sindresorhus/transliterate';
import { romanizeEastAsian } from '@quire/document';
import { slugify } from '@quire/service-kit';

/**
 * A new page's slug as GitBook makes it: accents dropped, other scripts transliterated
 * (`Установка` → `ustanovka`, `安装指南` → `an-zhuang-zhi-nan`), lower case, words joined by hyphens.
 */
export function titleSlug(title: string): string {
  // Accents go first: transliteration would spell `Ü` as `Ue`.
  return slugify(
    transliterate(
      romanizeEastAsian(title)
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, ''),
    ),
  );
}

// What a slug may be (content's rule): a file's own name that fits is the page's slug as it is.
const NAME_SLUG = /^[a-z0-9](?:[a-z0-9_.-]{0,98}[a-z0-9_-])?$/;

/**
 * An imported page's slug: its file's name without `.md`, underscores and dots kept
 * (`install_steps`, `api_v2.1`), so published URLs stay the paths readers know; a name that
 * cannot be a slug as it is (spaces, other scripts) is made one.
 */
export function fileSlug(name: string, title: string): string {
  const lower = name.toLowerCase();
  if (NAME_SLUG.test(lower)) return lower;
  const fromName = titleSlug(name);
  return fromName !== 'page' ? fromName : titleSlug(title);
}
