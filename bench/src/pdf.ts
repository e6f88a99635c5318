import type { Page } from '@quire/proto/space-content';
import { bookHtml } from '@quire/render';
import { PdfPrinter, DEFAULT_PDF_OPTIONS } from '@quire/render/pdf';
import { percentiles, writeResult } from './lib/results.ts';

// Change-request PDFs printed by Chromium (@quire/render): a book of BENCH_PDF_PAGES pages (default
// 20) of about 1 KB each, mixing Latin, Cyrillic, Chinese and Arabic text, a table, code and a
// hint, printed BENCH_PDFS times (default 12) with one print at a time and then PDF_CONCURRENCY
// (2) at once. Baseline in the same run, same browser: a one-line page, the floor of a print
// (a browser context, a page, the PDF).

const PAGES = Number(process.env.BENCH_PDF_PAGES ?? 20);
const PDFS = Number(process.env.BENCH_PDFS ?? 12);

const markdown = (n: number) =>
  [
    `## Section ${n}`,
    'The quick brown fox jumps over the lazy dog. Съешь же ещё этих мягких французских булок. 我能吞下玻璃而不伤身体。',
    'أنا قادر على أكل الزجاج و هذا لا يؤلمني.',
    '{% hint style="info" %}\nKeep the **token** secret; rotate it in the `settings`.\n{% endhint %}',
    '| Name | Value |\n| --- | --- |\n| alpha | 1 |\n| beta | 2 |',
    '```ts\nconst answer: number = await api.spaces.get(spaceId);\n```',
    '- one item of the list\n- two items of the list\n- three',
    'Closing paragraph with a [link](https://example.com) and more text to make about a kilobyte of content in all.',
  ].join('\n\n');

const pages = Array.from({ length: PAGES }, (_, i) => ({
  page: { id: `p${i}`, title: `Page ${i + 1}`, path: `p${i}`, pages: [], type: 'document', markdown: markdown(i) } as unknown as Page,
  depth: 0,
}));
const book = bookHtml({ title: 'Bench', pages, tree: pages.map((p) => p.page), files: [], fileHref: () => '' });
const floor = '<p>One line.</p>';

async function run(printer: PdfPrinter, html: string, concurrency: number) {
  const times: number[] = [];
  let bytes = 0;
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < PDFS) {
        next++;
        const t = performance.now();
        bytes = (await printer.print(html)).byteLength;
        times.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    pdfsPerSecond: Math.round((PDFS / seconds) * 100) / 100,
    pagesPerSecond: Math.round(((PDFS * (html === floor ? 1 : PAGES)) / seconds) * 10) / 10,
    ...percentiles(times),
    pdfBytes: bytes,
  };
}

const printer = new PdfPrinter({ ...DEFAULT_PDF_OPTIONS, concurrency: 2 });
try {
  await printer.print(floor); // the browser's start, not measured
  const result = {
    pages: PAGES,
    pdfs: PDFS,
    baselineOneLine: await run(printer, floor, 1),
    bookOneAtATime: await run(printer, book, 1),
    bookTwoAtOnce: await run(printer, book, 2),
  };
  writeResult('pdf', result);
} finally {
  await printer.close();
}
