// A page's cover and layout as the reader shows them, with GitBook's defaults where the page's
// front matter sets nothing: everything shown, the default width, a hero cover.
import type { File, ImageRef, Page } from '@quire/proto/space-content';

/** The file types the reader's file route shows inline (the rest download): the only ones a cover may be. */
export const INLINE_IMAGE = /^image\/(png|jpe?g|gif|webp|avif)$/;

/** The cover's height in CSS pixels, as GitBook's default. */
export const COVER_HEIGHT = 240;
// The width a cover is laid out at for positioning: the content column (hero) or the page (full).
// The server does not know the visitor's window, so it places the image as it would sit at these.
const LAYOUT_WIDTH = { hero: 768, full: 1248 } as const;

export interface CoverImage {
  src: string;
  width?: number;
  height?: number;
}

export interface Cover {
  size: 'hero' | 'full';
  light: CoverImage;
  dark?: CoverImage;
  /** The image's vertical object-position, in percent. */
  positionY: number;
}

export interface Shown {
  wide: boolean;
  title: boolean;
  description: boolean;
  tableOfContents: boolean;
  outline: boolean;
  pagination: boolean;
}

/** What of the page is shown: what its layout hides is not, the rest is (GitBook's defaults). */
export function shownOf(page: Page): Shown {
  const l = page.layout;
  return {
    wide: l?.width === 'wide',
    title: l?.title !== false,
    description: l?.description !== false,
    tableOfContents: l?.tableOfContents !== false,
    outline: l?.outline !== false,
    pagination: l?.pagination !== false,
  };
}

/**
 * The image a ref names, when the reader may show it: a raster image file of this revision (served
 * by the file route) or an https URL (the only outside images the reader's CSP lets in). Anything
 * else (another space's file, another scheme) is not shown.
 */
function imageOf(ref: ImageRef | undefined, files: readonly File[], fileHref: (f: File) => string): CoverImage | undefined {
  if (ref?.fileId) {
    const file = files.find((f) => f.id === ref.fileId);
    if (!file || !INLINE_IMAGE.test(file.contentType)) return undefined;
    return { src: fileHref(file), width: file.dimensions?.width || undefined, height: file.dimensions?.height || undefined };
  }
  if (ref?.url && /^https:\/\/\S+$/i.test(ref.url)) return { src: ref.url };
  return undefined;
}

/**
 * Where GitBook's `yPos` puts the image: an offset, in the image's own pixels, from its centre
 * (positive shows more of its top), kept within the image; centred when the size is unknown.
 */
export function positionY(yPos: number, image: CoverImage, layoutWidth: number): number {
  if (!yPos || !image.width || !image.height) return 50;
  const scale = Math.max(layoutWidth / image.width, COVER_HEIGHT / image.height);
  const room = (image.height * scale - COVER_HEIGHT) / 2 / scale;
  if (room <= 0) return 50;
  const offset = Math.min(room, Math.max(-room, yPos));
  return Math.round(((room - offset) / (2 * room)) * 10_000) / 100;
}

/** The page's cover as the reader shows it; undefined when it has none, its layout hides it, or its image may not be shown. */
export function coverOf(page: Page, files: readonly File[], fileHref: (f: File) => string): Cover | undefined {
  if (!page.cover || page.layout?.cover === false) return undefined;
  const light = imageOf(page.cover.ref, files, fileHref);
  if (!light) return undefined;
  const dark = imageOf(page.cover.refDark, files, fileHref);
  const size = page.layout?.coverSize === 'full' ? 'full' : 'hero';
  return { size, light, ...(dark ? { dark } : {}), positionY: positionY(page.cover.yPos, light, LAYOUT_WIDTH[size]) };
}
