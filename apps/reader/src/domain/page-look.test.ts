import type { File, Page } from '@quire/proto/space-content';
import { describe, expect, it } from 'vitest';
import { coverOf, positionY, shownOf } from './page-look.ts';

const file = (id: string, contentType = 'image/png', dimensions = { width: 1200, height: 900 }): File => ({ id, name: id, contentType, size: 1, dimensions, blob: '' });
const files = [file('hero'), file('drawing', 'image/svg+xml')];
const href = (f: File) => `/~files/s/${f.id}`;
const pageWith = (over: Partial<Page>) => ({ id: 'p', title: 'P', pages: [], ...over }) as unknown as Page;

describe('a page cover', () => {
  it('shows a raster file of the revision or an https URL, nothing else', () => {
    const cover = (ref: Page['cover']) => coverOf(pageWith({ cover: ref }), files, href);
    expect(cover({ ref: { fileId: 'hero' }, yPos: 0 })).toEqual({ size: 'hero', light: { src: '/~files/s/hero', width: 1200, height: 900 }, positionY: 50 });
    expect(cover({ ref: { url: 'https://img.example/a.png' }, refDark: { url: 'javascript:alert(1)' }, yPos: 0 })).toEqual({
      size: 'hero',
      light: { src: 'https://img.example/a.png' },
      positionY: 50,
    });
    for (const ref of [{ fileId: 'elsewhere' }, { fileId: 'drawing' }, { url: 'javascript:alert(1)' }, { url: 'http://img.example/a.png' }, {}])
      expect(cover({ ref, yPos: 0 }), JSON.stringify(ref)).toBeUndefined();
  });

  it('is left out when the layout hides it, full width when it asks', () => {
    const cover = { ref: { fileId: 'hero' }, yPos: 0 };
    expect(coverOf(pageWith({ cover, layout: { cover: false } }), files, href)).toBeUndefined();
    expect(coverOf(pageWith({ cover, layout: { coverSize: 'full' } }), files, href)?.size).toBe('full');
  });

  it('is placed by yPos within the image: positive shows its top, centred without a size', () => {
    const image = { src: '', width: 1200, height: 900 };
    // At 768px wide the image is 576px high: 168px (262.5 of its own) above and below a 240px cover.
    expect(positionY(0, image, 768)).toBe(50);
    expect(positionY(1000, image, 768)).toBe(0);
    expect(positionY(-1000, image, 768)).toBe(100);
    expect(positionY(131.25, image, 768)).toBe(25);
    expect(positionY(100, { src: '' }, 768)).toBe(50);
  });
});

describe('a page layout', () => {
  it("shows everything unless the page's layout hides it", () => {
    expect(shownOf(pageWith({}))).toEqual({ wide: false, title: true, description: true, tableOfContents: true, outline: true, pagination: true });
    expect(shownOf(pageWith({ layout: { width: 'wide', title: false, outline: false, pagination: true } }))).toMatchObject({
      wide: true,
      title: false,
      outline: false,
      pagination: true,
    });
  });
});
