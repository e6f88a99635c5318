// Request rules shared by search and the link lists: the query's bounds and offset paging (results
// ranked or computed in one pass have no natural key to continue after).
import { SPACE } from '@quire/proto/limits';
import { decodeCursor, encodeCursor, InvalidArgumentError, pageLimit } from '@quire/service-kit';

/** Matching sections shown under each page found. */
export const SECTIONS_PER_PAGE = 5;

export function checkQuery(query: string): string {
  const q = query.trim();
  if (q === '') throw new InvalidArgumentError('query: required');
  if (query.length > SPACE.searchQuery.max) throw new InvalidArgumentError(`query: must be at most ${SPACE.searchQuery.max} characters`);
  return q;
}

/** The page asked for as an offset into the whole result, and the limit. */
export function offsetPage(req: { page?: string; limit?: number } | undefined): { offset: number; limit: number } {
  const limit = pageLimit(req?.limit);
  const cursor = decodeCursor(req?.page);
  if (cursor === undefined) return { offset: 0, limit };
  if (!/^\d{1,9}$/.test(cursor)) throw new InvalidArgumentError('page: not a cursor this API gave out');
  return { offset: Number(cursor), limit };
}

/** The page's items out of `rows` fetched from `offset` with `limit + 1`, and the next cursor. */
export function offsetPageOf<T>(rows: T[], offset: number, limit: number): { items: T[]; next?: string } {
  if (rows.length <= limit) return { items: rows };
  return { items: rows.slice(0, limit), next: encodeCursor(String(offset + limit)) };
}

/**
 * The languages search stems words in, each a text search configuration of the database
 * (`quire_<language>`, migration 20261124200000_search_every_language): the language's Snowball
 * stemmer after accents are taken off (`cafés` and `cafe` meet), ASCII words in English stemming
 * for Russian and Greek (which write product names in Latin letters).
 */
export const SEARCH_LANGUAGES = ['english', 'french', 'german', 'spanish', 'italian', 'portuguese', 'russian', 'greek'] as const;
export type SearchLanguage = (typeof SEARCH_LANGUAGES)[number];

// Words telling Latin-script languages apart: frequent, short and mostly proper to one language.
const FUNCTION_WORDS: [SearchLanguage, string][] = [
  ['english', 'the and of to is in that with for this you are be it on as not or can'],
  ['french', 'le la les et des est une du pour dans que avec sur pas vous au ce qui sont par'],
  ['german', 'der die das und ist nicht mit ein eine den von zu auf sie wird sich dem im für'],
  ['spanish', 'el los las y es una por con para del se como está al lo su más pero'],
  ['italian', 'il gli e è una per con della che non sono del alla di un nel si questo'],
  ['portuguese', 'os e é uma para com não dos das em do da um no na ao se você'],
];
// Each word's languages, in the order above: one lookup per word of a section.
const LANGUAGES_OF_WORD = new Map<string, SearchLanguage[]>();
for (const [language, words] of FUNCTION_WORDS) for (const word of words.split(' ')) LANGUAGES_OF_WORD.set(word, [...(LANGUAGES_OF_WORD.get(word) ?? []), language]);
// Enough text to tell the language; the rest of a long section only costs time.
const DETECT_CHARS = 4000;
// Runs of one script: counted a run at a time (every section of an import is detected, and a match
// per letter cost more than the rest of its indexing).
const SCRIPT_RUNS = /(\p{Script=Latin}+)|(\p{Script=Cyrillic}+)|(\p{Script=Greek}+)/gu;

/**
 * The language a section is stemmed in: by its script (Cyrillic: Russian, Greek: Greek), and for
 * Latin text by its most frequent function words, English when none stands out. A wrong guess
 * costs only inflections: a query is stemmed in every language, so a word as written is found
 * whatever its section was stemmed in.
 */
export function searchLanguage(text: string): SearchLanguage {
  const sample = text.slice(0, DETECT_CHARS);
  // ASCII text (most of it) is Latin: no script to count.
  if (/[^\0-\x7f]/.test(sample)) {
    const script = scriptOf(sample);
    if (script) return script;
  }
  const votes = new Map<SearchLanguage, number>();
  for (const word of sample.toLowerCase().split(/\P{L}+/u)) for (const language of LANGUAGES_OF_WORD.get(word) ?? []) votes.set(language, (votes.get(language) ?? 0) + 1);
  let best: SearchLanguage = 'english';
  for (const [language, n] of votes) if (n > (votes.get(best) ?? 0)) best = language;
  return best;
}

