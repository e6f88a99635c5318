// The package ships no types; the declaration must travel with this file into every program that imports it.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./turndown-plugin-gfm.d.ts" />
// A fetched HTML page as a Quire page: its title, its links (for crawling) and its main content as
// markdown, with links to the other imported pages rewritten to GitBook's `/pages/<id>` form.
import { parse, type HTMLElement } from 'node-html-parser';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
turndown.use(gfm);

/** The URL without its fragment: the key of a page, whatever anchor a link points at. */
export function pageKey(url: URL): string {
  const u = new URL(url.href);
  u.hash = '';
  return u.href;
}

function absolute(href: string, base: URL): URL | undefined {
  try {
    return new URL(href, base);
  } catch {
    return undefined;
  }
}

export interface ParsedPage {
  title: string;
  /** Same-origin http(s) pages it links to (their keys), in document order. */
  links: string[];
  root: HTMLElement;
}

// Not content: site chrome, and what a browser never shows.
const CHROME = 'script, style, noscript, template, iframe, nav, header, footer, aside, form, svg, [role=navigation], [aria-hidden=true]';

export function parsePage(html: string, url: URL): ParsedPage {
  const root = parse(html, { comment: false });
  const h1 = root.querySelector('h1')?.textContent.trim();
  // A <title> usually ends with the site's name ("Install | Acme Docs"): the page's own part is first.
  const documentTitle = root
    .querySelector('title')
    ?.textContent.split(/(?<!\s)\s+[|–—·]\s+/)[0]
    ?.trim();
  const title = h1 || documentTitle || decodeURIComponent(url.pathname.split('/').filter(Boolean).at(-1) ?? url.hostname);
  const links: string[] = [];
  for (const a of root.querySelectorAll('a[href]')) {
    const target = absolute(a.getAttribute('href')!, url);
    if (target && target.origin === url.origin && (target.protocol === 'http:' || target.protocol === 'https:')) {
      const key = pageKey(target);
      if (!links.includes(key)) links.push(key);
    }
  }
  return { title: title.replace(/\s+/g, ' ').slice(0, 200), links, root };
}

/**
 * The page's main content (`main`, `article`, `#main-content` as Confluence writes it, or the
 * body) as markdown. Links to imported pages become `/pages/<id>` (keeping their anchor), other
 * links and images absolute URLs, or the name of an imported file (`fileName`, by absolute URL);
 * the heading used as the title is left out, as the page shows its title itself.
 */
export function toMarkdown(page: ParsedPage, url: URL, pageIds: ReadonlyMap<string, string>, fileName: (href: string) => string | undefined = () => undefined): string {
  const content = page.root.querySelector('main') ?? page.root.querySelector('article') ?? page.root.querySelector('#main-content') ?? page.root.querySelector('body') ?? page.root;
  for (const el of content.querySelectorAll(CHROME)) el.remove();
  const h1 = content.querySelector('h1');
  if (h1 && h1.textContent.replace(/\s+/g, ' ').trim() === page.title) h1.remove();
  for (const a of content.querySelectorAll('a[href]')) {
    const target = absolute(a.getAttribute('href')!, url);
    if (!target) continue;
    const key = pageKey(target);
    const id = pageIds.get(key);
    if (key === pageKey(url) && target.hash) a.setAttribute('href', target.hash);
    else a.setAttribute('href', id ? `/pages/${id}${target.hash}` : (fileName(target.href) ?? target.href));
  }
  for (const img of content.querySelectorAll('img[src]')) {
    const src = absolute(img.getAttribute('src')!, url);
    if (src) img.setAttribute('src', fileName(src.href) ?? src.href);
  }
  return turndown.turndown(content.innerHTML).trim() + '\n';
}
