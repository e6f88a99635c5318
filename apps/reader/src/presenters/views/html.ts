// Escaping for the reader's templates: every value from a site, a page or a visitor goes through
// `esc` (text and attributes alike); only the sanitized output of @quire/document is inserted as is.
import { esc } from '@quire/render';

export { esc };

/** Attribute ` name="value"`, or nothing when the value is absent or false. */
export const attr = (name: string, value: string | boolean | undefined): string =>
  value === undefined || value === false ? '' : value === true ? ` ${name}` : ` ${name}="${esc(value)}"`;
