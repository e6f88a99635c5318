import { COMMON, type Bound } from '@quire/proto/limits';
import { InvalidArgumentError } from './errors.js';

/** The refusal of text holding NUL, which no store takes (PostgreSQL's text and jsonb refuse it). */
export const nulRefused = (field: string) => new InvalidArgumentError(`${field}: text must not contain NUL (\\u0000)`);

/** `value`, or INVALID_ARGUMENT naming `field` when it holds NUL. */
export function checkNoNul(field: string, value: string): string {
  if (value.includes('\0')) throw nulRefused(field);
  return value;
}

/** Bounds of the API reference (@quire/proto/limits), checked by the services too: the gateway is not their only caller. */
export function checkLength(field: string, value: string, { min = 0, max }: Bound): string {
  checkNoNul(field, value);
  // Characters as people count them (code points), not UTF-16 units.
  const length = [...value].length;
  if (length < min || length > max) {
    const bound = min === max ? `${min}` : min === 0 ? `at most ${max}` : `between ${min} and ${max}`;
    throw new InvalidArgumentError(`${field}: must be ${bound} characters (got ${length})`);
  }
  return value;
}

/** One of the values the reference allows for the field. */
export function checkOneOf<T extends string>(field: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new InvalidArgumentError(`${field}: must be one of ${allowed.join(', ')} (got "${value}")`);
  return value as T;
}

/** An http(s) URL within the bound of URLs. */
export function checkUri(field: string, value: string): string {
  checkLength(field, value, COMMON.url);
  let ok = false;
  try {
    const u = new URL(value);
    ok = u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    ok = false;
  }
  if (!ok) throw new InvalidArgumentError(`${field}: must be an http(s) URL`);
  return value;
}
