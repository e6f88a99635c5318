import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { File, Page } from '@quire/proto/space-content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookHtml } from '../src/book.ts';
import { DEFAULT_PDF_OPTIONS, PdfPrinter, PdfTimeoutError } from '../src/pdf.ts';
import { pdfText } from '../src/testing.ts';

const present = existsSync(DEFAULT_PDF_OPTIONS.executablePath) && existsSync('/usr/bin/pdftotext');
if (!present && !process.env.CI) console.warn('PDF tests skipped: chromium or pdftotext is missing (apt-get install chromium poppler-utils)');

const page = (id: string, title: string, pages: Page[] = [], path = id, markdown = ''): Page => ({ id, title, pages, path, type: 'document', markdown }) as Page;

// The smallest PNG there is: 1x1 transparent.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describe.runIf(present || process.env.CI)('PDF printing in Chromium', () => {
  let printer: PdfPrinter;
  let server: Server;
  let hits = 0;
  beforeAll(async () => {
    printer = new PdfPrinter({ ...DEFAULT_PDF_OPTIONS, concurrency: 2, timeoutMs: 30_000 });
    server = createServer((_, res) => {
      hits++;
      res.end('x');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    await printer?.close();
    server?.close();
  });

  const scripts = {
    latin: 'The quick brown fox jumps over the lazy dog',
    cyrillic: 'Съешь же ещё этих мягких французских булок',
    chinese: '我能吞下玻璃而不伤身体',
    arabic: 'أنا قادر على أكل الزجاج',
  };

  it('prints every script as text pdftotext reads back: Latin, Cyrillic, Chinese and Arabic', async () => {
    const pages = Object.entries(scripts).map(([id, text]) => ({ page: page(id, `Title ${id}`, [], id, `${text}\n\n- ${text}\n\n| ${id} |\n| --- |\n| ${text} |\n`), depth: 0 }));
    const pdf = await printer.print(bookHtml({ title: 'Scripts', pages, tree: pages.map((p) => p.page), files: [], fileHref: (f) => `/files/${f.id}` }));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    for (const [id, line] of Object.entries(scripts)) {
      expect(text).toContain(`Title ${id}`);
      // Arabic comes back in logical order: the words as written.
      for (const word of line.split(' ')) expect(text).toContain(word);
      expect(text).toContain(id === 'chinese' ? line : line.split(' ').slice(0, 3).join(' '));
    }
  }, 60_000);

  it('loads the images the caller serves, links pages inside the PDF and fetches nothing else', async () => {
    const child = page('child', 'Child page', [], 'root/child', 'Child text.\n');
    const internal = `http://127.0.0.1:${(server.address() as { port: number }).port}/x.png`;
    const root = page('root', 'Guide', [child], 'root', `![logo](/files/f1)\n\n![internal](${internal})\n\nSee [the child](child.md).\n`);
    const file = { id: 'f1', name: 'logo.png' } as File;
    const asked: string[] = [];
    const html = bookHtml({
      title: 'Guide',
      pages: [
        { page: root, depth: 0 },
        { page: child, depth: 1 },
      ],
      tree: [root],
      files: [file],
      fileHref: (f) => `/files/${f.id}`,
    });
    expect(html).toContain('href="#page-child"');
    const pdf = await printer.print(html, async (path) => {
      asked.push(path);
      return path === '/files/f1' ? { body: PNG, contentType: 'image/png' } : undefined;
    });
    expect(asked).toEqual(['/files/f1']);
    expect(hits).toBe(0);
    expect(pdfText(pdf)).toContain('Child text.');
  }, 60_000);

  it('prints several documents at once within its bound, and times out a page that takes too long', async () => {
    const many = await Promise.all([1, 2, 3, 4].map((n) => printer.print(`<p>Document ${n}</p>`)));
    many.forEach((pdf, i) => expect(pdfText(pdf)).toContain(`Document ${i + 1}`));
    const slow = new PdfPrinter({ ...DEFAULT_PDF_OPTIONS, concurrency: 1, timeoutMs: 300 });
    try {
      const never = new Promise<never>(() => undefined);
      await expect(slow.print('<img src="/files/slow">', () => never)).rejects.toBeInstanceOf(PdfTimeoutError);
    } finally {
      await slow.close();
    }
  }, 60_000);
});
