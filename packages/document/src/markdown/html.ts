import { decodeNamedCharacterReference } from 'decode-named-character-reference';
import type { DocumentMarkColor, DocumentTextMark, MarkColorName } from '../types.ts';

// The few HTML shapes GitBook's Git Sync writes inside markdown (`<figure>`, `<img>`, `<details>`,
// `<summary>`, `<a id>`, card tables, and inline: the marks' tags below, `<mark>` colors, `<a href>`,
// `<br>`, and `<p>` and lists in a table cell), read with linear-time patterns and written back
// the way GitBook writes them (hex references for `&`, `<` and `"`, as hast-util-to-html does).
// Only what they mean is kept (a tag's other attributes are not); any other HTML is not
// interpreted: it stays visible text, so nothing in content ever becomes markup of its own.

/** The inline tags read as marks (`<mark>` is a color, see colorMark). */
const TAG_MARKS: Record<string, DocumentTextMark['type']> = {
  strong: 'bold',
  b: 'bold',
  em: 'italic',
  i: 'italic',
  code: 'code',
  s: 'strikethrough',
  del: 'strikethrough',
  kbd: 'keyboard',
  sup: 'superscript',
  sub: 'subscript',
};
/** The mark an inline tag's name stands for (`strong` → bold), if any. */
export function tagMark(name: string): DocumentTextMark | undefined {
  return Object.hasOwn(TAG_MARKS, name) ? ({ object: 'mark', type: TAG_MARKS[name] } as DocumentTextMark) : undefined;
}

/** The tag each mark (but color) is written as in HTML. */
export const MARK_TAGS: Partial<Record<DocumentTextMark['type'], string>> = {
  bold: 'strong',
  italic: 'em',
  code: 'code',
  strikethrough: 's',
  keyboard: 'kbd',
  superscript: 'sup',
  subscript: 'sub',
};

const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const REFERENCE = /&(#[xX][\da-fA-F]{1,6}|#\d{1,7}|[a-zA-Z][a-zA-Z\d]{1,31});/g;

const TAG = /^<(\/?)([a-z][a-z\d]*)(?:\s[^<>]*)?\/?>$/i;

/** One tag's source, `<a href="x">` or `</a>`: its name (lower case) and whether it closes. */
export function htmlTag(source: string): { name: string; closing: boolean } | undefined {
  const match = TAG.exec(source);
  return match ? { name: match[2]!.toLowerCase(), closing: match[1] === '/' } : undefined;
}

/** Decodes character references (`&amp;`, `&#x26;`, `&#38;`). */
export function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(REFERENCE, (whole, ref: string) => {
    if (ref[0] !== '#') return decodeNamedCharacterReference(ref) || whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  });
}

/** The attributes of one start tag's source, `<img src="a" alt>` → `{src: 'a', alt: ''}`. */
export function attributesOf(tag: string): Record<string, string> {
  const name = /^<[a-zA-Z][\w-]*/.exec(tag);
  const end = tag.endsWith('/>') ? -2 : tag.endsWith('>') ? -1 : tag.length;
  const attributes: Record<string, string> = {};
  for (const match of tag.slice(name ? name[0].length : 0, end).matchAll(ATTRIBUTE)) {
    attributes[match[1]!.toLowerCase()] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? '');
  }
  return attributes;
}

/** An attribute value as hast-util-to-html writes it inside double quotes. */
export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&#x26;').replace(/"/g, '&#x22;');
}

/** Text as hast-util-to-html writes it. */
export function escapeText(value: string): string {
  return value.replace(/&/g, '&#x26;').replace(/</g, '&#x3C;');
}

/** Text of an HTML fragment: tags dropped, references decoded. */
export function htmlText(html: string): string {
  return decodeEntities(html.replace(/<[^<>]*>/g, ''));
}

const COLORS = new Set<string>(['default', 'green', 'blue', 'red', 'orange', 'yellow', 'purple', '$primary', '$info', '$success', '$warning', '$danger']);

/** `<mark style="color:red;background-color:$info;">`'s style as a color mark (other colors ignored). */
export function colorMark(style: string): DocumentMarkColor | undefined {
  let textColor: MarkColorName = 'default';
  let background: MarkColorName = 'default';
  let found = false;
  for (const declaration of style.split(';')) {
    const [property, value] = declaration.split(':').map((s) => s.trim().toLowerCase());
    if (!value || !COLORS.has(value)) continue;
    if (property === 'color') textColor = value as MarkColorName;
    else if (property === 'background-color') background = value as MarkColorName;
    else continue;
    found = true;
  }
  return found ? { object: 'mark', type: 'color', data: { text: textColor, background } } : undefined;
}

/** A color mark as GitBook writes its style. */
export function colorStyle(mark: DocumentMarkColor): string {
  return `${mark.data.text !== 'default' ? `color:${mark.data.text};` : ''}${mark.data.background !== 'default' ? `background-color:${mark.data.background};` : ''}`;
}
