import { describe, expect, it } from 'vitest';
import { pdfText } from '../../test/pdf-text.ts';
import { parseGfm } from '@quire/service-kit/markdown';
import { imageSources, isEmbeddable, renderPdf } from './pdf.ts';

// The smallest PNG there is: 1x1 transparent.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describe('PDF rendering', () => {
  it('renders titles, text, lists, tables, code and images into a PDF', async () => {
    const markdown = [
      '# Getting started',
      'Some **bold** and _italic_ text with `code` and a [link](https://example.com).',
      '- one\n- two\n  1. nested',
      '| Name | Value |\n| --- | --- |\n| alpha | 1 |',
      '```js\nconsole.log("hi")\n```',
      '> quoted',
      '![logo](/files/f1)',
      '![gif](/files/f2)',
    ].join('\n\n');
    const pdf = await renderPdf('CR', [{ title: 'Getting started', depth: 0, root: parseGfm(markdown) }, { title: 'Child page', depth: 1, root: parseGfm('Text') }], (src) => (src === '/files/f1' ? PNG : undefined));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain('Getting started');
    expect(text).toContain('Child page');
    expect(text).toContain('alpha');
    expect(text).toContain('console.log("hi")');
    expect(text).toContain('[image: gif]');
    expect(pdf.toString('latin1')).toContain('/Subtype /Image');
  });

  it('finds the images to fetch and tells the formats it can embed', () => {
    expect(imageSources(['![a](/files/x) text ![b](https://e.com/b.png)', '![a](/files/x)'].map(parseGfm))).toEqual(['/files/x', 'https://e.com/b.png']);
    expect(isEmbeddable(PNG)).toBe(true);
    expect(isEmbeddable(Buffer.from('GIF89a'))).toBe(false);
  });
});
