import { describe, expect, it } from 'vitest';
import { pageLook } from './page-look.ts';

describe('pageLook', () => {
  it("reads GitBook's front matter into the API's cover and layout, only what is set", () => {
    const front = {
      cover: '/files/hero',
      coverDark: 'https://example.com/dark.png',
      coverY: -42.5,
      layout: { width: 'wide', cover: { visible: true, size: 'hero' }, title: { visible: false }, outline: { visible: true }, other: { visible: 1 } },
    };
    expect(pageLook(front)).toEqual({
      cover: { ref: { kind: 'file', file: 'hero' }, refDark: { kind: 'url', url: 'https://example.com/dark.png' }, yPos: -42.5 },
      layout: { width: 'wide', cover: true, coverSize: 'hero', title: false, outline: true },
    });
    expect(pageLook({ description: 'Only fields', coverY: 3 })).toEqual({});
    expect(pageLook({ cover: '/files/a' })).toEqual({ cover: { ref: { kind: 'file', file: 'a' }, yPos: 0 } });
  });

  it('leaves out what GitBook would not take, telling each by its key path', () => {
    const problems: string[] = [];
    const look = pageLook(
      {
        cover: '../.gitbook/assets/unresolved.png',
        coverY: 'top',
        layout: { width: 'huge', title: { visible: 'yes' }, outline: true, cover: { size: 'tiny' }, pagination: { visible: false } },
      },
      (field, message) => problems.push(`${field}: ${message}`),
    );
    expect(look).toEqual({ layout: { pagination: false } });
    expect(problems).toEqual([
      'cover: must be a file of the space (/files/<id>) or an http(s) URL',
      'coverY: must be a number',
      'layout.width: must be "default" or "wide"',
      'layout.cover.size: must be "hero" or "full"',
      'layout.title.visible: must be true or false',
      'layout.outline: must be a map such as { visible: true }',
    ]);
    expect(pageLook({ layout: 'landing' }, (field) => problems.push(field))).toEqual({});
    expect(problems.at(-1)).toBe('layout');
  });
});