/** Russian or Greek when most of the letters are Cyrillic or Greek. */
function scriptOf(sample: string): SearchLanguage | undefined {
  // A run's letters are its length but where letters beyond the BMP (a few Latin and Cyrillic
  // extensions) take two units.
  const letters: (run: string) => number = /[\uD800-\uDFFF]/.test(sample) ? (run) => [...run].length : (run) => run.length;
  let [latin, cyrillic, greek] = [0, 0, 0];
  for (const [, l, c, g] of sample.matchAll(SCRIPT_RUNS)) {
    if (l) latin += letters(l);
    else if (c) cyrillic += letters(c);
    else greek += letters(g!);
  }
  if (cyrillic > latin && cyrillic >= greek) return 'russian';
  if (greek > latin) return 'greek';
  return undefined;
}

// Scripts written without spaces between words. PostgreSQL's parser takes a whole run of them
// for one word, so a run is indexed as its overlapping pairs of characters (bigrams): a word of
// two or more characters is then found anywhere in a sentence, as the pairs it is made of.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3005\u30fc\uff70]+/gu;
// Punctuation and symbols beyond ASCII (「」，。«» —): not word characters, whatever the
// database's locale thinks. ASCII punctuation stays: the parser reads it (emails, versions) and
// queries use it ("phrases", -not).
const OTHER_PUNCTUATION = /[^\p{L}\p{N}\p{M}\0-\x7f]+/gu;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * A query's two tsqueries (each its readings in every language, see the search store): `match`,
 * which the GIN indexes answer alone, and `exact`, when it asks more than `match` does (a CJK word
 * of three characters or more: its bigrams in a row), checked on the pages ranked only.
 */
export interface SearchQuery {
  match: string;
  exact?: string;
}

/**
 * Text as search indexes it (and queries are read): CJK runs as bigrams, punctuation beyond ASCII
 * as spaces. In a query, a run of several bigrams is, for the `exact` reading, a phrase (quoted,
 * unless it is in a quoted phrase already), so `-服务器` excludes the word rather than its first
 * pair; for the `match` reading, its bigrams all present (which GIN answers without reading the
 * pages, where a phrase makes it check positions in each candidate), still a phrase when excluded
 * (excluding any page holding its pairs would exclude too much).
 */
export function searchText(text: string, { query }: { query?: 'exact' | 'match' } = {}): string {
  return text.replace(OTHER_PUNCTUATION, ' ').replace(CJK, (run: string, offset: number, whole: string) => {
    const chars = [...run];
    const pairs = chars.length < 2 ? chars : chars.slice(1).map((c, i) => chars[i] + c);
    let out = pairs.join(' ');
    const inPhrase = (whole.slice(0, offset).split('"').length - 1) % 2 === 1;
    if (query && pairs.length > 1 && !inPhrase && (query === 'exact' || whole[offset - 1] === '-')) out = `"${out}"`;
    // Apart from letters around it: `Quire测试` is two words.
    const before = offset > 0 && LETTER_OR_DIGIT.test(whole[offset - 1]!) ? ' ' : '';
    const after = LETTER_OR_DIGIT.test(whole[offset + run.length] ?? '') ? ' ' : '';
    return before + out + after;
  });
}

/** The words of a web-search query, lower case, without operators, quotes or excluded words. */
export function queryTerms(query: string): string[] {
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '' && w !== 'or' && !w.startsWith('-'))
    .flatMap((w) => w.split(/[^\p{L}\p{N}]+/u))
    .filter((w) => w.length > 1);
}

const SNIPPET_CHARS = 200;
const CJK_WORD = new RegExp(`^${CJK.source}$`, 'u');
const MARK = /\p{M}/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

/** What snippet looks for: a query's words (queryTerms) as it compares them, made once per query. */
export interface SnippetTerms {
  /** Words by their start (the stem), lower case, without accents (NFD, marks removed). */
  stems: string[];
  /** CJK words where they occur, as written (NFD). */
  cjk: string[];
}

export function snippetTerms(terms: string[]): SnippetTerms {
  const out: SnippetTerms = { stems: [], cjk: [] };
  for (const term of terms) {
    if (CJK_WORD.test(term)) out.cjk.push(term.normalize('NFD'));
    else
      out.stems.push(
        term
          .slice(0, Math.max(3, term.length - 2))
          .normalize('NFD')
          .replace(/\p{M}+/gu, '')
          .toLowerCase(),
      );
  }
  return out;
}

