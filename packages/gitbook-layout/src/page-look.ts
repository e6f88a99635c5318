// A page's cover and layout as GitBook's front matter writes them:
//
//   cover: /files/<id>        (a file of the space; a path from the page in a repository)
//   coverY: -42
//   layout:
//     width: wide
//     cover: { visible: true, size: hero }
//     title: { visible: false }
//
// read into GitBook API's terms (RevisionPageDocumentCover, RevisionPageLayoutOptions). Only what
// the front matter sets is read: the defaults are the API's to give.
import { FILE_LINK } from './paths.ts';

/** An image a cover names: a file of the space, or an outside URL. */
export type ImageRef = { kind: 'file'; file: string } | { kind: 'url'; url: string };

export interface PageCover {
  ref: ImageRef;
  refDark?: ImageRef;
  /** The image's vertical position (`coverY`). */
  yPos: number;
}

/** GitBook's RevisionPageLayoutOptions, each key present only when the front matter sets it. */
export interface PageLayout {
  width?: 'default' | 'wide';
  cover?: boolean;
  coverSize?: 'hero' | 'full';
  title?: boolean;
  description?: boolean;
  tableOfContents?: boolean;
  outline?: boolean;
  pagination?: boolean;
  metadata?: boolean;
}

export interface PageLook {
  cover?: PageCover;
  layout?: PageLayout;
}

/** Called for each value the front matter holds that is not one GitBook takes, with its key path. */
export type LookProblem = (field: string, message: string) => void;

const WIDTHS = ['default', 'wide'] as const;
const COVER_SIZES = ['hero', 'full'] as const;
// The parts of the page a layout shows or hides, each written `<part>: { visible: <boolean> }`.
const PARTS = ['cover', 'title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata'] as const;

const isMap = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const oneOf = <T extends string>(v: unknown, values: readonly T[]): v is T => typeof v === 'string' && (values as readonly string[]).includes(v);
const quoted = (values: readonly string[]) => values.map((v) => `"${v}"`).join(' or ');

function imageRef(value: unknown, field: string, problem: LookProblem): ImageRef | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === 'string' ? value.trim() : undefined;
  const file = text === undefined ? null : FILE_LINK.exec(text);
  if (file) return { kind: 'file', file: file[1]! };
  if (text !== undefined && /^https?:\/\/\S+$/i.test(text)) return { kind: 'url', url: text };
  problem(field, 'must be a file of the space (/files/<id>) or an http(s) URL');
  return undefined;
}

function layoutOf(value: unknown, problem: LookProblem): PageLayout | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isMap(value)) {
    problem('layout', 'must be a map of layout options');
    return undefined;
  }
  const layout: PageLayout = {};
  if (value.width != null) {
    if (oneOf(value.width, WIDTHS)) layout.width = value.width;
    else problem('layout.width', `must be ${quoted(WIDTHS)}`);
  }
  for (const part of PARTS) {
    const options = value[part];
    if (options == null) continue;
    if (!isMap(options)) {
      problem(`layout.${part}`, 'must be a map such as { visible: true }');
      continue;
    }
    if (options.visible != null) {
      if (typeof options.visible === 'boolean') layout[part] = options.visible;
      else problem(`layout.${part}.visible`, 'must be true or false');
    }
    if (part === 'cover' && options.size != null) {
      if (oneOf(options.size, COVER_SIZES)) layout.coverSize = options.size;
      else problem('layout.cover.size', `must be ${quoted(COVER_SIZES)}`);
    }
  }
  return Object.keys(layout).length > 0 ? layout : undefined;
}

/**
 * The cover and layout a page's front matter (its map) sets. Values GitBook would not take are
 * left out, each told to `problem` (by default ignored: what an import brought is read as far as
 * it goes; a write refuses them). A null value is no value. `coverY` without a cover sets nothing.
 */
export function pageLook(front: Record<string, unknown>, problem: LookProblem = () => {}): PageLook {
  const look: PageLook = {};
  const ref = imageRef(front.cover, 'cover', problem);
  const refDark = imageRef(front.coverDark, 'coverDark', problem);
  let yPos = 0;
  if (front.coverY != null) {
    if (typeof front.coverY === 'number' && Number.isFinite(front.coverY)) yPos = front.coverY;
    else problem('coverY', 'must be a number');
  }
  if (ref) look.cover = { ref, ...(refDark ? { refDark } : {}), yPos };
  const layout = layoutOf(front.layout, problem);
  if (layout) look.layout = layout;
  return look;
}
