import { TRANSLATION } from '@quire/proto/limits';
import { checkLength, InvalidArgumentError } from '@quire/service-kit';

export function checkTitle(title: string): string {
  return checkLength('title', title, TRANSLATION.title);
}

/** BCP 47 language tags, canonicalized by the runtime's Intl (e.g. `pt-br` becomes `pt-BR`), without repeats. */
export function checkLanguages(languages: string[]): string[] {
  if (languages.length > TRANSLATION.languages.max) throw new InvalidArgumentError(`languages: at most ${TRANSLATION.languages.max}`);
  const out = languages.map((tag, i) => {
    checkLength(`languages[${i}]`, tag, TRANSLATION.language);
    try {
      const [canonical] = Intl.getCanonicalLocales(tag);
      if (canonical) return canonical;
    } catch {
      // reported below
    }
    throw new InvalidArgumentError(`languages[${i}]: "${tag}" is not a language tag`);
  });
  return [...new Set(out)];
}
