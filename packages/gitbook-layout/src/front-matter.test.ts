import { describe, expect, it } from 'vitest';
import { readFrontMatter, setFrontMatter } from './front-matter.ts';

const STORED =
  '---\ndescription: >-\n  A folded\n  text\ncover: /files/hero\ncoverY: -42\nlayout:\n  width: wide\n  title:\n    visible: false\n# kept as written\ncustom: "quoted"\n---\n';

describe('readFrontMatter', () => {
  it('reads a YAML map at the top; a thematic break or text that is no map is body', () => {
    expect(readFrontMatter(`${STORED}Body`)).toEqual({ block: STORED, data: expect.objectContaining({ coverY: -42, custom: 'quoted' }) });
    expect(readFrontMatter('---\nJust a rule\n---\nText')).toBeUndefined();
    expect(readFrontMatter('---\na: [\n---\n')).toBeUndefined();
    expect(readFrontMatter('Text\n---\na: 1\n---\n')).toBeUndefined();
  });
});

describe('setFrontMatter', () => {
  it('writes the keys given as given, the rest byte for byte', () => {
    expect(setFrontMatter(STORED, '---\nlayout: { width: default }\n---\n')).toBe(
      STORED.replace('layout:\n  width: wide\n  title:\n    visible: false', 'layout: { width: default }'),
    );
    expect(setFrontMatter(STORED, '---\ncoverY: 10\nicon: book\n---\n')).toBe(
      STORED.replace('coverY: -42', 'coverY: 10').replace('custom: "quoted"\n', 'custom: "quoted"\nicon: book\n'),
    );
  });

  it('takes out the keys given as null, and the block with its last key', () => {
    expect(setFrontMatter(STORED, '---\ncover:\ncoverY: null\n---\n')).toBe(STORED.replace('cover: /files/hero\ncoverY: -42\n', ''));
    expect(setFrontMatter(STORED, '---\ncustom: ~\n---\n')).toBe(STORED.replace('\ncustom: "quoted"', ''));
    expect(setFrontMatter('---\ncover: /files/a\n---\n', '---\ncover: null\n---\n')).toBe('');
    expect(setFrontMatter('---\ncover: /files/a\n---\n', '---\ncover: null\nlayout:\n  width: wide\n---\n')).toBe('---\nlayout:\n  width: wide\n---\n');
  });

  it('is the given block without a stored one, and keeps line endings', () => {
    expect(setFrontMatter(undefined, '---\ncover: /files/a\n---\n')).toBe('---\ncover: /files/a\n---\n');
    expect(setFrontMatter('---\r\na: 1\r\n---\r\n', '---\nb:\n  c: 2\n---\n')).toBe('---\r\na: 1\r\nb:\r\n  c: 2\r\n---\r\n');
    expect(setFrontMatter('---\n{ a: 1, b: 2 }\n---\n', '---\nb: null\nc: 3\n---\n')).toBe('---\na: 1\nc: 3\n---\n');
  });
});
