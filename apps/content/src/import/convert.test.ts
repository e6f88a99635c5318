import { describe, expect, it } from 'vitest';
import { pageKey, parsePage, toMarkdown } from './convert.ts';

const url = new URL('https://docs.example.com/guide/start?x=1#top');

describe('parsePage', () => {
  it('takes the title from the first h1, else from <title> without the site name, else from the URL', () => {
    expect(parsePage('<title>Start | Acme</title><h1> Getting\n started </h1>', url).title).toBe('Getting started');
    expect(parsePage('<title>Start — Acme</title><p>x</p>', url).title).toBe('Start');
    expect(parsePage('<p>x</p>', url).title).toBe('start');
  });

  // Attack: an imported site's <title> of spaces then no separator took 20 s for 100 KB.
  it("splits an attacker's <title> in linear time", () => {
    const started = performance.now();
    expect(parsePage(`<title>a${' '.repeat(100_000)}x</title>`, url).title).toBe('a x');
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('lists the same-origin pages it links to, once each, without fragments', () => {
    const page = parsePage('<a href="/a#one">a</a> <a href="a">rel</a> <a href="/a#two">again</a> <a href="https://other.example/">out</a> <a href="mailto:x@y.z">mail</a>', url);
    expect(page.links).toEqual(['https://docs.example.com/a', 'https://docs.example.com/guide/a']);
  });
});

describe('toMarkdown', () => {
  it('converts the main content, rewriting links to imported pages and making others absolute', () => {
    const html = `<nav><a href="/nav">Nav</a></nav><main><h1>Start</h1><p>See <a href="/a#one">A</a>, <a href="#top">top</a> and <a href="/b">B</a>.</p><img src="img/x.png" alt="X"><ul><li>one</li></ul></main><footer>f</footer>`;
    const page = parsePage(html, url);
    const md = toMarkdown(page, url, new Map([['https://docs.example.com/a', 'P1']]));
    expect(md).toBe('See [A](/pages/P1#one), [top](#top) and [B](https://docs.example.com/b).\n\n![X](https://docs.example.com/guide/img/x.png)\n\n-   one\n');
  });

  it('keys pages by URL without fragment', () => {
    expect(pageKey(url)).toBe('https://docs.example.com/guide/start?x=1');
  });
});