/** The length of the combining mark at `i` (1, or 2 past the BMP), 0 when that is none. */
function markAt(text: string, i: number): number {
  const code = text.codePointAt(i);
  if (code === undefined || code < 0x300) return 0;
  if (code <= 0x36f) return 1;
  return MARK.test(String.fromCodePoint(code)) ? (code > 0xffff ? 2 : 1) : 0;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
/** Whether the code point is a letter, digit or mark; ASCII without a pattern, as most text is. */
function isWordChar(code: number): boolean {
  if (code < 0x80) return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);
  return WORD_CHAR.test(String.fromCodePoint(code));
}

// Lower case compares one sigma: a word's final ς is its σ.
const SIGMAS = 'σς';
const sameLetter = (a: string, b: string) => a === b || (SIGMAS.includes(a) && SIGMAS.includes(b));

// A letter of the text as stemAt compares it: lower case, ASCII without a call. A letter whose
// lower case is two letters compares by the first (İ, were it not decomposed already).
const lowerAt = (text: string, i: number): string => {
  const c = text.charCodeAt(i);
  if (c < 0x80) return c >= 0x41 && c <= 0x5a ? String.fromCharCode(c | 0x20) : text[i]!;
  return text[i]!.toLowerCase()[0]!;
};

/**
 * Where in `text` (NFD) the stem (lower case) starts a word, each of its letters followed by any
 * marks (accents aside), whatever the text's case, or -1. Candidates are found by the stem's first
 * letter in either case with indexOf, and only their letters are put in lower case: lower-casing
 * a whole text beyond ASCII (Cyrillic, Greek) cost more than the rest of its snippet, and no
 * pattern is compiled per query (a case-blind Unicode pattern cost about 0.1 ms a section).
 */
function stemAt(text: string, stem: string): number {
  const lower = stem[0]!;
  const upper = lower.toUpperCase();
  // The next place of each case of the first letter: each is searched for once past the last.
  let nextLower = text.indexOf(lower);
  let nextUpper = upper.length === 1 && upper !== lower ? text.indexOf(upper) : -1;
  while (nextLower >= 0 || nextUpper >= 0) {
    const at = nextUpper < 0 || (nextLower >= 0 && nextLower < nextUpper) ? nextLower : nextUpper;
    if (at === nextLower) nextLower = text.indexOf(lower, at + 1);
    else nextUpper = text.indexOf(upper, at + 1);
    if (at > 0 && isWordChar(text.codePointAt(at - (isLowSurrogate(text.charCodeAt(at - 1)) ? 2 : 1))!)) continue;
    let i = at;
    let j = 0;
    while (j < stem.length && i < text.length && sameLetter(lowerAt(text, i), stem[j]!)) {
      i++;
      j++;
      for (let m = markAt(text, i); m > 0; m = markAt(text, i)) i += m;
    }
    if (j === stem.length) return at;
  }
  return -1;
}

/** Where the first of the query's words is in `text` (NFD), or -1. */
function firstHit(text: string, terms: SnippetTerms): number {
  const hits = [...terms.cjk.map((word) => text.indexOf(word)), ...terms.stems.map((stem) => stemAt(text, stem))];
  return hits.reduce((first, at) => (at >= 0 && (first < 0 || at < first) ? at : first), -1);
}

// Runs of white space other than one space: a section's text is mostly words and single spaces,
// which a replace of every run (/\s+/g) would match and copy one by one (about half of a search's
// snippet time).
const SPACES = / ?[^\S ]\s*| {2,}\s*/g;
const NOT_ASCII = /[^\x00-\x7f]/;

/** The text with every run of white space one space. */
export const collapseSpaces = (text: string): string => text.replace(SPACES, ' ');

/**
 * The part of a section's text around the first word matching the query (`terms`, see
 * snippetTerms), about 200 characters, cut at word boundaries and marked with "…" where text
 * was left out. Words match by their start (the stem: "installing" matches "install", "сервера"
 * "сервер"), which is what stemmers mostly keep, accents aside ("cafe" matches "café"); words of
 * CJK scripts, written without spaces, where they occur.
 */
export function snippet(body: string, terms: SnippetTerms, max = SNIPPET_CHARS): string {
  const plain = collapseSpaces(body).trim();
  if (plain.length <= max) return plain;
  // ASCII is its own NFD: the check reads the text, decomposing it copies it.
  const text = NOT_ASCII.test(plain) ? plain.normalize('NFD') : plain;
  const hit = Math.max(0, firstHit(text, terms));
  // Some context before the match, never more than a third of the snippet.
  let start = Math.max(0, hit - Math.floor(max / 3));
  if (start > 0) start = text.indexOf(' ', start) + 1 || start;
  let end = Math.min(text.length, start + max);
  if (end < text.length) end = text.lastIndexOf(' ', end) > start ? text.lastIndexOf(' ', end) : end;
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim().normalize('NFC')}${end < text.length ? '…' : ''}`;
}
