import { InvalidArgumentError } from './errors.js';

/**
 * How deeply JSON from a client may nest. Recursive work on deeper values (canonical JSON of
 * visitor claims, document conversion, schema checks) would overflow the stack: a 500 for one
 * request, or a stalled process. A JSONDocument spends two levels per node (an object and its
 * `nodes`), so lists nested ten deep stay well inside.
 */
export const MAX_JSON_DEPTH = 128;

/**
 * The deepest nesting of arrays and objects in JSON text, counted in one pass before anything
 * parses it; stops counting once past `limit`. Brackets inside strings do not count.
 */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/** INVALID_ARGUMENT naming `field` when `text` nests deeper than MAX_JSON_DEPTH. */
export function checkJsonDepth(text: string, field: string): void {
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw new InvalidArgumentError(`${field}: nested deeper than ${MAX_JSON_DEPTH} levels`);
}

/** JSON from a client, its depth bounded first: INVALID_ARGUMENT naming `field` when too deep or not JSON. */
export function parseClientJson(text: string, field: string): unknown {
  checkJsonDepth(text, field);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InvalidArgumentError(`${field}: must be JSON`);
  }
}
