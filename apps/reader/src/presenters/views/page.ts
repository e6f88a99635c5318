import type { Page } from '@quire/proto/space-content';
import type { Look } from '../../domain/look.ts';
import { COVER_HEIGHT, type Cover, type CoverImage, type Shown } from '../../domain/page-look.ts';
import { attr, esc } from './html.ts';
import { documentShell, type Meta } from './layout.ts';

export interface Link {
  title: string;
  href: string;
  current?: boolean;
}

export interface Crumb {
  title: string;
  href?: string;
}

export interface Chrome {
  look: Look;
  home: string;
  base: string;
  tabs: (Link & { group?: string })[];
  variants: Link[];
  pages: readonly Page[];
  hrefOf(page: Page): string;
  currentPageId?: string;
}

export interface Body {
  title: string;
  description?: string;
  html: string;
  crumbs: Crumb[];
  outline: { anchor: string; title: string; level: number }[];
  previous?: Link;
  next?: Link;
  cover?: Cover;
  /** What of the page its layout shows. */
  shown: Shown;
}

const current = (on: boolean | undefined) => attr('aria-current', on ? 'page' : undefined);

function tabs(items: Chrome['tabs']): string {
  if (items.length < 2) return '';
  let group: string | undefined;
  const parts: string[] = [];
  for (const t of items) {
    if (t.group !== group && t.group) parts.push(`<span class="group">${esc(t.group)}</span>`);
    group = t.group;
    parts.push(`<a href="${esc(t.href)}"${current(t.current)}>${esc(t.title)}</a>`);
  }
  return `<nav class="tabs" aria-label="Sections">${parts.join('')}</nav>`;
}

function tree(pages: readonly Page[], chrome: Chrome): string {
  const items = pages
    .filter((p) => !p.hidden)
    .map((p) => {
      if (p.type === 'group') return `<li><span class="grouptitle">${esc(p.title)}</span>${tree(p.pages, chrome)}</li>`;
      const label = `${p.emoji ? `${esc(p.emoji)} ` : ''}${esc(p.title)}`;
      const children = p.pages.some((c) => !c.hidden) ? tree(p.pages, chrome) : '';
      return `<li><a href="${esc(chrome.hrefOf(p))}"${current(p.id === chrome.currentPageId)}>${label}</a>${children}</li>`;
    });
  return items.length ? `<ul>${items.join('')}</ul>` : '';
}

function variants(items: Link[]): string {
  if (items.length < 2) return '';
  const on = items.find((v) => v.current) ?? items[0]!;
  return `<details class="variants"><summary>${esc(on.title)}<span class="visually-hidden"> (choose a variant)</span></summary><nav aria-label="Variants"><ul>${items.map((v) => `<li><a href="${esc(v.href)}"${current(v.current)}>${esc(v.title)}</a></li>`).join('')}</ul></nav></details>`;
}

const coverImg = (image: CoverImage, cover: Cover, cls: string | undefined, loading: 'eager' | 'lazy') =>
  `<img${attr('class', cls)} src="${esc(image.src)}" alt=""${attr('width', image.width?.toString())}${attr('height', image.height?.toString())} loading="${loading}" style="object-position:50% ${cover.positionY}%">`;

/**
 * The cover above the title: decorative (empty alt). Its dark image is shown by the stylesheet as the
 * logo's is, so it follows the site's theme switch too; lazy, so a browser in light mode never
 * fetches it (images not displayed are not loaded).
 */
function cover(c: Cover): string {
  const light = coverImg(c.light, c, c.dark && 'cover-light', 'eager');
  const dark = c.dark ? coverImg(c.dark, c, 'cover-dark', 'lazy') : '';
  return `<div class="cover ${c.size}" style="height:${COVER_HEIGHT}px">${light}${dark}</div>`;
}

function header(chrome: Chrome, nav = true): string {
  const { look } = chrome;
  const logo = look.logo ? `<img class="logo-light" src="${esc(look.logo.light)}" alt=""><img class="logo-dark" src="${esc(look.logo.dark)}" alt="">` : '';
  const brand = `<a class="brand" href="${esc(chrome.home)}">${logo}${esc(look.title)}</a>`;
  const toggle = look.toggle
    ? `<button class="btn" type="button" data-theme-toggle aria-label="Theme: ${look.defaultTheme}"><span aria-hidden="true">◐</span> <span class="label">${look.defaultTheme === 'dark' ? 'Dark' : 'Light'}</span></button>`
    : '';
  const tools = `<div class="tools"><a class="btn" href="${esc(chrome.base)}/~search" data-search><span aria-hidden="true">⌕</span> <span class="label">Search</span> <kbd>Ctrl K</kbd></a>${toggle}</div>`;
  const menu = nav ? '<button class="btn menu" type="button" data-menu aria-controls="nav" aria-expanded="false">Menu</button>' : '';
  return `<a class="skip" href="#content">Skip to content</a><header class="top">${menu}${brand}${tabs(chrome.tabs)}${tools}</header>`;
}

