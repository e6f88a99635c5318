import { InvalidArgumentError } from './errors.js';
import { nulRefused } from './validate.js';

/**
 * How deeply JSON from a client may nest. Recursive work on deeper values (canonical JSON of
 * visitor claims, document conversion, schema checks) would overflow the stack: a 500 for one
 * request, or a stalled process. A JSONDocument spends two levels per node (an object and its
 * `nodes`), so lists nested ten deep stay well inside.
 */
export const MAX_JSON_DEPTH = 128;

/**
 * What JSON text holds that no service should take, found in one pass before anything parses it:
 * its deepest nesting of arrays and objects (counting stops once past `limit`; brackets inside
 * strings do not count) and whether a string holds NUL (`\u0000`), which PostgreSQL's text and
 * jsonb refuse.
 */
export function scanJson(text: string, limit = MAX_JSON_DEPTH): { depth: number; nul: boolean } {
  let depth = 0;
  let deepest = 0;
  // Most of a body is strings: each is passed over with indexOf to its closing quote, several
  // times faster than a character at a time.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      do i = text.indexOf('"', i + 1);
      while (i > 0 && escaped(text, i));
      if (i < 0) break;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest && (deepest = depth) > limit) break;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return { depth: deepest, nul: holdsNul(text) };
}

/** Whether the character at `at` follows an odd run of backslashes: an escape's second character. */
function escaped(text: string, at: number): boolean {
  let before = at - 1;
  while (text.charCodeAt(before) === 0x5c) before--;
  return (at - 1 - before) % 2 === 1;
}

/** Whether a `\u0000` escape is in the text (not a backslash written as `\\` followed by `u0000`). */
function holdsNul(text: string): boolean {
  for (let at = text.indexOf('\\u0000'); at >= 0; at = text.indexOf('\\u0000', at + 1)) if (!escaped(text, at)) return true;
  return false;
}

/**
 * INVALID_ARGUMENT naming `field` when JSON text from a client nests deeper than MAX_JSON_DEPTH
 * or holds NUL in a string (a 500 from the store otherwise, or half of a batch written).
 */
export function checkClientJson(text: string, field: string): void {
  const { depth, nul } = scanJson(text);
  if (depth > MAX_JSON_DEPTH) throw new InvalidArgumentError(`${field}: nested deeper than ${MAX_JSON_DEPTH} levels`);
  if (nul) throw nulRefused(field);
}

/** JSON from a client, checked first (checkClientJson): INVALID_ARGUMENT naming `field` when refused or not JSON. */
export function parseClientJson(text: string, field: string): unknown {
  checkClientJson(text, field);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InvalidArgumentError(`${field}: must be JSON`);
  }
}
