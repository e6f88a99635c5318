import os from 'node:os';
import { fromMarkdown, toHtml, toMarkdown, type JSONDocument } from '@quire/document';
import type { Root } from 'mdast';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { percentiles, writeResult } from './lib/results.ts';

// The document model on one core (the npm script pins it with `taskset -c 0`; the work is
// single-threaded anyway): typical 1 KB GitBook pages (a realistic mix of blocks, generated), as
// markdown → document (fromMarkdown), document → HTML (toHtml) and document → markdown
// (toMarkdown), against baselines in the same run on the same pages: remark-parse + remark-gfm
// to mdast, and mdast → hast → HTML with remark-rehype and rehype-stringify.
// BENCH_PAGES distinct pages (default 500), each step run for BENCH_SECONDS (default 3) after a
// 1 s warm-up.

const PAGES = Number(process.env.BENCH_PAGES ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const WORDS = `the a to of and in is for that with on as your you can this be from space page team access setting token
  install configure deploy release change search index content document section link image table list field event
  member organization permission project account server request response error message integration webhook`
  .split(/\s+/)
  .filter(Boolean);
const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
const sentence = () => {
  const s = words(8 + Math.floor(random() * 10));
  return s[0]!.toUpperCase() + s.slice(1) + '.';
};
const rich = () => {
  const parts = [sentence(), `**${words(2)}**`, sentence(), `\`${pick(WORDS)}_${pick(WORDS)}\``, `[${words(2)}](${pick(WORDS)}/${pick(WORDS)}.md)`, sentence()];
  return parts.slice(0, 3 + Math.floor(random() * 4)).join(' ');
};

// One page: a title, a lead paragraph, then blocks drawn with GitBook-like frequencies, until ~1 KB.
function page(): string {
  const blocks = [`# ${words(3)}`, rich()];
  const makers: [number, () => string][] = [
    [30, rich],
    [10, () => `## ${words(3)}`],
    [8, () => Array.from({ length: 3 }, () => `* ${sentence()}`).join('\n')],
    [5, () => Array.from({ length: 3 }, (_, i) => `${i + 1}. ${sentence()}`).join('\n')],
    [6, () => `{% hint style="${pick(['info', 'warning', 'danger', 'success'])}" %}\n${rich()}\n{% endhint %}`],
    [6, () => '```js\n' + `const ${pick(WORDS)} = await api.${pick(WORDS)}('${pick(WORDS)}');\nconsole.log(${pick(WORDS)});` + '\n```'],
    [3, () => `{% code title="${pick(WORDS)}.sh" lineNumbers="true" %}\n\`\`\`bash\nquire ${pick(WORDS)} --${pick(WORDS)}\n\`\`\`\n{% endcode %}`],
    [3, () => `| Name | Value |\n| ---- | ----- |\n| ${pick(WORDS)} | ${words(3)} |\n| ${pick(WORDS)} | ${words(3)} |`],
    [3, () => `<figure><img src="../.gitbook/assets/${pick(WORDS)}.png" alt=""><figcaption><p>${words(4)}</p></figcaption></figure>`],
    [2, () => `{% tabs %}\n{% tab title="npm" %}\n${sentence()}\n{% endtab %}\n\n{% tab title="pnpm" %}\n${sentence()}\n{% endtab %}\n{% endtabs %}`],
    [2, () => `<details>\n\n<summary>${words(3)}</summary>\n\n${rich()}\n\n</details>`],
    [2, () => `{% content-ref url="${pick(WORDS)}.md" %}\n[${pick(WORDS)}.md](${pick(WORDS)}.md)\n{% endcontent-ref %}`],
    [1, () => `{% embed url="https://www.youtube.com/watch?v=${pick(WORDS)}" %}`],
    [1, () => `$$\n${pick(['a^2 + b^2 = c^2', 'E = mc^2', '\\sum_{i=1}^n i'])}\n$$`],
    [1, () => '***'],
  ];
  const total = makers.reduce((a, [w]) => a + w, 0);
  while (blocks.join('\n\n').length < 950) {
    let x = random() * total;
    const maker = makers.find(([w]) => (x -= w) < 0)![1];
    blocks.push(maker());
  }
  return blocks.join('\n\n') + '\n';
}

/**
 * Runs `work` over the inputs for SECONDS, one input at a time. Pages per CPU second (the
 * process's own CPU time) is the figure that holds on a shared machine; pages per wall second
 * and the latencies move with the load.
 */
function measure<T>(inputs: readonly T[], work: (input: T) => unknown) {
  const run = (ms: number) => {
    const times: number[] = [];
    const end = performance.now() + ms;
    let i = 0;
    while (performance.now() < end) {
      const start = performance.now();
      work(inputs[i++ % inputs.length]!);
      times.push(performance.now() - start);
    }
    return times;
  };
  run(1000);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const times = run(SECONDS * 1000);
  const elapsed = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  const { p50, p99 } = percentiles(times.map((t) => t * 1000));
  return { pagesPerCpuSecond: Math.round(times.length / cpuSeconds), pagesPerSecond: Math.round(times.length / elapsed), p50us: p50, p99us: p99 };
}

// Written once through toMarkdown, so the pages are in GitBook's spelling, as Git Sync writes them.
const pages = Array.from({ length: PAGES }, () => toMarkdown(fromMarkdown(page())));
const bytes = pages.reduce((a, p) => a + Buffer.byteLength(p), 0);
const remark = unified().use(remarkParse).use(remarkGfm);
const toHast = unified().use(remarkRehype).use(rehypeStringify);
const documents: JSONDocument[] = pages.map((p) => fromMarkdown(p));
const trees: Root[] = pages.map((p) => remark.parse(p));

const result = {
  pages: PAGES,
  meanPageBytes: Math.round(bytes / PAGES),
  loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
  markdownToDocument: measure(pages, (p) => fromMarkdown(p)),
  baselineRemarkGfmParse: measure(pages, (p) => remark.parse(p)),
  documentToHtml: measure(documents, (d) => toHtml(d)),
  baselineMdastToHtml: measure(trees, (t) => toHast.stringify(toHast.runSync(t))),
  documentToMarkdown: measure(documents, (d) => toMarkdown(d)),
  roundTripIdentical: pages.filter((p, i) => toMarkdown(documents[i]!) === p).length,
};
writeResult('document-model', result);