const searchDialog = `<dialog id="search-dialog" aria-label="Search"><form method="dialog"><input class="searchbox" type="search" placeholder="Search this site" aria-label="Search this site" autocomplete="off"></form><ul class="results" aria-live="polite"></ul></dialog>`;

/** The frame of a site's page: header with tabs, sidebar with variants and page tree, content, outline. */
export function sitePage(meta: Meta, chrome: Chrome, body: Body | { missing: string }): string {
  const shown = 'missing' in body ? undefined : body.shown;
  const nav = shown?.tableOfContents !== false;
  const sidebar = nav ? `<aside id="nav" class="sidebar">${variants(chrome.variants)}<nav aria-label="Pages">${tree(chrome.pages, chrome)}</nav></aside>` : '';
  let main: string;
  let outline = '';
  if ('missing' in body) {
    main = `<p class="code">Error 404</p><h1>Page not found</h1><p>${esc(body.missing)}</p><p><a href="${esc(chrome.home)}">Go to the home page</a></p>`;
  } else {
    const crumbs = body.crumbs.length
      ? `<nav class="crumbs" aria-label="Breadcrumb"><ol>${body.crumbs.map((c) => `<li>${c.href ? `<a href="${esc(c.href)}">${esc(c.title)}</a>` : esc(c.title)}</li>`).join('')}</ol></nav>`
      : '';
    const pager =
      body.shown.pagination && (body.previous || body.next)
        ? `<nav class="pager" aria-label="Previous and next pages">${body.previous ? `<a class="prev" href="${esc(body.previous.href)}" rel="prev"><span>Previous</span>${esc(body.previous.title)}</a>` : ''}${body.next ? `<a class="next" href="${esc(body.next.href)}" rel="next"><span>Next</span>${esc(body.next.title)}</a>` : ''}</nav>`
        : '';
    // A hidden title stays for screen readers and the document's outline: only its look goes.
    const title = `<h1${attr('class', !body.shown.title && 'visually-hidden')}>${esc(body.title)}</h1>`;
    const lead = body.shown.description && body.description ? `<p class="lead">${esc(body.description)}</p>` : '';
    main = `${body.cover ? cover(body.cover) : ''}${crumbs}<article>${title}${lead}${body.html}</article>${pager}`;
    const heads = body.outline.filter((h) => h.level >= 1 && h.level <= 3 && h.anchor);
    if (heads.length && body.shown.outline)
      outline = `<aside class="outline"><nav aria-label="On this page"><h2>On this page</h2><ul>${heads.map((h) => `<li class="l${h.level}"><a href="#${esc(h.anchor)}">${esc(h.title)}</a></li>`).join('')}</ul></nav></aside>`;
  }
  const shell = ['shell', nav ? '' : 'no-toc', shown?.wide ? 'wide' : ''].filter(Boolean).join(' ');
  return documentShell(meta, `${header(chrome, nav)}<div class="${shell}">${sidebar}<main id="content" tabindex="-1">${main}</main>${outline}</div>${searchDialog}`);
}

/** The search page without JavaScript: a form and its results. */
export function searchPage(meta: Meta, chrome: Chrome, query: string, results: { title: string; url: string; section?: string }[] | undefined): string {
  const list =
    results === undefined
      ? ''
      : results.length
        ? `<ul class="results">${results.map((r) => `<li><a href="${esc(r.url)}">${esc(r.title)}${r.section ? `<small>${esc(r.section)}</small>` : ''}</a></li>`).join('')}</ul>`
        : `<p>No results for “${esc(query)}”.</p>`;
  const main = `<h1>Search</h1><form method="get" action="${esc(chrome.base)}/~search" role="search"><input class="searchbox" type="search" name="q" value="${esc(query)}" aria-label="Search this site"> <button class="btn" type="submit">Search</button></form>${list}`;
  const sidebar = `<aside id="nav" class="sidebar"><nav aria-label="Pages">${tree(chrome.pages, chrome)}</nav></aside>`;
  return documentShell(meta, `${header(chrome)}<div class="shell">${sidebar}<main id="content" tabindex="-1">${main}</main></div>${searchDialog}`);
}
